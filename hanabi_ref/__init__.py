"""hanabi_ref: the reference implementation of the card game Hanabi.

The engine mirrors Algorithm 2.16 of the thesis "Hanabi, cooperative fireworks" (2015)
step by step; the rules are numbered clauses in ``spec/rules.md`` and every function,
contract and test cites them.  Start with :func:`hanabi_ref.rules.make_config`,
:func:`hanabi_ref.transition.initial_state` and :func:`hanabi_ref.transition.apply`.
"""

__version__ = "0.1.0"

from hanabi_ref import compiled as _compiled  # noqa: E402  [B-compiled] load a matching compiled build

_compiled.install()
