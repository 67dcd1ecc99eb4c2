"""The comparable forms of auditor/v2's titles, one string at a time.

A form is what two spellings of the same thing have in common. A title's form drops what is not
the title (markup, TeX residue, case, punctuation, hyphenation and spacing inside compounds,
British/American spelling). Name keys live in `auditor.names`. Forms never decide anything
themselves: the rules in `auditor.compare.v2` compare them.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from auditor.markup import strip_markup

__all__ = [
    "SPELLING_WORDS",
    "american_word",
    "title_main",
    "title_tokens",
    "title_words",
]

# TeX that reaches a register title unconverted (`${{\mathrm {Latent`): commands, math shifts,
# braces. The claimed side was already decoded to Unicode by the loader.
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?|\\.")
_TEX_CHARS = re.compile(r"[${}]")
# Characters that join the parts of one compound: hyphens and dashes of every code point, the
# slash; replaced by a space, and the compound also compared closed up (see `title_key`).
_JOINERS = re.compile(r"[\u002d\u00ad\u2010-\u2015\u2212\ufe58\ufe63\uff0d/]")
_NOT_KEPT = re.compile(r"[^\w\s]+|_+")
_GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon",
    "ζ": "zeta", "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu",
    "ν": "nu", "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau",
    "υ": "upsilon", "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
}  # fmt: skip
# British → American, as whole-word rewrites applied to both sides (so they can only join two
# spellings of one word). Suffix rules are limited to stems that are words on their own.
_SPELLING = {
    "colour": "color", "flavour": "flavor", "honour": "honor", "humour": "humor",
    "labour": "labor", "neighbour": "neighbor", "behaviour": "behavior", "favour": "favor",
    "harbour": "harbor", "rumour": "rumor", "vapour": "vapor", "armour": "armor",
    "endeavour": "endeavor", "tumour": "tumor", "odour": "odor", "vigour": "vigor",
    "rigour": "rigor", "centre": "center", "metre": "meter", "litre": "liter", "fibre": "fiber",
    "theatre": "theater", "calibre": "caliber", "programme": "program", "grey": "gray",
    "defence": "defense", "offence": "offense", "licence": "license", "ageing": "aging",
    "aluminium": "aluminum", "sulphur": "sulfur", "catalogue": "catalog", "dialogue": "dialog",
    "analogue": "analog", "towards": "toward", "whilst": "while", "amongst": "among",
    "judgement": "judgment", "acknowledgement": "acknowledgment", "enrol": "enroll",
    "fulfil": "fulfill", "manoeuvre": "maneuver", "vs": "versus", "plough": "plow", "tyre": "tire",
    "diarrhoea": "diarrhea", "oestrogen": "estrogen", "foetal": "fetal", "foetus": "fetus",
}  # fmt: skip
_SPELLING_RULES = (
    # -ise/-isation/-yse: organise, optimisation, analyse, catalysed.
    (re.compile(r"^(\w{2,}[^aeiou\W])is(e|es|ed|ing|ation|ations|er|ers|able)$"), r"\1iz\2"),
    (re.compile(r"^(\w+)ys(e|es|ed|ing|er|ers)$"), r"\1yz\2"),
    # doubled l before -ing/-ed/-er: modelling, labelled, travelling, signalling.
    (
        re.compile(
            r"^(model|label|travel|signal|cancel|channel|level|fuel|tunnel|counsel|funnel|"
            r"total|marshal|pixel|kernel|jewel|dial|rival|shovel|spiral)l(ing|ed|er|ers)$"
        ),
        r"\1\2",
    ),
    # ae/oe in medical stems: haemoglobin, anaemia, paediatric, oesophagus, leukaemia.
    (re.compile(r"^(h|an|p|leuk|orthop|gyn|ort|septic|isch)ae(\w*)$"), r"\1e\2"),
    (re.compile(r"^oe(soph\w*|dem\w*)$"), r"e\1"),
)


def _fold(s: str) -> str:
    """NFKD, lowercase, combining marks removed, Greek letters spelled out."""
    if s.isascii():
        return s.lower()
    out = unicodedata.normalize("NFKD", s).lower()
    out = "".join(c for c in out if not unicodedata.combining(c))
    return "".join(_GREEK.get(c, c) for c in out)


@lru_cache(maxsize=65536)
def _american(word: str) -> str:
    if word in _SPELLING:
        return _SPELLING[word]
    for pattern, repl in _SPELLING_RULES:
        if pattern.match(word):
            return pattern.sub(repl, word)
    return word


#: The words `american_word` rewrites whole (its rules rewrite others by their endings).
SPELLING_WORDS = tuple(_SPELLING)


def american_word(word: str) -> str:
    """One word of `title_words` (folded, punctuation removed) in American spelling."""
    return _american(word)


_GREEK_NAMES = frozenset(_GREEK.values()) | {"varepsilon", "vartheta", "varphi", "varrho"}


def _tex_command(match: re.Match[str]) -> str:
    """A TeX Greek letter reads as its name (`\\alpha` = `α` = `alpha`); other commands go."""
    name = match.group(0)[1:].rstrip("*").lower()
    if name in _GREEK_NAMES:
        return f" {name.removeprefix('var')} "
    return " "


# A register's notice label in front of a title is not the title (the retraction itself is the
# record's `updates`, a finding of its own): `RETRACTED: …`, `WITHDRAWN: …`.
_NOTICE_PREFIX = re.compile(
    r"^\s*(?:retracted(?: article)?|withdrawn|retraction|expression of concern)\s*[:.\u2014-]\s*",
    re.IGNORECASE,
)


def _clean(s: str | None) -> str:
    """Markup and TeX residue removed, `&` read as `and`, compound joiners turned into spaces."""
    if not s:
        return ""
    out = _NOTICE_PREFIX.sub("", strip_markup(s) or "")
    if "\\" in out or "$" in out:
        out = _TEX_CHARS.sub("", _TEX_COMMAND.sub(_tex_command, out))
    out = out.replace("&", " and ")
    if out.isascii():
        return out.replace("-", " ").replace("/", " ")
    return _JOINERS.sub(" ", out)


# On ASCII text the joiners (`-`, `/`) are two plain replacements, and what is not a letter,
# digit or `str.isspace` is deleted by one `bytes.translate`: C loops, not regular expressions.
_ASCII_NOT_KEPT = bytes(c for c in range(128) if not (chr(c).isalnum() or chr(c).isspace()))


@lru_cache(maxsize=65536)
def title_words(s: str | None) -> tuple[str, ...]:
    """The title's words in order: folded, punctuation removed, American spelling."""
    folded = _fold(_clean(s))
    if folded.isascii():
        text = folded.encode("ascii").translate(None, _ASCII_NOT_KEPT).decode("ascii")
    else:
        text = _NOT_KEPT.sub("", folded)
    return tuple(map(_american, text.split()))


