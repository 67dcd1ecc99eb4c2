"""LaTeX field values to plain Unicode, fast.

`latex_to_unicode` decodes what bibliographies actually contain (accents such as `M{\\"u}ller`
and `Garc{\\'\\i}a`, special letters such as `\\o` and `\\ss`, text commands such as `\\emph{}`,
`--`/`---`, `~`, escaped specials and simple math such as `$\\alpha$`) with a handful of regular
expressions, and removes protective braces (`{DNA}` → `DNA`). Only a value that still holds a
command after that falls back to pylatexenc, which is about ten times slower than parsing the
whole file. Values without any LaTeX character return at once, and results are memoised, because
author names and journal titles repeat across a bibliography.

Nothing here raises for any input string: the fallback's parse errors degrade to the fast result.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

__all__ = ["latex_to_unicode", "plain_value", "strip_braces"]

#: Accent commands → Unicode combining marks; NFC then composes `u` + U+0308 into `ü`.
_ACCENTS = {
    '"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304",
    ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
    "r": "\u030a", "d": "\u0323", "b": "\u0331",
}  # fmt: skip
_LETTERS = {
    "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
    "ss": "ß", "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "dh": "ð", "DH": "Ð", "th": "þ",
    "TH": "Þ", "ng": "ŋ", "NG": "Ŋ", "dj": "đ", "DJ": "Đ", "textendash": "–",
    "textemdash": "—", "textquoteright": "’", "textquoteleft": "‘", "S": "§", "P": "¶",
    "copyright": "©", "textregistered": "®", "texttrademark": "™", "ldots": "…",
    "dots": "…", "textellipsis": "…", "textdegree": "°", "texttimes": "×",
    "hyphen": "-", "textquotedblleft": "“", "textquotedblright": "”",
}  # fmt: skip
#: TeX logos, rendered as their names. As after any control word, TeX swallows the spaces after
#: one: `The \\TeX book` prints "The TeXbook"; `\\LaTeX\\ Companion`, `{\\LaTeX} Companion` keep it.
_LOGOS = {
    "BibTeX": "BibTeX", "BibLaTeX": "BibLaTeX", "LaTeXe": "LaTeX2e", "LaTeX": "LaTeX",
    "TeX": "TeX", "XeTeX": "XeTeX", "XeLaTeX": "XeLaTeX", "LuaTeX": "LuaTeX",
    "LuaLaTeX": "LuaLaTeX", "pdfTeX": "pdfTeX", "pdfLaTeX": "pdfLaTeX", "ConTeXt": "ConTeXt",
    "AmSTeX": "AmSTeX", "AMSTeX": "AMSTeX", "AmS": "AmS", "METAFONT": "METAFONT",
}  # fmt: skip
#: Math operators written as commands (`\\log n`): their names, spacing as written.
_OPERATORS = (
    "log|ln|lg|exp|sin|cos|tan|cot|sec|csc|arcsin|arccos|arctan|sinh|cosh|tanh|max|min|sup|"
    "inf|lim|liminf|limsup|det|dim|ker|deg|gcd|lcm|hom|arg|Pr|mod|bmod|poly|polylog"
)
_GREEK = {
    name: chr(code)
    for name, code in {
        "alpha": 0x3B1, "beta": 0x3B2, "gamma": 0x3B3, "delta": 0x3B4, "epsilon": 0x3B5,
        "varepsilon": 0x3B5, "zeta": 0x3B6, "eta": 0x3B7, "theta": 0x3B8, "iota": 0x3B9,
        "kappa": 0x3BA, "lambda": 0x3BB, "mu": 0x3BC, "nu": 0x3BD, "xi": 0x3BE, "pi": 0x3C0,
        "rho": 0x3C1, "sigma": 0x3C3, "tau": 0x3C4, "upsilon": 0x3C5, "phi": 0x3C6,
        "varphi": 0x3C6, "chi": 0x3C7, "psi": 0x3C8, "omega": 0x3C9, "Gamma": 0x393,
        "Delta": 0x394, "Theta": 0x398, "Lambda": 0x39B, "Xi": 0x39E, "Pi": 0x3A0,
        "Sigma": 0x3A3, "Phi": 0x3A6, "Psi": 0x3A8, "Omega": 0x3A9, "pm": 0xB1, "times": 0xD7,
        "leq": 0x2264, "geq": 0x2265, "le": 0x2264, "ge": 0x2265, "infty": 0x221E,
        "sim": 0x223C, "approx": 0x2248, "cdot": 0xB7, "circ": 0xB0, "to": 0x2192,
        "rightarrow": 0x2192, "prime": 0x2032, "neq": 0x2260, "ell": 0x2113,
    }.items()
}  # fmt: skip
#: Commands whose argument is kept as text (`\emph{in vivo}` → `in vivo`).
_TEXT_COMMANDS = (
    "emph|textit|textbf|textsc|textrm|textsf|texttt|textup|textmd|textsl|textnormal|mathrm|"
    "mathit|mathbf|mathsf|mathtt|mathcal|mbox|hbox|text|url|uppercase|lowercase|MakeUppercase|"
    "MakeLowercase|NoCaseChange|nocase|it|bf|sc|em|rm|sf|tt|sl|upshape|itshape|bfseries|"
    "scshape|normalfont|relax|protect"
)
#: Escaped specials become private-use placeholders until the very end, so neither the regular
#: expressions below nor pylatexenc read them as LaTeX again (`\\%` as a comment cut the rest of a
#: title, `\\&` as an alignment tab vanished).
_ESCAPES = {
    "{": "\ue000", "}": "\ue001", "$": "\ue002", "&": "\ue003", "%": "\ue004", "_": "\ue005",
    "#": "\ue006",
}  # fmt: skip
_RESTORE = str.maketrans({v: k for k, v in _ESCAPES.items()})

_ACCENT_RE = re.compile(
    r"""\\(?:(["'`^~=.])\s*|([uvHckrdb])(?:\s+|(?=\{)))"""  # the accent command
    r"""(?:\{\s*(\\[ij](?![A-Za-z])|[A-Za-z])\s*\}|(\\[ij](?![A-Za-z])|[A-Za-z]))"""  # its letter
)
_LETTER_RE = re.compile(
    r"\\(" + "|".join(sorted(_LETTERS, key=len, reverse=True)) + r")(?![A-Za-z])(?:\{\}|\s*)"
)
_ESCAPE_RE = re.compile(r"\\([&%_$#{}])")
_TEXT_CMD_RE = re.compile(r"\\(?:" + _TEXT_COMMANDS + r")(?![A-Za-z])\s*")
_MATH_RE = re.compile(r"\$([^$]*)\$")
_GREEK_RE = re.compile(r"\\(" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?![A-Za-z])")
_LOGO_RE = re.compile(
    r"\\(" + "|".join(sorted(_LOGOS, key=len, reverse=True)) + r")(?![A-Za-z])(?:\{\}|\s*)"
)
_OPERATOR_RE = re.compile(r"\\(" + _OPERATORS + r")(?![A-Za-z])")
_SPACE_CMD_RE = re.compile(r"\\[ ,;:!/]|\\\\")
_WS_RE = re.compile(r"\s+")
_CMD_NAME_RE = re.compile(r"\\[A-Za-z]+\*?")
_LATEX_CHARS = re.compile(r"[\\{}~$`]|--|''")
_FAST_NEEDED = re.compile(r"[\\$~`]|--|''")
#: TeX's quotes: ``…'' renders “…”, and `…' renders ‘…’ (a lone `'` stays an apostrophe).
_SINGLE_QUOTED_RE = re.compile(r"`([^`'\n]*)'")


@lru_cache(maxsize=1)
def _fallback() -> tuple[Any, type[Exception]]:
    """pylatexenc's converter, imported on first use: most files never need it."""
    from pylatexenc.latex2text import LatexNodes2Text
    from pylatexenc.latexwalker import LatexWalkerError

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=False), LatexWalkerError


def _accent(m: re.Match[str]) -> str:
    mark = _ACCENTS[m.group(1) or m.group(2)]
    letter = m.group(3) or m.group(4)
    if letter.startswith("\\"):
        letter = letter[1]  # dotless i/j under an accent is just i/j
    return letter + mark


def _math(m: re.Match[str]) -> str:
    return _math_body(m.group(1))


@lru_cache(maxsize=4096)
def _math_body(body: str) -> str:
    body = _GREEK_RE.sub(lambda g: _GREEK[g.group(1)], body)
    body = _OPERATOR_RE.sub(r"\1", body)
    # sub- and superscript markers carry no meaning in a title once flattened
    return body.replace("^", "").replace("_", "")


def strip_braces(text: str) -> str:
    """Remove grouping braces (escaped `\\{`/`\\}` were swapped for placeholders before)."""
    return text.replace("{", "").replace("}", "")


def _fast(text: str) -> str:
    s = text
    if "\\" in s:  # most decoded values need only the cheap replacements below
        s = _ESCAPE_RE.sub(lambda m: _ESCAPES[m.group(1)], s)
        s = _LOGO_RE.sub(lambda m: _LOGOS[m.group(1)], s)
        s = _ACCENT_RE.sub(_accent, s)
        s = _LETTER_RE.sub(lambda m: _LETTERS[m.group(1)], s)
        s = _TEXT_CMD_RE.sub("", s)
    if "$" in s:
        s = _MATH_RE.sub(_math, s)
    if "\\" in s:
        s = _SPACE_CMD_RE.sub(" ", s)
    if "--" in s:
        s = s.replace("---", "—").replace("--", "–")
    if "`" in s or "''" in s:
        s = _SINGLE_QUOTED_RE.sub("‘\\1’", s.replace("``", "“").replace("''", "”"))
    return s.replace("~", " ")


def _converted(converter: Any, text: str) -> Iterator[str]:
    yield str(converter.latex_to_text(text))


def _slow(text: str) -> str:
    converter, walker_error = _fallback()
    try:
        # In a generator: pylatexenc keeps an exception in a local (a reference cycle), whose
        # traceback would pin every frame above it, and with them the whole parsed file, until
        # the cyclic collector runs (0.06 s at the end of a 3 MB load); a finished generator's
        # frame is not linked to its caller's.
        return next(_converted(converter, text))
    except (walker_error, ValueError, IndexError, KeyError, TypeError, RecursionError):
        # pylatexenc trips on some malformed macros (`\\href` with one argument): drop the names
        return _CMD_NAME_RE.sub("", text).replace("\\", "")


@lru_cache(maxsize=1 << 17)
def latex_to_unicode(text: str) -> str:
    """Decode a BibTeX field value to plain NFC Unicode with collapsed whitespace.

    Protective braces go, escaped specials (`\\&`, `\\%`, `\\{`) stay as their characters, and a
    value with no LaTeX in it comes back as is (whitespace collapsed). Never raises.
    """
    if _LATEX_CHARS.search(text) is None:
        return _WS_RE.sub(" ", text).strip() if ("  " in text or "\n" in text) else text.strip()
    s = _fast(text) if _FAST_NEEDED.search(text) else text
    if "\\" in s or "$" in s:
        s = _slow(s)
    s = strip_braces(s).translate(_RESTORE)
    s = _WS_RE.sub(" ", s).strip()
    return unicodedata.normalize("NFC", s) if not s.isascii() else s


def plain_value(text: str) -> str:
    """Undo only escapes and braces: for identifiers and URLs (`10.1000/a\\_b` → `10.1000/a_b`)."""
    if "\\" in text:  # `\url{…}`, `\_`: drop command names, keep escaped characters
        text = _CMD_NAME_RE.sub("", _ESCAPE_RE.sub(lambda m: m.group(1), text)).replace("\\", "")
    return strip_braces(text).strip()
