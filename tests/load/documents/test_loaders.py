"""PDF, Word and text documents through `load_files`, on small files written here."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import load_files
from tests.load.documents.minipdf import column_pages, pdf_bytes

NUMBERED = [
    (0, "A paper"),
    (0, "References"),
    (0, "[1] Ann Smith and Bo Jones. Learning from printed refer-"),
    (0, "ences. In Proc. ICML, 2020. doi: 10.1000/"),
    (0, "abc.123."),
    (0, "[2] Cy Lee. A second work on fine things. J. Tests, 12(3):45-67, 2019."),
]


def _pdf(tmp_path: Path, pages: list[list[tuple[float, float, str]]], name: str = "p.pdf") -> str:
    path = tmp_path / name
    path.write_bytes(pdf_bytes(pages))
    return str(path)


def test_numbered_pdf_rows_with_location(tmp_path: Path) -> None:
    pages = column_pages(NUMBERED)
    pages[0].append((300, 40, "1"))  # a page number at the foot
    table = load_files([_pdf(tmp_path, pages)]).table
    rows = table.to_pylist()
    assert [r["title"] for r in rows] == [
        "Learning from printed references",
        "A second work on fine things",
    ]
    assert rows[0]["doi"] == "10.1000/abc.123" and rows[0]["authors"] == ["Ann Smith", "Bo Jones"]
    assert (rows[1]["volume"], rows[1]["issue"], rows[1]["pages"]) == ("12", "3", "45-67")
    assert [(r["source_format"], r["source_page"], r["source_label"]) for r in rows] == [
        ("pdf", 1, "1"),
        ("pdf", 1, "2"),
    ]
    assert rows[0]["reference_text"].startswith("[1] Ann Smith and Bo Jones.")


def test_two_columns_are_read_left_then_right(tmp_path: Path) -> None:
    left = [
        (72, 740 - 12 * i, t) for i, t in enumerate(["References", "[1] A. One. First. X, 2020."])
    ]
    right = [
        (330, 740 - 12 * i, t)
        for i, t in enumerate(["[2] B. Two. Second. Y, 2021.", "more words here"])
    ]
    body = [(72, 500 - 12 * i, "left column text line") for i in range(10)]
    body += [(330, 500 - 12 * i, "right column text line") for i in range(10)]
    table = load_files([_pdf(tmp_path, [left + right + body])]).table
    assert table.column("source_label").to_pylist()[:2] == ["1", "2"]


def test_hanging_indent_author_year_pdf(tmp_path: Path) -> None:
    lines = [
        (0, "Bibliography"),
        (0, "Abbas, M. and Chen, T. (2022). Sharpness aware learning for"),
        (10, "the many. In KDD."),
        (0, "Bao, J. (2021). Short title. In ICML."),
        (0, "Chen, Y. (2020). Another work that runs"),
        (10, "over two lines. In AAAI."),
    ]
    rows = load_files([_pdf(tmp_path, column_pages(lines))]).table.to_pylist()
    assert [(r["authors"], r["year"]) for r in rows] == [
        (["Abbas, M.", "Chen, T."], 2022),
        (["Bao, J."], 2021),
        (["Chen, Y."], 2020),
    ]


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("scan.pdf", pdf_bytes([[]]), "scan.pdf: no text layer: run OCR first"),
        ("prose.pdf", pdf_bytes([[(72, 700, "Just a letter.")]]), "prose.pdf: no references"),
        ("old.doc", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 50, "old.doc: a Word 97-2003"),
        ("broken.pdf", b"%PDF-1.4 garbage", "broken.pdf: not a readable PDF"),
        ("x.docx", b"PK\x03\x04garbage", "x.docx: not a Word .docx"),
    ],
)
def test_bad_documents_name_the_file_and_what_to_do(
    tmp_path: Path, name: str, data: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(InputError, match=message.replace(".", r"\.")):
        load_files([str(path)])


def test_encrypted_pdf(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(io.BytesIO(pdf_bytes(column_pages(NUMBERED))))
    writer = pypdf.PdfWriter()
    for page in reader.pages:
        writer.add_page(page)
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    buf = io.BytesIO()
    writer.write(buf)
    path = tmp_path / "locked.pdf"
    path.write_bytes(buf.getvalue())
    with pytest.raises(InputError, match=r"locked\.pdf: encrypted PDF"):
        load_files([str(path)])


def _docx(tmp_path: Path, paragraphs: list[str], fields: list[str] = ()) -> str:  # type: ignore[assignment]
    docx = pytest.importorskip("docx")
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = docx.Document()
    for instr in fields:
        p = document.add_paragraph("As shown ")
        for kind, text in (
            ("begin", None),
            (None, instr),
            ("separate", None),
            (None, None),
            ("end", None),
        ):
            run = OxmlElement("w:r")
            if kind:
                mark = OxmlElement("w:fldChar")
                mark.set(qn("w:fldCharType"), kind)
                run.append(mark)
            elif text is not None:
                it = OxmlElement("w:instrText")
                it.text = text
                run.append(it)
            else:
                t = OxmlElement("w:t")
                t.text = "[1]"
                run.append(t)
            p._p.append(run)
    document.add_heading("References", level=1)
    for text in paragraphs:
        document.add_paragraph(text)
    path = tmp_path / "paper.docx"
    document.save(str(path))
    return str(path)


def test_docx_paragraphs_under_the_heading(tmp_path: Path) -> None:
    path = _docx(
        tmp_path,
        [
            "Abbas, Momin, and Tianyi Chen. 2022. “Sharp Minds.” In KDD.",
            "———. 2023. “Sharper Minds.” In ICML.",
        ],
    )
    rows = load_files([path]).table.to_pylist()
    assert [(r["title"], r["authors"], r["year"]) for r in rows] == [
        ("Sharp Minds", ["Abbas, Momin", "Tianyi Chen"], 2022),
        ("Sharper Minds", ["Abbas, Momin", "Tianyi Chen"], 2023),
    ]
    assert rows[0]["source_format"] == "docx" and rows[0]["source_line"] is not None


def test_zotero_fields_are_the_exact_records(tmp_path: Path) -> None:
    item = {
        "id": 7,
        "type": "paper-conference",
        "title": "Exact records beat parsing",
        "author": [{"family": "van der Berg", "given": "Anna"}],
        "issued": {"date-parts": [[2021]]},
        "container-title": "ICML",
        "DOI": "10.1000/EXACT.1",
    }
    citation = {
        "citationItems": [
            {"id": 7, "uris": ["http://zotero.org/users/1/items/AB"], "itemData": item}
        ]
    }
    instr = " ADDIN ZOTERO_ITEM CSL_CITATION " + json.dumps(citation) + " "
    path = _docx(
        tmp_path,
        ["van der Berg, Anna. 2021. “Exact Records Beat Parsing.” In ICML."],
        [instr, instr],  # cited twice: one row
    )
    rows = load_files([path]).table.to_pylist()
    assert len(rows) == 1
    row = rows[0]
    assert row["key"] == "http://zotero.org/users/1/items/AB"
    assert (row["title"], row["year"], row["doi"]) == (
        "Exact records beat parsing",
        2021,
        "10.1000/exact.1",
    )
    assert row["authors"] == ["van der Berg, Anna"]
    assert (
        row["reference_text"] == "van der Berg, Anna. 2021. “Exact Records Beat Parsing.” In ICML."
    )
    assert row["cited_at"].endswith("paper.docx ¶1")


def test_mendeley_and_endnote_fields(tmp_path: Path) -> None:
    item = {
        "type": "article-journal",
        "title": "Mendeley item",
        "author": [{"family": "Lee", "given": "C"}],
    }
    mendeley = " ADDIN CSL_CITATION " + json.dumps(
        {"citationItems": [{"id": "m1", "itemData": item}]}
    )
    rows = load_files([_docx(tmp_path, [], [mendeley])]).table.to_pylist()
    assert [(r["title"], r["key"]) for r in rows] == [("Mendeley item", "m1")]
    endnote = (
        " ADDIN EN.CITE <EndNote><Cite><Author>Roe</Author><Year>2019</Year><RecNum>4</RecNum>"
        '<record><rec-number>4</rec-number><ref-type name="Journal Article">17</ref-type>'
        "<contributors><authors><author>Roe, Jane</author></authors></contributors>"
        "<titles><title>An EndNote record</title></titles><dates><year>2019</year></dates>"
        "</record></Cite></EndNote>"
    )
    rows = load_files([_docx(tmp_path, [], [endnote])]).table.to_pylist()
    assert [(r["title"], r["key"], r["year"]) for r in rows] == [("An EndNote record", "4", 2019)]


def test_text_lists_numbered_paragraphs_and_lines(tmp_path: Path) -> None:
    numbered = tmp_path / "a.txt"
    numbered.write_text(
        "1. A. Smith. First. X, 2020.\n   continued.\n2. B. Jones. Second. Y, 2021.\n"
    )
    assert load_files([str(numbered)]).table.column("source_label").to_pylist() == ["1", "2"]
    paragraphs = tmp_path / "b.txt"
    paragraphs.write_text(
        "Smith, A. (2020). First\nwork. In X.\n\nJones, B. (2021). Second. In Y.\n"
    )
    rows = load_files([str(paragraphs)]).table.to_pylist()
    assert [r["title"] for r in rows] == ["First work", "Second"]
    lines = tmp_path / "c.md"
    lines.write_text(
        "# References\n\n- Smith, A. (2020). First. In X.\n- Jones, B. (2021). Second. In Y.\n"
    )
    rows = load_files([str(lines)]).table.to_pylist()
    assert [(r["source_format"], r["source_line"]) for r in rows] == [("text", 3), ("text", 4)]


def test_body_citations_mark_cited_and_never_cited(tmp_path: Path) -> None:
    numbered = tmp_path / "paper.txt"
    numbered.write_text(
        "Intro as shown in [1] and [3-4].\n\nReferences\n\n"
        "[1] A. One. First. X, 2020.\n[2] B. Two. Second. Y, 2021.\n"
        "[3] C. Three. Third. Z, 2022.\n[4] D. Four. Fourth. W, 2023.\n"
    )
    rows = load_files([str(numbered)]).table.to_pylist()
    assert [r["cited_at"] for r in rows] == [
        f"{numbered}:1",
        None,
        f"{numbered}:1",
        f"{numbered}:1",
    ]
    assert [("not cited in the text" in r["warnings"]) for r in rows] == [False, True, False, False]
    author_year = tmp_path / "ay.txt"
    author_year.write_text(
        "As Smith et al. (2020) and others (Lee and Park, 2019a) found.\n\nReferences\n\n"
        "Smith, J., Doe, A., and Roe, B. (2020). A title. In X.\n\n"
        "Lee, K. and Park, S. (2019a). Another. In Y.\n\n"
        "Zhou, Q. (2018). Never cited. In Z.\n"
    )
    rows = load_files([str(author_year)]).table.to_pylist()
    assert [r["cited_at"] is not None for r in rows] == [True, True, False]
    assert rows[2]["warnings"] == ["not cited in the text"]
    bare = tmp_path / "list.txt"  # a bare list claims nothing about citations
    bare.write_text("[1] A. One. First. X, 2020.\n[2] B. Two. Second. Y, 2021.\n")
    assert all(r["warnings"] == [] for r in load_files([str(bare)]).table.to_pylist())


def test_a_dashed_repeat_is_as_sure_as_its_year_and_quotes(tmp_path: Path) -> None:
    path = tmp_path / "c.txt"
    path.write_text(
        "Abbas, Momin. 2022. “Sharp Minds.” In KDD.\n\n———. 2023. “Sharper Minds.” In ICML.\n"
    )
    rows = load_files([str(path)]).table.to_pylist()
    assert [(r["authors"], r["warnings"]) for r in rows] == [
        (["Abbas, Momin"], []),
        (["Abbas, Momin"], []),
    ]


SOURCES = """<?xml version="1.0"?>
<b:Sources xmlns:b="http://schemas.openxmlformats.org/officeDocument/2006/bibliography"
 SelectedStyle="\\APA.XSL">
