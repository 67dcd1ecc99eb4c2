"""Matching keys of names (auditor/v2 and the search's candidate check).

`name_keys` (a claimed name as written) and `register_name_keys` (a register's surname) give every
surname a name can stand for as compact keys; two names match when their keys meet. Keys tolerate
how registers store names: with or without the particle (`de Vries` ~ `Vries`), compound Iberian
surnames (`da Silva Junior` ~ `Silva Junior` ~ `Junior`), a suffix in either field, hyphen and
apostrophe variants, initials on one side only.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from auditor.names.cuts import INITIALS
from auditor.names.parse import AGNOMES, PARTICLES, SUFFIXES, suffix_after_comma
from auditor.text import has_han

__all__ = ["name_keys", "register_name_keys"]


_TEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?|\\.")
_NAME_NOT_KEPT = re.compile(r"[^\w]+|_+")
_TRANSLIT = (("ae", "a"), ("oe", "o"), ("ue", "u"), ("ss", "s"))
# Hyphens of every code point: `Foltyn-Dumitru` also stands for `Foltyn` and `Dumitru`.
_HYPHENS = re.compile(r"[\u002d\u2010\u2011\u2012\u2013]")
# An apostrophe-joined particle: `O'Brien` ~ `OBrien` (compacted alike), `D'Angelo` ~ `Angelo`.
_ELISION = re.compile(r"^(?:d|l|dell|o)['\u2019`´]", re.IGNORECASE)
_ASCII_NOT_ALNUM = {c: None for c in range(128) if not chr(c).isalnum()}


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
    while len(words) > 1 and words[-1].lower() in SUFFIXES:
        words = words[:-1]
    core = list(words)
    while len(core) > 1 and core[0].lower() in PARTICLES:
        core = core[1:]
    for run in (words, core, core[:-1] if core[-1].lower() in AGNOMES else []):
        if run:
            keys |= _variants(_compact(" ".join(run)))
    for word in core:
        if word.lower() in PARTICLES:
            continue
        keys |= _variants(_compact(word))
        for part in _HYPHENS.split(_ELISION.sub("", word)):
            keys |= _variants(_compact(part))
    return {k for k in keys if k}


def _plain(name: str) -> str:
    """A name without the JATS/HTML markup a register may leave in it."""
    if "<" not in name and "&" not in name:
        return name.strip()  # nothing to strip (and no Arrow to import for it)
    from auditor.markup import strip_markup

    return (strip_markup(name) or "").strip()


@lru_cache(maxsize=65536)
def name_keys(name: str | None) -> frozenset[str]:
    """Every surname a claimed name as written may stand for, as compact keys; empty for none.

    `Smith, John` and `de Vries, Paul` → keys of the part before the comma (not in `Frank G.
    Bennett, Jr.`: a suffix alone after it, read as `Frank G. Bennett`); `Smith J`/`Smith JA`
    (Vancouver: trailing initials) → the words before the initials; `John Smith` → each run of
    trailing words (`van der Berg`, `der Berg`, `Berg`) and the first word (a family-first
    `Zhang Wei`); `张伟` → its first one or two characters (a Han name has no separator).
    """
    if not name or not name.strip():
        return frozenset()
    text = _plain(name)
    # `Frank G. Bennett, Jr.` is Bennett, suffix Jr.: the comma is not the `Family, Given` one.
    text = suffix_after_comma(text) or text
    if "," in text:
        return frozenset(_family_keys(text.split(",", 1)[0].split()))
    words = text.split()
    # A generational suffix is not the surname (`Martin Luther King Jr.` is King).
    while len(words) > 1 and words[-1].lower() in SUFFIXES:
        words.pop()
    # Compacted like the register's keys, so punctuation in a Han name (`張·偉`) is no difference.
    han = _compact(text) if len(words) == 1 and has_han(text) else ""
    if len(han) >= 2:
        return frozenset({han, han[:1], han[:2]})
    keys: set[str] = set()
    if len(words) >= 2 and INITIALS.match(words[-1]):
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
