"""Text from input, made safe to print [OUT-escape].

Every piece of text that came from outside (a file's field, a checkpoint's failure text, a
protocol line, a name typed on the command line) goes through :func:`escape_text` before
it is written to a terminal or a log: a control character could otherwise move the cursor,
change the terminal's title or colours (ESC, BEL), overwrite the line (CR), forge a line
of its own (LF, U+2028, U+2029) or reverse what follows (U+202E).  What is escaped is what
Unicode calls a control (Cc), a format character (Cf: the bidirectional overrides and
isolates, zero-width characters) and a line or paragraph separator (Zl, Zp); each is
written as Python writes it in a string literal (``\\x1b``, ``\\n``, ``\\u202e``), so the
message still says what the input held.  Everything else, other languages' letters
included, is kept as it is.
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["escape_text"]

_NAMED: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNSAFE: Final = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
"""controls, format characters, separators, and code points that are surrogates,
private or unassigned (no terminal is obliged to draw them harmlessly)"""


def _escaped(character: str) -> str:
    if character in _NAMED:
        return _NAMED[character]
    point = ord(character)
    if point < 0x100:
        return f"\\x{point:02x}"
    if point < 0x10000:
        return f"\\u{point:04x}"
    return f"\\U{point:08x}"


def escape_text(text: str) -> str:
    """[OUT-escape] ``text`` with every control, format and separator character written as
    its escape, so that printing it prints exactly one line and changes nothing else on
    the terminal."""
    if text.isprintable():  # the common case: nothing to escape (printable excludes Cc, Cf, Z* but space)
        return text
    return "".join(_escaped(c) if c != " " and unicodedata.category(c) in _UNSAFE else c for c in text)
