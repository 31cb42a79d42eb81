"""The tools built on the engine and the players: simulation, isolation, verification, peers,
the engine protocol, RL, the solver, playability, the viewer, human play, benchmarks,
conformance vectors, spec coverage and the compiled build.
"""
