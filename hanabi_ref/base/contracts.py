"""The switch for icontract checks [CT-switch].

Contracts are on by default.  Set the environment variable ``HANABI_REF_CONTRACTS=0``
before ``hanabi_ref`` is imported to switch every contract off (the decorators then return
the undecorated functions and classes, so they cost nothing).  The engine is correct
either way: contracts only check, they never steer.
"""

import os

ENABLED: bool = os.environ.get("HANABI_REF_CONTRACTS", "1").strip().lower() not in {
    "0",
    "off",
    "false",
    "no",
}
