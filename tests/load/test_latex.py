"""LaTeX → Unicode: the fast path, the fallback, and braces."""

from __future__ import annotations

import pytest

from auditor.load.latex import latex_to_unicode, plain_value


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"M{\"u}ller", "Müller"),
        (r"M\"{u}ller", "Müller"),
        (r"M\"uller", "Müller"),
        (r"Garc{\'\i}a", "García"),
        (r"Garc\'{\i}a", "García"),
        (r"{\O}stergaard", "Østergaard"),
        (r"Br{\aa}ten", "Bråten"),
        (r"Stra{\ss}e", "Straße"),
        (r"\v{C}apek", "Čapek"),
        (r"\c{C}elik", "Çelik"),
        (r"Erd\H{o}s", "Erdős"),
        (r"{\l}ukasz", "łukasz"),
        (r"\emph{in vivo} and \textbf{bold}", "in vivo and bold"),
        (r"pages 1--10 --- really", "pages 1–10 — really"),
        (r"a~b", "a b"),
        (r"$\alpha$-helix and $\beta$", "α-helix and β"),
        (r"{DNA} and {{RNA}}", "DNA and RNA"),
        (r"50\% \& \$5 \{set\} \#1 a\_b", "50% & $5 {set} #1 a_b"),
        ("many   spaces\n\tand lines", "many spaces and lines"),
        ("plain title", "plain title"),
        ("中文标题", "中文标题"),
    ],
)
def test_decoding(latex: str, text: str) -> None:
    assert latex_to_unicode(latex) == text


def test_unknown_commands_fall_back_without_raising() -> None:
    assert latex_to_unicode(r"\href{http://x}{link}").strip() != ""
    for bad in ["\\", "$", "{", "}", "\\'", r"\cite{", r"\"", "$$\\frac{a}{"]:
        assert isinstance(latex_to_unicode(bad), str)


def test_result_is_nfc() -> None:
    import unicodedata

    out = latex_to_unicode(r"na\"{\i}ve caf\'e")
    assert out == unicodedata.normalize("NFC", out) == "naïve café"


def test_plain_value_for_identifiers() -> None:
    assert plain_value(r"{10.1000/a\_b}") == "10.1000/a_b"
    assert plain_value(" https://x.org/a%20b ") == "https://x.org/a%20b"
    assert plain_value(r"\url{https://doi.org/10.1000/x\_y}") == "https://doi.org/10.1000/x_y"


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (
            r"Growth on H-Terminated (40\%) Conditioned {Si}(111)-(1\texttimes{}1) Surfaces",
            "Growth on H-Terminated (40%) Conditioned Si(111)-(1×1) Surfaces",
        ),
        (r"Smith \& Sons \unknown{x}", "Smith & Sons x"),
        (r"\$5, 10\%, \#1 and a\_b", "$5, 10%, #1 and a_b"),
        (r"An $O(n \log n)$ algorithm", "An O(n log n) algorithm"),
        (r"The \BibTeX{} and \LaTeX\ book", "The BibTeX and LaTeX book"),
        (r"{\TeX} and \LaTeXe", "TeX and LaTeX2e"),
        (r"The \TeX book and {\LaTeX} Companion", "The TeXbook and LaTeX Companion"),
        (r"$\alpha \beta$-sheets", "α β-sheets"),
    ],
)
def test_escapes_logos_and_math_spacing(raw: str, text: str) -> None:
    assert latex_to_unicode(raw) == text


def test_biblatex_hyphen_and_tex_quotes() -> None:
    # biblatex's `\hyphen` and TeX's quote ligatures, as real titles carry them (#25)
    assert latex_to_unicode(r"Non\hyphen{}linear and non\hyphen linear") == (
        "Non-linear and non-linear"
    )
    assert latex_to_unicode("The ``Kurosegawa Belt'' and `fast' Parkinson's") == (
        "The “Kurosegawa Belt” and ‘fast’ Parkinson's"
    )
    assert latex_to_unicode("It's plain") == "It's plain"
