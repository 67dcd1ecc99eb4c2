"""Text that is safe to print on a terminal or in a CI log: no control sequences.

A citation key, a title or a register answer can carry ESC, OSC or BEL bytes that rewrite the
terminal (change the title, fake lines, hide output) or a CI log's annotations. `printable`
replaces every C0/C1 control character except tab and newline with a visible `\\xNN` escape;
`one_line` also escapes tab and newline, for values printed inside a single line.
"""

from __future__ import annotations

import re

__all__ = ["json_for_terminal", "one_line", "printable"]

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_CONTROL_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with control characters (ESC, BEL, CR, bidi overrides …) shown as `\\xNN`."""
    return _CONTROL.sub(_escape, text)


def one_line(text: str) -> str:
    """`printable`, with tab and newline escaped too."""
    return _CONTROL_LINE.sub(_escape, text)


_JSON_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_for_terminal(text: str) -> str:
    """JSON text (`ensure_ascii=False`) with the characters JSON leaves raw but a terminal acts
    on (DEL, C1 controls such as CSI, bidi overrides) written as `\\uXXXX` escapes: the same
    data, safe to print."""
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
