"""Superscript citation markers read from a line's characters (`superscripts`)."""

from __future__ import annotations

from typing import NamedTuple

from auditor.load.documents.superscripts import (
    glued_marks,
    is_marker_after,
    superscript_marks,
    written_marks,
)


class G(NamedTuple):
    x0: float
    x1: float
    text: str
    size: float
    base: float


def _line(*pieces: tuple[str, bool], space_before: bool = False) -> list[G]:
    """Characters left to right, 5 pt apart (2 pt wide when small); `True` raises a piece."""
    out: list[G] = []
    x = 72.0
    for text, raised in pieces:
        for i, c in enumerate(text):
            if c == " ":
                x += 3
                continue
            width = 3.0 if raised else 5.0
            if raised and i == 0 and space_before:
                x += 3
            out.append(G(x, x + width, c, 7.0 if raised else 10.0, 96.4 if raised else 100.0))
            x += width
    return out


def test_a_raised_smaller_number_after_a_word_is_a_marker() -> None:
    assert superscript_marks(_line(("shown before", False), ("1,2", True), (". Then", False))) == (
        "1,2",
    )
    assert superscript_marks(_line(("cases", False), ("3,5–7", True))) == ("3,5–7",)
    assert superscript_marks(_line(("in (Smith).", False), ("12", True))) == ("12",)
    assert superscript_marks(_line(("reported in 2019", False), ("5", True))) == ("5",)
    assert superscript_marks(_line(("rose by 30%", False), ("12", True))) == ("12",)
    # a quantity's suffix glued to its number is a word; a list or range is never an exponent
    assert superscript_marks(_line(("WildChat-4.8M", False), ("26,50", True))) == ("26,50",)
    assert superscript_marks(_line(("LMSYS Chat-1M", False), ("27", True))) == ("27",)
    assert superscript_marks(_line(("of 10", False), ("2,3", True))) == ("2,3",)
    # a space inside the marker and before it, as a word processor sets `text 1, 2`
    assert superscript_marks(_line(("text", False), ("1, 2", True), space_before=True)) == ("1,2",)
    # a short line holding more marker characters than letters
    assert superscript_marks(_line(("ways", False), ("8;12–14", True), (".", False))) == (
        "8;12–14",
    )


def test_what_is_raised_but_no_marker() -> None:
    # a minus sign, a raised word, a number past any list: nothing
    for pieces in (
        (("in m", False), ("−2", True)),
        (("the 1", False), ("st", True), (" time", False)),
        (("weigh", False), ("9999", True)),
    ):
        assert superscript_marks(_line(*pieces)) == (), pieces
    # an exponent after a digit, a one-letter symbol's power, a footnote's own mark opening a
    # line: numbers a marker could hold, kept as doubts
    for pieces, doubt in (
        ((("of 10", False), ("5", True), (" cells", False)), "?5"),
        ((("the R", False), ("2", True), (" value", False)), "?2"),
        ((("1", True), ("This work was funded", False)), "?1"),
        ((("about 10", False), ("30", True)), "?30"),
        ((("of 12", False), ("5", True)), "?5"),
    ):
        assert superscript_marks(_line(*pieces)) == (doubt,), pieces


def test_a_number_the_line_own_size_or_not_raised_is_no_marker() -> None:
    flat = [G(72 + 5 * i, 76 + 5 * i, c, 10.0, 100.0) for i, c in enumerate("page12")]
    assert superscript_marks(flat) == ()
    small_on_baseline = [*flat[:4], G(92, 95, "3", 7.0, 100.0)]
    assert superscript_marks(small_on_baseline) == ()
    subscript = [*flat[:4], G(92, 95, "3", 7.0, 102.0)]
    assert superscript_marks(subscript) == ()
    far = [*flat[:4], G(102, 105, "3", 7.0, 96.4)]  # a column away from the word: a doubt
    assert superscript_marks(far) == ("?3",)


def test_the_same_rules_read_off_text() -> None:
    assert is_marker_after("shown before", "1,2")
    assert is_marker_after("as (Smith).", "3–5")
    assert is_marker_after("shown ", "12")  # a space typed before the superscript
    assert is_marker_after("in 2019", "5") and is_marker_after("by 30%", "1, 2,")
    for before, raised in (
        ("10", "5"), ("in 12019", "5"), ("the R", "2"), ("", "1"), ("in m", "−2"), ("a", "1st"),
    ):  # fmt: skip
        assert not is_marker_after(before, raised), (before, raised)


def test_pasted_text_keeps_markers_glued_to_their_words() -> None:
    assert glued_marks("studied before1,2. Then cases2–5 and per cent5.") == ("1,2", "2–5", "5")
    assert glued_marks("CO2 and H1N1 on x86, Fig.2, level-3, in 2019 and 10 mg") == ()


def test_superscripts_written_as_characters() -> None:
    text = "ways¹⁷ and ways^(2–4) and ways^3, before¹˒², in m² of 10⁵ and x^2"
    assert written_marks(text) == ("17", "2–4", "3", "1,2", "?2", "?5", "?2")
