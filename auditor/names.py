"""Personal names: the one place a name is parsed, cut or keyed.

A name reaches us in two forms, kept apart (`references.authors` and `references.author_names`):

- **as written**: one string per author, exactly as the source gives it (LaTeX rendered, nothing
  reordered). `reference-resolution/v1` reads only this, through `v1_surname`: the part before
  the first ASCII comma, else the last whitespace token, then `normalize_text`.
- **as parsed**: a `ParsedName` (family, given, particle, suffix) where the source has structure:
  BibTeX's own name grammar (`parse`), `Family, Given` of tagged formats (`parse_family_given`),
  CSL's `family`/`given` (`ParsedName` built directly).

`name_keys` (a claimed name) and `register_name_keys` (a register's surname) give every surname a
name can stand for as compact keys; two names match when their keys meet. Keys tolerate the ways
registers store names: with or without the particle (`de Vries` ~ `Vries`), compound Iberian
surnames (`da Silva Junior` ~ `Silva Junior` ~ `Junior`), a suffix in the family or given field,
hyphen and apostrophe variants, and initials on one side only. auditor/v2 and the search's
candidate check (`compare.agreement`) match names with these and nothing else.

Public API: `ParsedName`, `parse`, `parse_family_given` (parsing); `v1_surname`,
`v1_surname_cut`, `v1_surname_cut_column`, `first_token`, `last_token` (criteria v1's literal
claimed and register rules); `name_keys`, `register_name_keys` (v2 matching); `cited_surname`
(search queries, `fix`) and `family_first_surname` (the Chinese waterfall's `[1au]` query).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from auditor.compare.text import has_han, normalize_text

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = [
    "ParsedName",
    "cited_surname",
    "family_first_surname",
    "first_token",
    "last_token",
    "name_keys",
    "parse",
    "parse_family_given",
    "register_name_keys",
    "v1_surname",
    "v1_surname_cut",
    "v1_surname_cut_column",
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


# ---------------------------------------------------------------------------------------------
# criteria v1 §authors.claimed_surname: "part before the first ASCII comma if there is one, else
# the last whitespace token; then normalize_text" (pinned to criteria.json by tests/test_names.py).


def v1_surname_cut(name: str | None) -> str:
    """The raw claimed-surname part of a name as written (before `normalize_text`)."""
    if not name:
        return ""
    if "," in name:
        return name.split(",", 1)[0]
    tokens = name.split()
    return tokens[-1] if tokens else ""


def v1_surname(name: str | None) -> str:
    """criteria v1 §authors.claimed_surname of one name as written; `""` when nothing is left."""
    return normalize_text(v1_surname_cut(name)) if name else ""


# `str.split()` whitespace on ASCII, as an RE2 class (its `\s` lacks \v and \x1c-\x1f).
_WS_CLASS = r"\t\n\x0b\x0c\r\x1c-\x1f "
_LAST_TOKEN = f"(?P<token>[^{_WS_CLASS}]*)[{_WS_CLASS}]*$"


def v1_surname_cut_column(column: pa.Array | pa.ChunkedArray) -> pa.Array:
    """`v1_surname_cut` over a whole string column (null → `""`), with no Python loop on ASCII."""
    # Imported here: the scalar rules (fix, search, loaders) need no Arrow at start-up.
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
    if pa.types.is_large_string(column.type):
        column = column.cast(pa.string())
    values = pc.fill_null(column, "")
    if len(values) == 0:
        return pa.array([], pa.string())
    # Arrow's string kernels (a split and one RE2 pass); the leftmost match of `_LAST_TOKEN` is the
    # last token. They agree with `str.split` on ASCII only: other strings take the Python rule.
    before = pc.list_element(pc.split_pattern(values, ",", max_splits=1), 0)
    last = pc.struct_field(pc.extract_regex(values, _LAST_TOKEN), [0])
    out: pa.Array = pc.if_else(pc.match_substring(values, ","), before, last)
    other = np.flatnonzero(~pc.string_is_ascii(values).to_numpy(zero_copy_only=False))
    if other.size == 0:
        return out
    done = [v1_surname_cut(v) for v in pc.take(values, pa.array(other)).to_pylist()]
    where = np.arange(len(values), dtype=np.int64)
    where[other] = len(values) + np.arange(other.size)
    return pc.take(pa.concat_arrays([out, pa.array(done, pa.string())]), pa.array(where))


# ---------------------------------------------------------------------------------------------
# Parsing.

#: Generational suffixes. Not `Jun` or `Sen`: those are surnames too (James J Jun, Amartya Sen).
_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "2nd", "3rd"})
#: Portuguese and Spanish agnomes: part of the family name as registers store it, or not.
_AGNOMES = frozenset({"junior", "júnior", "filho", "neto", "sobrinho", "jr", "jr."})


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
    if len(tokens) >= 3 and tokens[-1].lower() in _SUFFIXES:
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
    while tail < len(words) - 1 and words[len(words) - 1 - tail] in _PARTICLES:
        tail += 1
    if not tail or particle:
        return given, particle
    return " ".join(words[:-tail]), " ".join(words[-tail:])


def parse(name: str, render: Callable[[str], str] | None = None) -> ParsedName | None:
    """One name in BibTeX's grammar (`First von Last`, `von Last, First`, `von Last, Jr, First`).

    Braces protect: `{World Health Organization}` is one family name, `Jean {de la Fontaine}`
    has the family `de la Fontaine`. A trailing generational suffix in the one-part form
    (`Martin Luther King Jr.`) is read as the suffix. `render` (the loader's LaTeX decoder) is
    applied to each part afterwards. `None` for an empty name; never raises.
    """
    name = name.strip()
    if not name:
        return None
    parts = _depth0_split(name, comma=True)
    if len(parts) == 1:
        parsed = _parse_one_part(name)
    else:
        # More than three parts is BibTeX's "too many commas": the rest stays with First.
        head = _depth0_split(parts[0], comma=False)
        if not head:
            return None
        particle, family = _von_last(head)
        suffix = parts[1] if len(parts) >= 3 else None
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
    if not suffix and given.lower() in _SUFFIXES:
        given, suffix = "", given
    return ParsedName(last, given or None, particle, suffix or None)


# ---------------------------------------------------------------------------------------------
# Matching keys (auditor/v2 and the stages that reuse its judgement).

_TEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?|\\.")
_INITIALS = re.compile(r"^(?:[A-Z]\.?){1,3}$|^(?:[A-Z]\.-?)+[A-Z]?\.?$")
_NAME_NOT_KEPT = re.compile(r"[^\w]+|_+")
_TRANSLIT = (("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s"))
# Hyphens of every code point: `Foltyn-Dumitru` also stands for `Foltyn` and `Dumitru`.
_HYPHENS = re.compile(r"[\u002d\u2010\u2011\u2012\u2013]")
# An apostrophe-joined particle: `O'Brien` ~ `OBrien` (compacted alike), `D'Angelo` ~ `Angelo`.
_ELISION = re.compile(r"^(?:d|l|dell|o)['\u2019`´]", re.IGNORECASE)
_ASCII_NOT_ALNUM = {c: None for c in range(128) if not chr(c).isalnum()}
#: Lower-case words that are particles even where a register capitalises them (`De Vries`).
_PARTICLES = frozenset(
    {"da", "das", "de", "del", "della", "der", "des", "di", "do", "dos", "du", "la", "le"}
    | {"van", "von", "ten", "ter", "den", "zu", "y", "e"}
)


def _compact(s: str) -> str:
    """Letters and digits only, folded: `Foltyn‐Dumitru` → `foltyndumitru`, `Müller` → `muller`.

    TeX residue a register left in a name (`{\\v{Z}`) goes first: the command is not a letter.
    """
    if "\\" in s:
        s = _TEX_COMMAND.sub("", s)
    if s.isascii():
        return s.lower().translate(_ASCII_NOT_ALNUM)
    out = _NAME_NOT_KEPT.sub("", unicodedata.normalize("NFKD", s.replace("ß", "ss")).lower())
    return "".join(c for c in out if not unicodedata.combining(c))


def _variants(key: str) -> set[str]:
    """A key and its German transliteration-folded form (`mueller` = `müller` = `muller`)."""
    if not key:
        return set()
    if not any(pair in key for pair in ("ae", "oe", "ue", "ss")):
        return {key}
    folded = key
    for a, b in _TRANSLIT:
        folded = folded.replace(a, b)
    return {key, folded}


def _family_keys(words: list[str]) -> set[str]:
    """Keys of a family name's words: the whole, without its leading particles, without a
    trailing agnome or suffix, each remaining word, and each part of a hyphenated or elided word."""
    keys: set[str] = set()
    if not words:
        return keys
    while len(words) > 1 and words[-1].lower() in _SUFFIXES:
        words = words[:-1]
    core = list(words)
    while len(core) > 1 and core[0].lower() in _PARTICLES:
        core = core[1:]
    for run in (words, core, core[:-1] if core[-1].lower() in _AGNOMES else []):
        if run:
            keys |= _variants(_compact(" ".join(run)))
    for word in core:
        if word.lower() in _PARTICLES:
            continue
        keys |= _variants(_compact(word))
        for part in _HYPHENS.split(_ELISION.sub("", word)):
            keys |= _variants(_compact(part))
    return {k for k in keys if k}


def _plain(name: str) -> str:
    """A name without the JATS/HTML markup a register may leave in it."""
    if "<" not in name and "&" not in name:
        return name.strip()  # nothing to strip (and no Arrow to import for it)
    from auditor.compare.markup import strip_markup

    return (strip_markup(name) or "").strip()


@lru_cache(maxsize=65536)
def name_keys(name: str | None) -> frozenset[str]:
    """Every surname a claimed name as written may stand for, as compact keys; empty for none.

    `Smith, John` and `de Vries, Paul` → keys of the part before the comma; `Smith J`/`Smith JA`
    (Vancouver: trailing initials) → the words before the initials; `John Smith` → each run of
    trailing words (`van der Berg`, `der Berg`, `Berg`) and the first word (a family-first
    `Zhang Wei`); `张伟` → its first one or two characters (a Han name has no separator).
    """
    if not name or not name.strip():
        return frozenset()
    text = _plain(name)
    if "," in text:
        return frozenset(_family_keys(text.split(",", 1)[0].split()))
    words = text.split()
    # A generational suffix is not the surname (`Martin Luther King Jr.` is King).
    while len(words) > 1 and words[-1].lower() in _SUFFIXES:
        words.pop()
    # Compacted like the register's keys, so punctuation in a Han name (`張·偉`) is no difference.
    han = _compact(text) if len(words) == 1 and has_han(text) else ""
    if len(han) >= 2:
        return frozenset({han, han[:1], han[:2]})
    keys: set[str] = set()
    if len(words) >= 2 and _INITIALS.match(words[-1]):
        keys |= _family_keys(words[:-1]) | _variants(_compact(words[0]))
    # Trailing runs of up to four words: particles (`van der`, `de la`) and compound surnames.
    for i in range(max(0, len(words) - 4), len(words)):
        keys |= _family_keys(words[i:])
    keys |= _variants(_compact(words[0]))
    return frozenset(k for k in keys if k)


@lru_cache(maxsize=65536)
def register_name_keys(surname: str | None) -> frozenset[str]:
    """Keys of a register surname (Crossref `family`, the first token of a PubMed name, …).

    The whole surname, without its particle and without an agnome, and each of its words
    (`van der Berg` → `vanderberg`, `berg`; `da Silva Junior` → `dasilvajunior`, `silvajunior`,
    `silva`, `junior`). An empty surname (a corporate author) has no key and matches nothing.
    """
    if not surname or not surname.strip():
        return frozenset()
    return frozenset(_family_keys(_plain(surname).split()))


def cited_surname(name: str | None) -> str | None:
    """The surname of a name as cited, as written: the part before a comma, the words before
    trailing Vancouver initials (`Smith JA`), else the last word; `None` when none is left.
    Search queries and `fix` use it."""
    if not name or not name.strip():
        return None
    text = name.strip()
    words = text.split()
    if "," not in text and len(words) >= 2 and _INITIALS.match(words[-1]):
        return " ".join(words[:-1])
    cut = v1_surname_cut(text).strip()
    return cut or None


def family_first_surname(name: str | None) -> str | None:
    """The part before a comma, else the first word: a Chinese name romanised family first
    (`Chen Xiaoming`, PubMed's `Chen X`), as the waterfall's `[1au]` query needs it."""
    text = (name or "").strip()
    if "," in text:
        return text.split(",", 1)[0].strip() or None
    words = text.split()
    return words[0] if words else None


def first_token(name: str | None) -> str:
    """criteria v1 register rule for PubMed `authors[].name`: the first whitespace token."""
    tokens = name.split() if isinstance(name, str) else []
    return tokens[0] if tokens else ""


def last_token(name: str | None) -> str:
    """criteria v1 register rule for arXiv `<author><name>`: the last whitespace token."""
    tokens = name.split() if isinstance(name, str) else []
    return tokens[-1] if tokens else ""
