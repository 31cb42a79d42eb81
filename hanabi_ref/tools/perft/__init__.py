"""perft: the number of move sequences of a given length from a fixed deal [PF-count,
PF-divide, PF-cli, PF-vectors] (spec/perft.md).

As in the perft suites of chess engines, one number per (deal, depth) checks an engine's
enumerator of legal moves and its transition together, and the *divide* (the count under
each first move) bisects a wrong count down to the first move where two engines part.
The deck is fixed, so the tree has no chance nodes after the deal.

:mod:`~hanabi_ref.tools.perft.count` counts, :mod:`~hanabi_ref.tools.perft.deals` reads
the deal a command names, :mod:`~hanabi_ref.tools.perft.vectors` writes and reads the
committed perft vectors (``spec/perft.json``) and :mod:`~hanabi_ref.tools.perft.commands`
is ``hanabi-ref perft`` (which, like every ``commands`` module, imports no game at load
time).
"""
