"""``hanabi-ref bench``: speed, measured honestly, in interleaved runs against a peer or
another mode [B-engine, B-isolate, PL-bench].

``engine`` times whole random games of our engine (and OpenSpiel's) and of the
strategies, and the playability table; it also holds what every benchmark shares, the
interleaved schedule and the machine's description.  ``isolate`` times isolated seats
against in-process ones, ``verify`` the verifier's games and shrinking.  Each sits above
what it measures, so nothing below imports a benchmark.
"""
