"""The tokens of a reference string and what the reference-string model sees of each (#35).

`tokens(text)` cuts a string at white space, as AnyStyle's parser does: a token is the unit
the model labels, so a field is a run of whole tokens. `features(toks)` gives one list of
`name=value` strings per token, for `pycrfsuite` (training in `training/train_refstrings.py`
and tagging in `documents.crf` use this one function, so the two never drift):

- the word itself, lower-cased and without punctuation, and its first and last letters;
- its shape (`Xx.`, `d-d,`), capitalisation and digit pattern (a year, a page range);
- the punctuation it ends with, and whether it opens or sits inside quotes or brackets;
- a small lexicon of reference words (months, `In`, `Proc`, `pp`, `vol`, `eds`, `et al`);
- its place in the string (tenths) and how many full stops and years came before it;
- the same few of its neighbours, one token either side.
"""

from __future__ import annotations

import re

__all__ = ["features", "tokens"]

_MAX_TOKENS = 400  # a longer "reference" is not one; the rest is left unlabelled

_CORE_RE = re.compile(r"[^\w]+", re.UNICODE)
_YEAR_RE = re.compile(r"^\(?\[?(1[5-9]\d\d|20\d\d)[a-z]?\]?\)?[.,:;)]*$")
_RANGE_RE = re.compile(r"^\(?[A-Za-z]?\d+[-–—]+[A-Za-z]?\d+[.,:;)]*$")
_INITIAL_RE = re.compile(r"^(?:[A-Z\u00c0-\u00de][a-z]?\.(?:-?[A-Z][a-z]?\.)*|[A-Z]{1,3})[,;]?$")
_ROMAN_RE = re.compile(r"^[ivxlcdm]+$|^[IVXLCDM]+$")
_ORDINAL_RE = re.compile(r"^\d+(?:st|nd|rd|th|e|er)$", re.I)

_MONTHS = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "may",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "january",
        "february",
        "march",
        "april",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "spring",
        "summer",
        "autumn",
        "fall",
        "winter",
    ]
)
# words whose sight moves the boundary between fields, in every style family
_LEXICON = {
    "in": "in",
    "proc": "proc",
    "proceedings": "proc",
    "conference": "conf",
    "conf": "conf",
    "symposium": "conf",
    "workshop": "conf",
    "journal": "journal",
    "j": "journal",
    "transactions": "journal",
    "trans": "journal",
    "review": "journal",
    "pp": "pages",
    "p": "pages",
    "pages": "pages",
    "vol": "vol",
    "volume": "vol",
    "no": "no",
    "nr": "no",
    "issue": "no",
    "ed": "ed",
    "eds": "ed",
    "editor": "ed",
    "editors": "ed",
    "hrsg": "ed",
    "et": "etal",
    "al": "etal",
    "and": "and",
    "und": "and",
    "press": "press",
    "publishers": "press",
    "publishing": "press",
    "university": "univ",
    "univ": "univ",
    "retrieved": "retrieved",
    "available": "retrieved",
    "accessed": "retrieved",
    "online": "retrieved",
    "doi": "doi",
    "isbn": "isbn",
    "thesis": "thesis",
    "dissertation": "thesis",
    "phd": "thesis",
    "report": "report",
    "arxiv": "preprint",
    "preprint": "preprint",
    "edn": "edition",
    "edition": "edition",
}


def tokens(text: str) -> list[str]:
    """The white-space tokens of `text`, at most `_MAX_TOKENS` of them."""
    return text.split()[:_MAX_TOKENS]


def _shape(tok: str) -> str:
    out: list[str] = []
    for ch in tok:
        c = "X" if ch.isupper() else "x" if ch.isalpha() else "d" if ch.isdigit() else ch
        if not out or out[-1] != c:
            out.append(c)
    return "".join(out)[:8]


def _caps(core: str) -> str:
    if not core or not any(ch.isalpha() for ch in core):
        return "none"
    if core.isupper():
        return "upper"
    if core[0].isupper():
        return "title"
    return "lower" if core.islower() else "mixed"


def _number(tok: str, core: str) -> str:
    if _YEAR_RE.match(tok):
        return "year"
    if _RANGE_RE.match(tok):
        return "range"
    if core.isdigit():
        return f"d{min(len(core), 5)}"
    if _ORDINAL_RE.match(core):
        return "ordinal"
    if any(ch.isdigit() for ch in core):
        return "mixed"
    return "roman" if _ROMAN_RE.match(core) else "none"


def _own(tok: str) -> dict[str, str]:
    """A token's own features, keyed by name (its neighbours borrow a few)."""
    core = _CORE_RE.sub("", tok)
    low = core.lower()
    last = tok[-1] if not tok[-1].isalnum() else "a"
    word = low if low else "<p>"
    return {
        "w": word,
        "shape": _shape(tok),
        "caps": _caps(core),
        "num": _number(tok, core),
        "last": last,
        "first": tok[0] if not tok[0].isalnum() else "a",
        "lex": "month" if low in _MONTHS else _LEXICON.get(low, "-"),
        "init": "1" if _INITIAL_RE.match(tok) else "0",
        "pre2": low[:2],
        "suf3": low[-3:],
        "len": str(min(len(core), 12)),
    }


def features(toks: list[str]) -> list[list[str]]:
    """One list of `name=value` features per token of `toks` (see the module docstring)."""
    own = [_own(t) for t in toks]
    n = len(toks)
    out: list[list[str]] = []
    stops = years = 0
    quoted = bracket = False
    for i, (tok, f) in enumerate(zip(toks, own, strict=True)):
        opens_quote = tok[0] in '“"‘«„' and not quoted
        opens_bracket = tok[0] in "([" and not bracket
        feats = [f"{k}={v}" for k, v in f.items()]
        feats += [
            f"pos={10 * i // n}",
            f"stops={min(stops, 4)}",
            f"years={min(years, 2)}",
            f"quote={'open' if opens_quote else int(quoted)}",
            f"bracket={'open' if opens_bracket else int(bracket)}",
        ]
        for d, tag in ((-1, "p"), (1, "n")):
            j = i + d
            if 0 <= j < n:
                g = own[j]
                feats += [f"{tag}w={g['w']}", f"{tag}shape={g['shape']}", f"{tag}last={g['last']}"]
                feats += [f"{tag}lex={g['lex']}", f"{tag}init={g['init']}", f"{tag}num={g['num']}"]
            else:
                feats.append(f"{tag}=edge")
        out.append(feats)
        quoted = _quote_state(tok, quoted or opens_quote)
        bracket = _bracket_state(tok, bracket or opens_bracket)
        if tok.endswith(".") and f["init"] == "0" and len(tok) > 3:
            stops += 1
        if f["num"] == "year":
            years += 1
    return out


def _quote_state(tok: str, inside: bool) -> bool:
    """Whether the token after `tok` is still inside quotes."""
    if not inside:
        return False
    closing = tok.rstrip(".,;:)")
    return not (closing.endswith(("”", '"', "’", "»", "“")) and len(tok) > 1)


def _bracket_state(tok: str, inside: bool) -> bool:
    """Whether the token after `tok` is still inside brackets."""
    return inside and not tok.rstrip(".,;:").endswith((")", "]"))
