"""Text forms the criteria compare: `normalize_text` and the Chinese-aware title form.

`normalize_text` is the criteria's `normalizeText` (reference-resolution/v1 §comparison):
NFKD → strip combining marks → lowercase → drop every character that is not a letter, number or
whitespace → collapse whitespace → trim. "Letter" is Unicode general category L*, "number" is N*,
"whitespace" is what `str.isspace` accepts; combining marks (M*) are neither, so stripping them
first or with the other non-letters gives the same result.

`han_title_form` is the conservative title form of `spec/chinese-literature-protocol.md`: fold
fullwidth ASCII only, collapse whitespace, drop whitespace only where it touches a Han ideograph,
strip one balanced outer wrapper and a terminal 。 or `.`. It never NFKC-folds, casefolds or deletes
punctuation, because those collapse real scientific distinctions (ER+ / ER-, 2² / 22, P53 / p53).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "HAN_CLASS",
    "han_title_form",
    "han_titles_equal",
    "has_han",
    "finish_text",
    "fold_many",
    "normalize_many",
    "normalize_text",
]

#: Han ideograph code point ranges (URO, Ext A–H, compatibility ideographs), as a regex class body.
HAN_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f\U00030000-\U000323af"
_HAN = re.compile(f"[{HAN_CLASS}]")
# Whitespace is removed only where it touches a Han ideograph (spaces around Latin runs inside a
# Chinese title are typesetting, spaces between two Latin tokens are meaning: "PD L1" ≠ "PDL 1").
# (from where a run of space starts only: tried inside a long run it costs the run's square)
_WS_TOUCHING_HAN = re.compile(f"(?<!\\s)\\s+(?=[{HAN_CLASS}])|(?<=[{HAN_CLASS}])\\s+")
# Fullwidth ASCII forms U+FF01..U+FF5E fold to U+0021..U+007E; nothing else is folded.
_FULLWIDTH_FOLD = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
# Conventional inert title wrappers (protocol conclusion 1): CJK brackets and curly quotes.
_WRAPPERS = {"《": "》", "「": "」", "『": "』", "【": "】", "“": "”", "‘": "’"}
_TERMINALS = ("。", ".")


def has_han(s: str | None) -> bool:
    """True when `s` contains at least one Han ideograph (a null or empty string has none)."""
    # An ASCII string (most titles) holds none: `isascii` is a flag read, the search a scan.
    return s is not None and not s.isascii() and _HAN.search(s) is not None


def _strip_wrapper(s: str) -> str:
    """Remove one outer wrapper pair only if its opening mark closes at the very last character."""
    if len(s) < 2 or s[0] not in _WRAPPERS or s[-1] != _WRAPPERS[s[0]]:
        return s
    opener, closer = s[0], s[-1]
    depth = 0
    for i, ch in enumerate(s):
        if ch == opener and opener != closer:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0 and i != len(s) - 1:
                # 《红楼梦》与《金瓶梅》: the first pair closes early.
                return s
    return s[1:-1].strip()


def _strip_terminal(s: str) -> str:
    """Remove one terminal 。 or `.` (fullwidth ． has already been folded to `.`)."""
    if s.endswith(_TERMINALS):
        return s[:-1].rstrip()
    return s


def han_title_form(s: str | None) -> str:
    """The Chinese-aware conservative title form; `""` for a null or blank title.

    Steps: fold fullwidth ASCII (U+FF01–U+FF5E) → collapse whitespace (U+3000 included) and trim →
    drop whitespace touching a Han ideograph → strip a terminal 。/`.`, one balanced outer wrapper,
    then a terminal 。/`.` again (so both `《题》。` and `《题。》` reduce to `题`).
    """
    if not s:
        return ""
    # str.split() splits on exactly the `\s` (str.isspace) characters, U+3000 included.
    out = " ".join(s.translate(_FULLWIDTH_FOLD).split())
    if " " in out:
        out = _WS_TOUCHING_HAN.sub("", out)
    out = _strip_terminal(out)
    out = _strip_wrapper(out)
    return _strip_terminal(out)


def han_titles_equal(a: str | None, b: str | None) -> bool | None:
    """Exact equality of `han_title_form`; `None` when the pair is unverifiable.

    Unverifiable means either side is empty after normalization, or one side carries a Han
    ideograph and the other does not (a CJK title against a Latin-only one: there is no translation
    oracle, so a difference is not evidence). Two titles without Han compare by the same exact form
    (a DOI-keyed "Editorial" equals "Editorial"). No fuzzy ratio takes part, in either direction.
    """
    fa, fb = han_title_form(a), han_title_form(b)
    if not fa or not fb:
        return None
    if has_han(fa) != has_han(fb):
        return None
    return fa == fb


# Python's `\w` on str patterns is exactly categories L* and N* plus "_", and `\s` is exactly
# `str.isspace` (tests/compare/test_text.py checks both over every code point), so this deletes
# everything that is not a letter, number or whitespace.
_NOT_KEPT = re.compile(r"[^\w\s]+|_+")


def normalize_text(s: str | None) -> str:
    """The criteria's `normalizeText`; `""` for null. Pure function of `s`, deterministic."""
    if not s:
        return ""
    out = unicodedata.normalize("NFKD", s).lower()
    out = _NOT_KEPT.sub("", out)
    # str.split() splits on exactly the `str.isspace` characters and drops empty ends.
    return " ".join(out.split())


