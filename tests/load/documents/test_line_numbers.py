"""Margin line numbers of review copies are left out of the text (#35: `Con-515 current`)."""

from __future__ import annotations

from typing import NamedTuple

from auditor.load.documents.line_numbers import MIN_RUN, margin_numbers


class Glyph(NamedTuple):
    x0: float
    x1: float
    top: float
    text: str
    size: float


def _word(text: str, x: float, top: float, size: float = 10.0) -> list[Glyph]:
    return [Glyph(x + 5 * i, x + 5 * i + 5, top, ch, size) for i, ch in enumerate(text)]


def _page(numbers: list[int], number_x: float, text_x: float, words: list[str]) -> list[Glyph]:
    out: list[Glyph] = []
    for row, n in enumerate(numbers):
        top = 100 + 12 * row
        out += _word(str(n), number_x, top)
        x = text_x
        for w in words:
            out += _word(w, x, top)
            x += 5 * len(w) + 4
    return out


def test_numbers_down_the_left_margin_are_found() -> None:
    page = _page(list(range(515, 530)), 20, 72, ["current", "Data", "Objects"])
    found = margin_numbers(page)
    assert "".join(page[i].text for i in sorted(found)) == "".join(map(str, range(515, 530)))


def test_numbers_at_the_row_ends_are_found() -> None:
    page: list[Glyph] = []
    for row in range(12):
        top = 100 + 12 * row
        page += (
            _word("Available", 72, top) + _word("from:", 122, top) + _word(str(730 + row), 500, top)
        )
    assert len(margin_numbers(page)) == 12 * 3


def test_a_numbered_reference_list_is_left_alone() -> None:
    # labels one word-gap from their text, as a list numbered without brackets or dots prints
    page = _page(list(range(1, 15)), 72, 72 + 5 * 2 + 4, ["Smith", "J.", "A", "title"])
    assert margin_numbers(page) == set()


def test_too_few_or_unordered_numbers_are_left_alone() -> None:
    assert margin_numbers(_page(list(range(1, MIN_RUN)), 20, 72, ["text"])) == set()
    assert margin_numbers(_page([5, 3, 9, 1, 7, 2, 8, 4, 6, 10], 20, 72, ["text"])) == set()
