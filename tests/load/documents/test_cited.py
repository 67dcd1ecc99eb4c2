"""Cited and never cited in Nature, AMA and Vancouver bodies: superscript and `(n)` markers."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest

from auditor.load import load_files
from auditor.load.documents.cited import NOT_CITED, mark_cited
from auditor.load.documents.lines import Line
from auditor.load.interface import ENTRY_COLUMNS, Rows
from tests.load.documents.minipdf import Run, Text, pdf_bytes

REFERENCES = [
    "1. Smith, A. & Jones, B. Learning from printed references. J. Tests 12, 45-67 (2020).",
    "2. Lee, C. A second work on fine things. Nature 580, 1-5 (2019).",
    "3. Park, D. Third study of stuff. Science 300, 10-20 (2018).",
    "4. Zhou, Q. Fourth paper about matter. Cell 100, 3-9 (2004).",
    "5. Wu, E. Fifth result in the field. PNAS 110, 30-39 (2016).",
    "6. Kim, F. Sixth of them. Lancet 7, 1-2 (2015).",
    "7. Ngo, G. Seventh of them. Lancet 8, 1-2 (2014).",
    "8. Roe, H. Eighth of them. Lancet 9, 1-2 (2013).",
    "9. Abe, I. Ninth of them. Lancet 10, 1-2 (2012).",
    "10. Cho, J. Tenth and last. Lancet 11, 1-2 (2011).",
]
LABELS = [str(n) for n in range(1, 11)]


def _sup(text: str) -> Run:
    return (text, 7.0, 3.6)


def _plain(text: str) -> Run:
    return (text, 10.0, 0.0)


# Reference 4 is never cited, but the body is full of 4s that are no marker: a year, a page,
# a table and an equation, a count. Reference 10 is raised only as exponents, after a digit
# and after a symbol: no marker, but a doubt, so it is claimed neither cited nor uncited.
NATURE_BODY: list[list[Run]] = [
    [_plain("Printed references were studied before"), _sup("1,2"), _plain(". In 2004 the")],
    [_plain("field grew, as page 4 of the survey shows"), _sup("3"), _plain(", and Table 4")],
    [_plain("with 4 cases agrees"), _sup("2,3,5–9"), _plain(". Equation 4 gives 10"), _sup("10")],
    [_plain("cells and the power x"), _sup("10"), _plain(" of the rate, 12.4 per cent"), _sup("5")],
]


def _pdf(tmp_path: Path, body: list[list[Run]] | list[str], raise_with: Literal["Ts", "Td"]) -> str:
    page: list[Text] = [(72, 740, "Introduction")]
    page += [(72.0, 724.0 - 12 * i, line) for i, line in enumerate(body)]
    page.append((72, 660, "References"))
    page += [(72.0, 644.0 - 12 * i, ref) for i, ref in enumerate(REFERENCES)]
    page.append((300, 40, "4"))  # the page number
    path = tmp_path / f"paper-{raise_with}.pdf"
    path.write_bytes(pdf_bytes([page], raise_with=raise_with))
    return str(path)


def _read(path: str) -> tuple[list[str], list[str]]:
    """`(the references claimed never cited, those claimed neither way)` of `path`."""
    rows = load_files([path]).table.to_pylist()
    assert [r["source_label"] for r in rows] == LABELS
    never = [r["source_label"] for r in rows if NOT_CITED in r["warnings"]]
    unknown = [
        r["source_label"] for r in rows if r["cited_at"] is None and r["source_label"] not in never
    ]
    return never, unknown


@pytest.mark.parametrize("raise_with", ["Ts", "Td"])
def test_superscript_markers_mark_cited_and_never_cited(
    tmp_path: Path, raise_with: Literal["Ts", "Td"]
) -> None:
    path = _pdf(tmp_path, NATURE_BODY, raise_with)
    assert _read(path) == (["4"], ["10"])
    rows = load_files([path]).table.to_pylist()
    assert rows[6]["cited_at"] == f"{path} p. 1"  # within the range 5–9


def test_word_superscripts_mark_cited_and_never_cited(tmp_path: Path) -> None:
    docx = pytest.importorskip("docx")
    document = docx.Document()
    document.add_heading("Introduction", level=1)
    for line in NATURE_BODY:
        paragraph = document.add_paragraph()
        for text, _, rise in line:
            # a marker split across two runs is still one marker
            for piece in (text[:1], text[1:]) if rise else (text,):
                paragraph.add_run(piece).font.superscript = bool(rise)
    document.add_heading("References", level=1)
    for ref in REFERENCES:
        document.add_paragraph(ref)
    path = tmp_path / "paper.docx"
    document.save(str(path))
    assert _read(str(path)) == (["4"], ["10"])


def test_opendocument_superscripts_mark_cited_and_never_cited(tmp_path: Path) -> None:
    import zipfile
    from xml.sax.saxutils import escape

    def paragraph(line: list[Run]) -> str:
        return "<text:p>" + "".join(
            f'<text:span text:style-name="T1">{escape(t)}</text:span>' if rise else escape(t)
            for t, _, rise in line
        ) + "</text:p>"  # fmt: skip

    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:automatic-styles>'
        '<style:style style:name="T1" style:family="text">'
        '<style:text-properties style:text-position="super 58%"/></style:style>'
        "</office:automatic-styles><office:body><office:text>"
        + "".join(paragraph(line) for line in NATURE_BODY)
        + '<text:h text:outline-level="1">References</text:h>'
        + "".join(f"<text:p>{escape(ref)}</text:p>" for ref in REFERENCES)
        + "</office:text></office:body></office:document-content>"
    )
    path = tmp_path / "paper.odt"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    assert _read(str(path)) == (["4"], ["10"])


def test_pasted_text_reads_superscripts_run_into_their_words(tmp_path: Path) -> None:
    # what copying the Nature body out of a PDF gives: `before1,2.`; `CO2`, `x10` and
    # `Fig.4` are no marker, and a lost exponent (`gives 1010`) is no doubt either
    body = "\n".join("".join(t for t, _, _ in line) for line in NATURE_BODY)
    path = tmp_path / "pasted.txt"
    path.write_text(
        body + "\nThe CO2 of Fig.4 rose.\n\nReferences\n\n" + "\n".join(REFERENCES) + "\n"
    )
    assert _read(str(path)) == (["4", "10"], [])


def test_written_superscripts_are_markers_and_a_partial_reading_claims_nothing() -> None:
    # pandoc's plain text: Unicode superscript digits, and `^(2–4)` where none exists
    body = [Line("studied in 87 ways¹. And in 28 ways^(2–4), in m² and 10⁵ and ways⁵˒⁶.", 1)]
    rows = _rows([str(n) for n in range(1, 8)])
    mark_cited(rows, body, "t.txt")
    assert _warned(rows) == [n == 7 for n in range(1, 8)]
    # the `^(2–4)` alone, its superscripts unread: 3 of 7 named claims nothing
    body = [Line("studied in 87 ways? And in 28 ways^(2–4), in 2019.", 1)]
    rows = _rows([str(n) for n in range(1, 8)])
    mark_cited(rows, body, "t.txt")
    assert _warned(rows) == [False] * 7


def test_nature_names_a_reference_in_the_running_text() -> None:
    # `ref. 4` and `refs 5–6` are citations even where the superscripts say nothing of them
    body = [
        Line("before1,2, as ref. 4 and refs 5–6 show", 1, 1, marks=("1,2",)),
        Line("with Refs. 7 and", 2, 1),
        Line("8; a reference 12.5 mg dose, see refs. 9,10.", 3, 1),
    ]
    rows = _rows([str(n) for n in range(1, 12)])
    mark_cited(rows, body, "p.pdf")
    assert _warned(rows) == [n in (3, 11) for n in range(1, 12)]


def test_bare_numbers_in_parentheses_mark_cited_and_never_cited(tmp_path: Path) -> None:
    body = [
        "Printed references were studied before (1,2). In 2004 (2004) the",
        "field grew, as page (4) of the survey shows (3), and Table (4) with",
        "4 cases (n = 4) agrees (2,3,5-9), as Eq. (3) and (4) say, and Fig. (4).",
        "y = a x + b (4)",
        "The rate is 12.4 per cent (5), as (10) says.",
    ]
    assert _read(_pdf(tmp_path, body, "Ts")) == (["4"], [])


def _rows(labels: list[str]) -> Rows:
    rows = Rows()
    for label in labels:
        rows.add(source_label=label, warnings=[], reference_text=f"{label}. X.")
    return rows


def _warned(rows: Rows) -> list[bool]:
    at = ENTRY_COLUMNS.index("warnings")
    return [NOT_CITED in row[at] for row in rows.rows]


def test_weak_markers_naming_few_references_claim_none_uncited() -> None:
    # an affiliation mark and a list item `(2)`: two of six references, not the body's citations
    body = [Line("Ann Smith1", 1, 1, marks=("1",)), Line("We do (2) this.", 2, 1)]
    rows = _rows(["1", "2", "3", "4", "5", "6"])
    mark_cited(rows, body, "p.pdf")
    assert _warned(rows) == [False] * 6
    at = ENTRY_COLUMNS.index("cited_at")
    assert [row[at] for row in rows.rows] == ["p.pdf p. 1", "p.pdf p. 1", *[None] * 4]
    # marks naming three of six are not the body's citations either (some were not read)
    body.append(Line("shown3", 3, 1, marks=("3",)))
    rows = _rows(["1", "2", "3", "4", "5", "6"])
    mark_cited(rows, body, "p.pdf")
    assert _warned(rows) == [False] * 6
    # marks naming five of six are taken for them
    body.append(Line("shown4,5", 4, 1, marks=("4,5",)))
    rows = _rows(["1", "2", "3", "4", "5", "6"])
    mark_cited(rows, body, "p.pdf")
    assert _warned(rows) == [False, False, False, False, False, True]


def test_a_range_with_an_em_dash_expands() -> None:
    rows = _rows(["1", "2", "3", "4", "5", "6"])
    mark_cited(rows, [Line("shown1—5", 1, 1, marks=("1—5",))], "p.pdf")
    assert _warned(rows) == [False] * 5 + [True]


def test_bracketed_citations_claim_when_they_name_half_the_list() -> None:
    rows = _rows(["1", "2", "3", "4"])
    mark_cited(rows, [Line("as in [1] and [3] and 5", 1)], "t.txt")
    assert _warned(rows) == [False, True, False, True]
    # an interval `[0, 1]` in a body whose superscripts were read only in part claims nothing
    rows = _rows(["1", "2", "3", "4"])
    mark_cited(rows, [Line("on [0, 1] it holds2", 1, 1, marks=("2",))], "p.pdf")
    assert _warned(rows) == [False] * 4


def test_an_ieee_run_of_bracketed_numbers_is_a_range() -> None:
    # `[2]–[4]` cites 3 too, also when the line breaks after the dash; 5 and 7 are never cited
    body = [Line("as in [1], [2]–[4] and [6], [8]–", 1), Line("[10] say.", 2)]
    rows = _rows([str(n) for n in range(1, 11)])
    mark_cited(rows, body, "t.txt")
    assert _warned(rows) == [n in (5, 7) for n in range(1, 11)]


def test_a_marker_broken_across_lines_cites_both_halves() -> None:
    # Science and PNAS break `(25, 26)` after the comma, IEEE `[2, 3]` likewise
    for opening, closing in (("(", ")"), ("[", "]")):
        body = [Line(f"as in {opening}1{closing} and {opening}2,", 1), Line(f"3{closing} say.", 2)]
        body.append(Line(f"So does {opening}4{closing}.", 3))
        rows = _rows(["1", "2", "3", "4", "5"])
        mark_cited(rows, body, "t.txt")
        assert _warned(rows) == [False, False, False, False, True], opening


def _author_year(*refs: tuple[str, list[str]]) -> Rows:
    rows = Rows()
    for text, authors in refs:
        rows.add(source_label=None, authors=authors, warnings=[], reference_text=text)
    return rows


def test_an_author_year_citation_across_a_line_break_cites() -> None:
    body = [
        Line("printed here: Chung and Morris", 1),
        Line("(1978), and (Lee,", 2),
        Line("2020).", 3),
    ]
    rows = _author_year(
        ("Chung ST, Morris RL. Isolation of plasmid DNA. J Bact. 1978;134:1-9.", ["Chung, ST"]),
        ("Lee, K. (2020). Another. In Y.", ["Lee, K."]),
        ("Zhou, Q. (2018). Never cited. In Z.", ["Zhou, Q."]),
    )
    mark_cited(rows, body, "t.txt")
    at = ENTRY_COLUMNS.index("cited_at")
    assert [row[at] for row in rows.rows] == ["t.txt:1", "t.txt:2", None]
    assert _warned(rows) == [False, False, True]


def test_a_reference_whose_author_the_body_names_is_never_claimed_uncited() -> None:
    # a misread author field still starts the string with the surname, which cites it; a
    # surname the body names in a way not read as a citation claims nothing
    body = [Line("All are printed: Stahl (2020), Smith et al. (2019).", 1)]
    body.append(Line("As Zhou argued in a 2018 book, and (Wu, 2017) too.", 2))
    rows = _author_year(
        ("Stahl B.: deepSIP: deep learning. Astrophysics Source Code. 2020.", ["Stahl B.: deep"]),
        ("Zhou, Q. (2018). A book. Z Press.", ["Zhou, Q."]),
        ("Park, D. (2016). Never cited. In Z.", ["Park, D."]),
        (
            "Babichev SA. Quantum scissors. https://arxiv.org/abs/quant-ph/0208066.",
            ["Babichev, SA"],
        ),
    )
    mark_cited(rows, body, "t.txt")
    at = ENTRY_COLUMNS.index("cited_at")
    assert [row[at] for row in rows.rows] == ["t.txt:1", None, None, None]
    assert _warned(rows) == [False, False, True, False]
