"""Exceptions a user of the library can act on.

A ``HanabiError`` always means bad input (a configuration, an action, a trace file);
an ``icontract.ViolationError`` always means a bug in hanabi_ref itself.
"""


class HanabiError(Exception):
    """Base class of every error caused by the user's input."""


class ConfigError(HanabiError):
    """[2.9] An invalid game configuration; the message names the field."""


class IllegalActionError(HanabiError):
    """[2.16-2] An action that the rules do not allow; the message names the clause."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{clause}: {message}")
        self.clause = clause


class TraceError(HanabiError):
    """A malformed trace or game file; the message names the place (``actions[17].slot``)."""


class FileReadError(TraceError):
    """An input file that cannot be read at all (missing, a directory, not UTF-8)."""
