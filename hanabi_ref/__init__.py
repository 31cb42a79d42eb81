"""hanabi_ref: the reference implementation of the card game Hanabi.

The engine mirrors Algorithm 2.16 of the thesis "Hanabi, cooperative fireworks" (2015)
step by step; the rules are numbered clauses in ``spec/rules.md`` and every function,
contract and test cites them.  Start with :func:`hanabi_ref.rules.make_config`,
:func:`hanabi_ref.transition.initial_state` and :func:`hanabi_ref.transition.apply`.

Importing the package reads no file and changes no import machinery.  The optional
compiled build is an explicit opt-in [B-compiled]: ``HANABI_REF_COMPILED=1`` in the
environment (acted on here), :func:`hanabi_ref.compiled.enable`, or ``--compiled``.
"""

import os as _os

__version__ = "0.1.0"

# [B-compiled] the opt-in by environment; unset or 0 (off) does not even import the module.
if _os.environ.get("HANABI_REF_COMPILED", "0").strip() not in {"", "0"}:
    from hanabi_ref.compiled import enable_from_environment as _enable_from_environment

    _enable_from_environment()
