"""Two-column pages: the gutter beside hanging labels, and a page number between the columns.

The geometry is plainnat's in two columns on A4, as pdflatex sets it: the left column ends at
300.6 pt, the right column's labels start at 310.6 and its text at 342, and the page number
sits between the columns at the foot of the page. Pandoc's CSL list in two columns is set
tighter: the left column runs to 305.2, its right neighbour's labels (`21.`, all one width)
start at 310.6 and its text at 341.5.
"""

from __future__ import annotations

from auditor.load.documents.pdf_text import pdf_lines
from tests.load.documents.minipdf import pdf_bytes, text_width

_WIDTH, _HEIGHT = 595.276, 841.89


def _text(side: str, i: int) -> str:
    # digits are all one width in Helvetica, so every line of a column ends at the same x
    return f"{side} line {i:02d} alpha beta gamma delta"


def _page(labels: dict[int, str], number: str | None) -> list[tuple[float, float, str]]:
    out: list[tuple[float, float, str]] = []
    for i in range(40):
        y = 740 - 12 * i
        out.append((300.6 - 155.64, y, _text("left", i)))
        if i in labels:
            out.append((310.6, y, labels[i]))
        out.append((342, y, _text("right", i)))
    if number is not None:
        out.append((302.9, 60, number))
    return out


def _lines(labels: dict[int, str], number: str | None) -> list[str]:
    data = pdf_bytes([_page(labels, number)], width=_WIDTH, height=_HEIGHT)
    return [ln.text for ln in pdf_lines(data, "x.pdf")]


def test_a_right_columns_hanging_labels_stay_with_their_text() -> None:
    texts = _lines({i: f"[{1090 + i}]" for i in range(0, 40, 10)}, None)
    assert texts[:40] == [_text("left", i) for i in range(40)]
    assert texts[40] == f"[1090] {_text('right', 0)}"
    assert texts[50] == f"[1100] {_text('right', 10)}"


def test_a_page_number_between_the_columns_is_read_at_the_page_end() -> None:
    texts = _lines({i: f"[{90 + i}]" for i in range(0, 40, 10)}, "5")
    assert texts[39:41] == [_text("left", 39), f"[90] {_text('right', 0)}"]
    assert texts[-1] == "5"


def test_labels_of_one_width_beside_a_narrow_gutter_stay_with_their_text() -> None:
    # the band between the labels and their text (17 pt, empty) is wider than the gutter
    # (5.4 pt, empty): the labels are still the right column's
    page: list[tuple[float, float, str]] = []
    for i in range(42):
        y = 740 - 12 * i
        left = _text("left", i)
        page.append((305.2 - text_width(left, 10.0), y, left))
        if i % 3 == 0:
            page.append((310.6, y, f"{21 + i // 3}."))
        page.append((341.5, y, _text("right", i)))
    data = pdf_bytes([page], width=_WIDTH, height=_HEIGHT)
    texts = [ln.text for ln in pdf_lines(data, "x.pdf")]
    assert texts[:42] == [_text("left", i) for i in range(42)]
    assert texts[42] == f"21. {_text('right', 0)}"
    assert texts[45] == f"22. {_text('right', 3)}"
