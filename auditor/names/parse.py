"""Names as parsed: BibTeX's own name grammar and the `Family, Given` of tagged formats.

`parse` follows BibTeX (`First von Last`, `von Last, First`, `von Last, Jr, First`, braces protect);
`parse_family_given` reads RIS, MEDLINE `FAU`, WoS `AF` and EndNote names. Both give a
`ParsedName`, the value of one `tables.AUTHOR_NAME` entry. Never raise.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

__all__ = [
    "AGNOMES",
    "PARTICLES",
    "SUFFIXES",
    "ParsedName",
    "parse",
    "parse_family_given",
    "suffix_after_comma",
]


@dataclass(frozen=True, slots=True)
class ParsedName:
    """One name split into its parts; the whole family name is `particle` + `family`."""

    family: str | None
    """The family name without its particle (`Vries`, `Silva Junior`), or a corporate name whole."""
    given: str | None = None
    """Given names or initials as written (`Paul S.`, `JA`)."""
    particle: str | None = None
    """BibTeX's `von` part, CSL's particles: `de`, `van der`, `da`."""
    suffix: str | None = None
    """BibTeX's `Jr` part, CSL's `suffix`: `Jr.`, `III`."""

    def as_row(self) -> dict[str, str | None]:
        """The `tables.AUTHOR_NAME` struct value."""
        return {
            "family": self.family,
            "given": self.given,
            "particle": self.particle,
            "suffix": self.suffix,
        }

    def rendered(self, render: Callable[[str], str]) -> ParsedName:
        """Every part passed through `render` (LaTeX → Unicode); empty parts become `None`."""

        def one(part: str | None) -> str | None:
            return (render(part).strip() or None) if part else None

        return ParsedName(one(self.family), one(self.given), one(self.particle), one(self.suffix))


#: Generational suffixes. Not `Jun` or `Sen`: those are surnames too (James J Jun, Amartya Sen).
SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "2nd", "3rd"})
#: Portuguese and Spanish agnomes: part of the family name as registers store it, or not.
AGNOMES = frozenset({"junior", "júnior", "filho", "neto", "sobrinho", "jr", "jr."})


def _depth0_split(name: str, comma: bool) -> list[str]:
    """Parts of `name` at brace depth 0: at commas (`comma`), else at whitespace and ties `~`."""
    parts: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(name):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(depth - 1, 0)
        elif depth == 0 and (
            (comma and ch == ",")
            or (not comma and (ch.isspace() or (ch == "~" and name[i - 1 : i] != "\\")))
        ):
            parts.append(name[start:i])
            start = i + 1
    parts.append(name[start:])
    return [p.strip() for p in parts] if comma else [p for p in parts if p]


def _is_von(token: str) -> bool:
    """BibTeX's test: the first letter at brace depth 0 is lower case; a `{\\'e}` accent counts
    as its letter; any other brace group (`{Foo}`, `{G\\"o}del`) has no case, so is not von."""
    depth, i = 0, 0
    while i < len(token):
        ch = token[i]
        if ch == "\\":  # a command: its name is not a letter of the name (`\\v{C}apek`)
            i += 1
            while i < len(token) and token[i].isalpha():
                i += 1
            continue
        if ch == "{":
            if depth == 0 and token[i + 1 : i + 2] != "\\":
                return False
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch.isalpha():
            return ch.islower()
        i += 1
    return False


def _join(tokens: list[str]) -> str | None:
    return " ".join(tokens) or None


def _von_last(tokens: list[str]) -> tuple[str | None, str | None]:
    """`(particle, family)` of a `von Last` part: leading lower-case words, then the rest; the
    last word is always family (`de la Fontaine` → `de la`, `Fontaine`)."""
    von = 0
    for i, tok in enumerate(tokens[:-1]):
        if _is_von(tok):
            von = i + 1
    return _join(tokens[:von]), _join(tokens[von:])


@lru_cache(maxsize=1 << 16)
def _parse_one_part(name: str) -> ParsedName | None:
    tokens = _depth0_split(name, comma=False)
    if not tokens:
        return None
    suffix = None
    if len(tokens) >= 3 and tokens[-1].lower() in SUFFIXES:
        suffix = tokens.pop()  # `Martin Luther King Jr.`: BibTeX would call `Jr.` the last name
    if len(tokens) == 1:
        return ParsedName(tokens[0], None, None, suffix)
    # First von Last: von runs from the first to the last lower-case word before the last word.
    vons = [i for i, tok in enumerate(tokens[:-1]) if _is_von(tok)]
    if not vons:
        return ParsedName(tokens[-1], _join(tokens[:-1]), None, suffix)
    first, last = vons[0], vons[-1]
    return ParsedName(
        _join(tokens[last + 1 :]), _join(tokens[:first]), _join(tokens[first : last + 1]), suffix
    )


def _trailing_particle(given: str, particle: str | None) -> tuple[str, str | None]:
    """`Vries, Paul S. de`: a particle written after the given names belongs to the family."""
    words = given.split()
    tail = 0
    while tail < len(words) - 1 and words[len(words) - 1 - tail] in PARTICLES:
        tail += 1
    if not tail or particle:
        return given, particle
    return " ".join(words[:-tail]), " ".join(words[-tail:])


_VANCOUVER_TAIL = re.compile(r"^[A-Z]{1,3}$")


def suffix_after_comma(name: str) -> str | None:
    """The one-part name of `Frank G. Bennett, Jr.` (`Frank G. Bennett`), or `None`: not that form.

    By BibTeX's letter that name has the last name `Frank G. Bennett` and the first name `Jr.`;
    every reader means Bennett, suffix Jr. Only a generational suffix alone after the one comma,
    with two words or more before it, is read so: `Smith, Jr.` keeps BibTeX's reading.
    """
    head, comma, tail = name.partition(",")
    if not comma or "," in tail or tail.strip().lower() not in SUFFIXES:
        return None
    words = _depth0_split(head, comma=False)
    # `Smith JA, Jr.` is Vancouver's family first: the comma does follow the family name.
    return head.strip() if len(words) >= 2 and not _VANCOUVER_TAIL.match(words[-1]) else None


def parse(
    name: str, render: Callable[[str], str] | None = None, *, literal: bool = False
) -> ParsedName | None:
    """One name in BibTeX's grammar (`First von Last`, `von Last, First`, `von Last, Jr, First`).

    Braces protect: `{World Health Organization}` is one family name, `Jean {de la Fontaine}`
    has the family `de la Fontaine`. A trailing generational suffix in the one-part form
    (`Martin Luther King Jr.`) is read as the suffix, and so is one after a comma
    (`Frank G. Bennett, Jr.`, `suffix_after_comma`) unless `literal` asks for BibTeX's letter
    (last name `Frank G. Bennett`, first name `Jr.`), and one closing the last name of
    `King Jr., Martin Luther`. `render` (the loader's LaTeX decoder) is
    applied to each part afterwards. `None` for an empty name; never raises.
    """
    name = name.strip()
    if not name:
        return None
    parts = _depth0_split(name, comma=True)
    head_only = None if literal or len(parts) != 2 else suffix_after_comma(name)
    if head_only is not None:
        one = _parse_one_part(head_only)
        parsed = one and ParsedName(one.family, one.given, one.particle, one.suffix or parts[1])
    elif len(parts) == 1:
        parsed = _parse_one_part(name)
    else:
        # More than three parts is BibTeX's "too many commas": the rest stays with First.
        head = _depth0_split(parts[0], comma=False)
        if not head:
            return None
        suffix = parts[1] if len(parts) >= 3 else None
        if not literal and suffix is None and len(head) >= 2 and head[-1].lower() in SUFFIXES:
            # Google Scholar's `King Jr, Martin Luther`: by BibTeX's letter the last name is
            # `King Jr`, but `Jr` is the suffix every reader means.
            suffix = head.pop()
        particle, family = _von_last(head)
        given = ", ".join(parts[2:]) if len(parts) >= 3 else parts[1]
        given, particle = _trailing_particle(given, particle)
        parsed = ParsedName(family, given or None, particle, suffix or None)
    if parsed is None:
        return None
    return parsed.rendered(render) if render is not None else parsed


def parse_family_given(name: str) -> ParsedName | None:
    """`Family, Given[, Suffix]` of RIS, MEDLINE `FAU`, WoS `AF` and EndNote; a lower-case lead
    (`de Vries, Paul`) is the particle. `None` without a comma (no structure is given)."""
    if "," not in name:
        return None
    family, _, rest = name.partition(",")
    given, _, suffix = rest.partition(",")
    words = family.split()
    if not words:
        return None
    particle, last = _von_last(words)
    suffix = suffix.strip()
    given, particle = _trailing_particle(given.strip(), particle)
    if not suffix and given.lower() in SUFFIXES:
        given, suffix = "", given
    return ParsedName(last, given or None, particle, suffix or None)


#: Lower-case words that are particles even where a register capitalises them (`De Vries`).
PARTICLES = frozenset(
    {"da", "das", "de", "del", "della", "der", "des", "di", "do", "dos", "du", "la", "le"}
    | {"van", "von", "ten", "ter", "den", "zu", "y", "e"}
)