# Batch form: NUL separates the strings, and survives NFKD, lowercasing and the deletion.
_SEP = "\x00"
_NOT_KEPT_BATCH = re.compile(r"[^\w\s\x00]+|_+")
# The combining diacritics block: deleted by the rule (category Mn), and removing it first turns
# most accented Latin into ASCII, where the letter/number/space test is a cheap byte class.
_DIACRITICS = re.compile("[\u0300-\u036f]+")
# On ASCII the rule is a byte map: letters and digits stay (lowercased), every `str.isspace`
# byte (\t \n \v \f \r \x1c-\x1f, space) becomes a space, everything else is deleted.
_ASCII_KEEP = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
_ASCII_SPACE = frozenset(b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f ")
_ASCII_TABLE = bytes(
    32 if b in _ASCII_SPACE else ord(chr(b).lower()) if b in _ASCII_KEEP else b for b in range(256)
)
_ASCII_DELETE = bytes(b for b in range(256) if b not in _ASCII_KEEP and b not in _ASCII_SPACE)


def _finish(part: str) -> str:
    if part.isascii():
        kept = part.encode("ascii").translate(_ASCII_TABLE, _ASCII_DELETE)
        return b" ".join(kept.split()).decode("ascii")
    return " ".join(_NOT_KEPT.sub("", part).split())


def fold_many(values: list[str]) -> list[str] | None:
    """NFKD, lowercase and diacritics removal of each string, in one pass over all of them.

    The first steps of `normalize_text`; what remains is the letter/number/space filter (see
    `finish_text`). NFKD and lowercasing act within a string: NUL has combining class 0 and is
    neither cased nor case-ignorable, so neither reordering nor final-sigma context crosses it.
    `None` when a string itself contains NUL (the caller then goes one by one).
    """
    if any(_SEP in v for v in values):
        return None
    joined = unicodedata.normalize("NFKD", _SEP.join(values)).lower()
    return _DIACRITICS.sub("", joined).split(_SEP)


def finish_text(folded: str) -> str:
    """The rest of `normalize_text` for a string `fold_many` has folded."""
    return _finish(folded)


def normalize_many(values: list[str]) -> list[str]:
    """`normalize_text` of each string, with NFKD and lowercasing done once over all of them."""
    folded = fold_many(values) if values else None
    if folded is None:
        return [normalize_text(v) for v in values]
    return [_finish(part) for part in folded]