def title_tokens(s: str | None) -> frozenset[str]:
    """The set of `title_words`."""
    return frozenset(title_words(s))


# A subtitle starts at the first colon, em/en dash with spaces, ` - `, or question mark followed
# by more words: the main title is what comes before it.
_SUBTITLE = re.compile(r"\s*(?::|\s[\u2013\u2014-]\s|\?(?=\s+\w)|\.\s+(?=[A-Z]))\s*")


def _may_have_subtitle(clean: str) -> bool:
    """Whether `clean` holds a character `_SUBTITLE` needs (six substring tests in C, far
    cheaper than the search they spare)."""
    return (
        ":" in clean
        or "-" in clean
        or "." in clean
        or "?" in clean
        or "\u2013" in clean
        or "\u2014" in clean
    )


# A trailing bracketed note (`(Student Abstract)`, `[Extended Version]`) is read as a subtitle too.
_TRAILING_NOTE = re.compile(r"\s*[(\[][^()\[\]]+[)\]]\s*\.?\s*$")


def title_main(s: str | None) -> str | None:
    """The main title before a subtitle separator; `None` when the title has no subtitle."""
    if not s:
        return None
    clean = strip_markup(s) or ""
    # Each pattern needs one of a few characters: most titles have none and skip the search.
    if ")" in clean or "]" in clean:
        note = _TRAILING_NOTE.search(clean)
        if note is not None and note.start() > 0:
            return clean[: note.start()]
    if not _may_have_subtitle(clean):
        return None
    match = _SUBTITLE.search(clean)
    if match is None or match.start() == 0 or not clean[match.end() :].strip():
        return None
    return clean[: match.start()]