<b:Source><b:Tag>Smi20</b:Tag><b:SourceType>JournalArticle</b:SourceType>
<b:Title>Word keeps its own sources</b:Title><b:Year>2020</b:Year>
<b:Author><b:Author><b:NameList><b:Person><b:Last>Smith</b:Last><b:First>Ann</b:First>
</b:Person></b:NameList></b:Author></b:Author><b:JournalName>J. Tests</b:JournalName>
<b:Volume>4</b:Volume><b:Pages>1-9</b:Pages><b:DOI>10.1000/word.1</b:DOI></b:Source>
<b:Source><b:Tag>Unused</b:Tag><b:Title>Not cited</b:Title></b:Source>
</b:Sources>"""


def test_word_citation_fields_name_their_sources(tmp_path: Path) -> None:
    import zipfile

    path = _docx(tmp_path, [], [" CITATION Smi20 \\l 1033 "])
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("customXml/item9.xml", SOURCES)
    rows = load_files([path]).table.to_pylist()
    assert [(r["key"], r["title"], r["authors"], r["year"], r["doi"]) for r in rows] == [
        ("Smi20", "Word keeps its own sources", ["Smith, Ann"], 2020, "10.1000/word.1")
    ]
    assert (rows[0]["container_title"], rows[0]["volume"], rows[0]["pages"]) == (
        "J. Tests",
        "4",
        "1-9",
    )


def test_endnote_field_data_in_base64(tmp_path: Path) -> None:
    import base64

    docx = pytest.importorskip("docx")
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    record = (
        "<EndNote><Cite><record><rec-number>9</rec-number>"
        "<titles><title>Hidden in field data</title></titles>"
        "<dates><year>2018</year></dates></record></Cite></EndNote>"
    )
    document = docx.Document()
    p = document.add_paragraph()
    begin = OxmlElement("w:r")
    mark = OxmlElement("w:fldChar")
    mark.set(qn("w:fldCharType"), "begin")
    data = OxmlElement("w:fldData")
    data.text = base64.b64encode(record.encode()).decode()
    mark.append(data)
    begin.append(mark)
    p._p.append(begin)
    for kind, text in ((None, " ADDIN EN.CITE.DATA "), ("end", None)):
        run = OxmlElement("w:r")
        if kind:
            m = OxmlElement("w:fldChar")
            m.set(qn("w:fldCharType"), kind)
            run.append(m)
        else:
            it = OxmlElement("w:instrText")
            it.text = text
            run.append(it)
        p._p.append(run)
    path = tmp_path / "en.docx"
    document.save(str(path))
    rows = load_files([str(path)]).table.to_pylist()
    assert [(r["key"], r["title"], r["year"]) for r in rows] == [
        ("9", "Hidden in field data", 2018)
    ]


def _odt(tmp_path: Path, body: str) -> str:
    import zipfile

    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
        f"<office:body><office:text>{body}</office:text></office:body></office:document-content>"
    )
    path = tmp_path / "paper.odt"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", content)
    return str(path)


def test_odt_paragraphs_and_zotero_marks(tmp_path: Path) -> None:
    path = _odt(
        tmp_path,
        '<text:h text:outline-level="1">References</text:h>'
        "<text:p>Smith, A. (2020). A first work. In X.</text:p>"
        "<text:p>Jones, B. (2021). A second work. In Y.</text:p>",
    )
    rows = load_files([path]).table.to_pylist()
    assert [(r["source_format"], r["title"]) for r in rows] == [
        ("odt", "A first work"),
        ("odt", "A second work"),
    ]
    item = {
        "type": "article-journal",
        "title": "From a reference mark",
        "issued": {"date-parts": [[2019]]},
    }
    citation = json.dumps({"citationItems": [{"id": 1, "uris": ["u:1"], "itemData": item}]})
    name = f"ZOTERO_ITEM CSL_CITATION {citation} RNDabc".replace('"', "&quot;")
    path = _odt(
        tmp_path, f'<text:p>As shown <text:reference-mark-start text:name="{name}"/>[1]</text:p>'
    )
    rows = load_files([path]).table.to_pylist()
    assert [(r["key"], r["title"], r["year"]) for r in rows] == [
        ("u:1", "From a reference mark", 2019)
    ]
