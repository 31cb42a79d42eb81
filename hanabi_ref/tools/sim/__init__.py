"""Simulation at scale: many seeded games in parallel, and their statistics
(spec/simulation.md).

Their statistics (means, standard errors, Wilson intervals, histograms) are
``hanabi_ref.base.stats``, which the playability tables use too.  ``chunks`` (the unit of
work a process plays) [SIM-jobs], ``executors`` (this process, local worker processes, a
dask.distributed cluster) [SIM-dask], ``runner`` (cells of games back in seed order, the
progress bar) [SIM-progress], ``sweep`` (grids of strategy parameters and their tables)
[SIM-sweep], ``plot`` (charts) [SIM-plot], ``files`` (atomic output) and ``commands``
(``hanabi-ref simulate`` and ``sweep``).
"""
