"""TeX's split accents (`Ontan˜´on`) read back as the letters they were drawn on (#35).

`fixtures/tex_accents.pdf` is pdflatex's own output for `fixtures/tex_accents.tex` (Computer
Modern, OT1: every accent a glyph of its own). The minimal-PDF cases pin the rule: an accent is
joined to the letter whose box holds its centre, and a `´` set in its own place stays.
"""

from __future__ import annotations

from pathlib import Path

from auditor.load import load_files
from auditor.load.documents.accents import accented
from auditor.load.documents.pdf_text import pdf_lines
from tests.load.documents.minipdf import pdf_bytes, text_width

FIXTURE = Path(__file__).parent / "fixtures" / "tex_accents.pdf"


def test_pdflatex_accents_are_composed_in_the_authors_and_titles() -> None:
    table = load_files([str(FIXTURE)]).table
    authors = table.column("authors").to_pylist()
    titles = table.column("title").to_pylist()
    assert authors[0][0] == "S. Ontañón"
    assert authors[1] == ["J. Müller", "B. Čech", "F. François", "P. Erdős"]
    assert authors[2] == ["A. André", "È. Grête"]
    assert titles[1] == "Accents in a reference list: Ångström, Peña and Maïtí"
    text = " ".join(ln.text for ln in pdf_lines(FIXTURE.read_bytes(), "x.pdf"))
    assert not set(text) & set("˜´¨ˇ¸˝˚`ˆ˘")


def _line(parts: list[tuple[float, str]]) -> str:
    data = pdf_bytes([[(x, 700, text) for x, text in parts]])
    return pdf_lines(data, "x.pdf")[0].text


def test_an_accent_over_a_letter_joins_it_before_or_after_in_reading_order() -> None:
    n = text_width("n", 10)
    # the tilde drawn over the n (centred), then an acute starting at the o's own left edge
    x = 100 + text_width("Onta", 10)
    tilde = x + (n - text_width("˜", 10)) / 2
    o = x + n
    line = _line([(100, "Onta"), (x, "n"), (tilde, "˜"), (o, "o"), (o, "´"), (o + n, "n")])
    assert line == "Ontañón"


def test_an_accent_set_in_its_own_place_is_left_as_written() -> None:
    assert _line([(100, "O´Neil and caf´")]) == "O´Neil and caf´"


def test_an_accent_beside_no_letter_changes_nothing() -> None:
    class G:
        def __init__(self, x0: float, x1: float, text: str) -> None:
            self.x0, self.x1, self.text = x0, x1, text

    assert accented([G(0, 5, "1"), G(1, 4, "¨"), G(5, 10, " ")]) == {}
    assert accented([G(0, 5, "ı"), G(0.5, 4.5, "´")]) == {0: "í", 1: ""}
