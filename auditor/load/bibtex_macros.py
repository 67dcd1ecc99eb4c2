"""A BibTeX field's raw value as its LaTeX text: `@string` macros expanded, `#` concatenation
joined, the month macros, enclosing braces or quotes removed; bounded against macro bombs.
"""

from __future__ import annotations

__all__ = ["MAX_VALUE", "ExpansionError", "Resolver", "enclosed"]

_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_MACROS = {m: str(i) for i, m in enumerate(_MONTHS, 1)}
#: The longest value a macro expansion may produce (the longest real `@string` is a few hundred).
MAX_VALUE = 100_000


def enclosed(part: str) -> str | None:
    """Inner text of a `{…}` or `"…"` value, or `None` when `part` is not one enclosed value."""
    if len(part) >= 2 and (
        (part[0] == "{" and part[-1] == "}") or (part[0] == '"' and part[-1] == '"')
    ):
        return part[1:-1]
    return None


def _split_concat(value: str) -> list[str]:
    """Split a value on `#` at brace depth 0 outside quotes (BibTeX concatenation)."""
    parts: list[str] = []
    depth, quoted, start = 0, False, 0
    for i, ch in enumerate(value):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == "#" and depth == 0 and not quoted:
            parts.append(value[start:i].strip())
            start = i + 1
    parts.append(value[start:].strip())
    return parts


class ExpansionError(ValueError):
    """A value whose `@string` expansion would pass `MAX_VALUE` characters (a macro bomb)."""


class Resolver:
    """Turns raw field values into their LaTeX text: enclosure removed, macros expanded.

    No expansion grows past `MAX_VALUE` characters: `m1 = m0 # m0` forty times would need a
    terabyte. A macro that would is kept as a poisoned name, and a field using it raises
    `ExpansionError` naming the macro and its line, which makes that entry's row a parse error.
    """

    def __init__(self) -> None:
        self.macros: dict[str, str] = {}
        self.poisoned: dict[str, str] = {}  # macro → where it was defined
        self.undefined: set[str] = set()

    def define(self, name: str, raw: str, where: str) -> None:
        """`@string{name = raw}` at `where`: later definitions win; earlier macros are used."""
        low = name.lower()
        try:
            self.macros[low] = self.value(raw)
            self.poisoned.pop(low, None)
        except ExpansionError:
            self.macros.pop(low, None)
            self.poisoned[low] = where

    def value(self, raw: str) -> str:
        if "#" not in raw:  # the common case, one braced or quoted value, a number or a macro
            if len(raw) >= 2 and raw[0] in '{"' and raw[-1] == ("}" if raw[0] == "{" else '"'):
                return raw[1:-1]
            return raw if raw.isdigit() else self._piece(raw)
        inner = enclosed(raw)
        if inner is not None and ("#" not in raw or len(_split_concat(raw)) == 1):
            return inner
        if raw.isdigit():
            return raw
        if "#" not in raw:
            return self._piece(raw)
        pieces, size = [], 0
        for part in _split_concat(raw):
            piece = self._piece(part)
            size += len(piece)
            if size > MAX_VALUE:
                raise ExpansionError(f"expands past {MAX_VALUE:,} characters")
            pieces.append(piece)
        return "".join(pieces)

    def _piece(self, piece: str) -> str:
        inner = enclosed(piece)
        if inner is not None:
            return inner
        if piece.isdigit():
            return piece
        low = piece.lower()
        if low in self.macros:
            return self.macros[low]
        if low in self.poisoned:
            raise ExpansionError(
                f"@string {piece!r} ({self.poisoned[low]}) expands past {MAX_VALUE:,} characters"
            )
        if low in _MONTH_MACROS:
            return _MONTH_MACROS[low]
        self.undefined.add(piece)
        return piece  # an undefined macro: keep its name rather than lose the text
