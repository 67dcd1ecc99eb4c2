"""SIAM's "same authors" rule: a reference printed with no author text takes the authors before it.

siam.bst draws a rule in place of an author list that repeats the previous entry's, so the text
of the PDF reads `[43] , Title, in ICLR, 2022.`; before, the row had no authors and its title ran
into the venue, and such rows were flagged or missed (siam DR 0.45 in the styles benchmark).
"""

from __future__ import annotations

from auditor.load.documents.rows import rows_from_pieces
from auditor.load.documents.split import Piece

_FIRST = (
    "[42] K. Adams, L. Pattanaik, and C. W. Coley, Learning 3d representations of molecular "
    "chirality with invariance to bond rotations, in IJCAI, 2022."
)
_SAME = (
    "[43] , Learning 3d representations of molecular chirality with invariance to bond "
    "rotations, in ICLR, 2022."
)


def _rows(*texts: str) -> list[dict[str, object]]:
    pieces = [Piece(t, i, 1) for i, t in enumerate(texts, start=1)]
    columns = rows_from_pieces(pieces).columns
    return [
        dict(zip(columns, values, strict=True)) for values in zip(*columns.values(), strict=True)
    ]


def test_a_reference_printed_without_authors_takes_the_authors_before_it() -> None:
    first, same = _rows(_FIRST, _SAME)
    assert same["authors"] == first["authors"] == ["K. Adams", "L. Pattanaik", "C. W. Coley"]
    assert same["title"] == (
        "Learning 3d representations of molecular chirality with invariance to bond rotations"
    )
    assert same["container_title"] == "ICLR"
    assert same["year"] == 2022
    assert same["reference_text"] == _SAME  # what was printed is kept as printed
    assert same["key"] == "43"


def test_an_unlabelled_piece_starting_with_a_comma_is_not_given_authors() -> None:
    # a tail broken off the reference before it is no reference of those authors
    tail = ", in ICLR, 2022."
    _, piece = _rows(_FIRST, tail)
    assert not piece["authors"]


def test_the_first_reference_has_no_authors_to_take() -> None:
    (only,) = _rows(_SAME)
    assert not only["authors"]


def test_a_run_of_references_by_the_same_authors_all_take_them() -> None:
    third = "[44] , Another paper of theirs, in NeurIPS, 2023."
    first, same, again = _rows(_FIRST, _SAME, third)
    assert again["authors"] == first["authors"]
    assert again["title"] == "Another paper of theirs"


def test_initials_first_authors_ending_in_et_al() -> None:
    text = (
        "[113] J.-B. Alayrac, J. Donahue, P. Luc, M. Reynolds, et al., Flamingo: A visual "
        "language model for few-shot learning, in NeurIPS, 2022."
    )
    (row,) = _rows(text)
    assert row["authors"] == ["J.-B. Alayrac", "J. Donahue", "P. Luc", "M. Reynolds"]
    assert row["authors_et_al"] is True
    assert row["title"] == "Flamingo: A visual language model for few-shot learning"
