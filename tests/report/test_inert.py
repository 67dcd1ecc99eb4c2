"""Text from a PDF, a Word file or a text list is inert in every writer (#37, item 7).

Hostile documents are built here: a Word file whose Zotero field (JSON inside the XML, so it
can carry ESC, BEL, CR and LF as `\\u` escapes) names a key, title, DOI and URL made to attack
each writer, with the same attacks in its printed list, a PDF and a text list. They are audited
offline (every row `UNCHECKED`, so every row reaches the checklist, the annotations and the
findings), and each writer's output is checked: the HTML runs no script and links nowhere but
`https://` pages, the terminal gets no control character, each GitHub annotation stays one
command on one line, and no CSV cell starts a formula under any delimiter a spreadsheet may
split on.
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from rich.console import Console

from auditor import pipeline
from auditor.registers import registry
from auditor.report import write_reports
from auditor.report.annotations import github_annotations
from auditor.report.console import print_summary
from auditor.report.findings import FindingsList
from auditor.report.junit import junit_xml
from auditor.report.view import build_view
from auditor.result import AuditResult
from auditor.settings import load_settings
from tests.load.documents.minipdf import pdf_bytes

ANSI = "\x1b]0;pwned\x07\x1b[2J\x1b[31mred\x1b[0m"
FORGED = "::error file=forged.bib,line=1::forged"
#: What each writer must keep inert, as printed reference strings.
PRINTED = [
    '[1] A. Smith. <script>alert("doc")</script> and <img src=x onerror=alert(1)> titles. '
    'J. Evil, 2020. doi:10.5555/x"><script>alert(2)</script>',
    '[2] B. Jones. =HYPERLINK("http://evil.example","click") a formula title. Proc. Bad, 2021. '
    "URL: javascript:alert(document.cookie)",
    f"[3] C. Brown. {FORGED} ::add-mask::x. Journal, 2019. "
    "https://doi.org/10.5555/javascript:alert(3)",
    "[4] D. Green. +1+1 and -2+3 and @SUM(A1) and \t=tab and \r=cr prefixes. Venue, 2018.",
    f"[5] E. White. {ANSI} terminal title. Venue, 2017.",
]
#: A Zotero record: exact fields, so each attack lands in the column it targets.
ITEM = {
    "id": 1,
    "type": "article-journal",
    "title": f"=cmd|' /C calc'!A0 <script>alert(4)</script> {ANSI}\r\n{FORGED}",
    "author": [{"family": "@Evil\r\n::warning::x", "given": "\t=1+1"}],
    "issued": {"date-parts": [[2020]]},
    "container-title": "-2+3;=1+1|@x",
    "DOI": '10.5555/zot"><script>alert(5)</script>',
    "URL": "javascript:alert(6)",
}
KEY = "+zotero;=1+1|\t@key\r\n::error::forged-key"


def _run(level: str, text: str) -> str:
    return f'<w:r><w:{level} xml:space="preserve">{escape(text)}</w:{level}></w:r>'


def _mark(kind: str) -> str:
    return f'<w:r><w:fldChar w:fldCharType="{kind}"/></w:r>'


def _paragraph(text: str, style: str | None = None) -> str:
    # XML 1.0 has no ESC or BEL: the printed list carries those only in the text list and PDF
    text = "".join(c for c in text if c in "\t\r" or ord(c) >= 0x20)
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{props}{_run('t', text).replace(chr(13), '&#13;')}</w:p>"


def _docx(path: Path) -> None:
    citation = {"citationItems": [{"id": 1, "uris": [KEY], "itemData": ITEM}]}
    field = (
        "<w:p>"
        + _run("t", "As shown ")
        + _mark("begin")
        + _run("instrText", " ADDIN ZOTERO_ITEM CSL_CITATION " + json.dumps(citation) + " ")
        + _mark("separate")
        + _run("t", "[1]")
        + _mark("end")
        + "</w:p>"
    )
    body = field + _paragraph("References", "Heading1") + "".join(map(_paragraph, PRINTED))
    document = (
        '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w='
        '"http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
        f"<w:body>{body}</w:body></w:document>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("word/document.xml", document)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[AuditResult, Path]:
    """The offline audit of the three hostile documents, and its folder."""
    import asyncio

    folder = tmp_path_factory.mktemp("inert")
    _docx(folder / "hostile.docx")
    (folder / "hostile.txt").write_text("\n".join(PRINTED) + "\n", encoding="utf-8")
    lines = [(72.0, 720.0, "References", 14.0)] + [
        (72.0, 700.0 - 20 * i, text.replace("\r", " ").replace("\t", " "), 10.0)
        for i, text in enumerate(PRINTED)
    ]
    (folder / "hostile.pdf").write_bytes(pdf_bytes([lines]))
    paths = [str(folder / f"hostile.{kind}") for kind in ("docx", "txt", "pdf")]
    settings = load_settings(
        {"offline": True, "cache_dir": str(folder / "cache")},
        inputs=paths,
        environ={},
        registers=registry.settings_defaults(),
    )
    result = asyncio.run(pipeline.run_audit(paths, settings))
    return result, folder


def test_the_attacks_reach_the_tables(hostile: tuple[AuditResult, Path]) -> None:
    # the test means something only if the hostile text really is in the rows
    result, _ = hostile
    rows = result.references.to_pylist()
    assert len({r["source_path"] for r in rows}) == 3
    text = json.dumps(rows, default=str)
    for attack in ("<script>", "javascript:", "\\u001b]0;", "::error", "=HYPERLINK", "@SUM"):
        assert attack in text, attack
    zotero = next(r for r in rows if "forged-key" in (r["key"] or ""))
    assert zotero["title"].startswith("=cmd") and "\x1b" in zotero["title"]
    assert {r["verdict"] for r in result.verdicts.to_pylist()} == {"UNCHECKED"}


def test_html_runs_nothing_and_links_only_to_https(hostile: tuple[AuditResult, Path]) -> None:
    result, folder = hostile
    out = folder / "html"
    write_reports(build_view(result), out)
    page = (out / "report.html").read_text(encoding="utf-8")
    assert len(re.findall(r"<script\b", page)) == 1  # the page's own, nothing from the data
    assert "<img" not in page and "onerror=" not in page.replace("onerror=alert", "")
    assert "&lt;script&gt;alert(&#34;doc&#34;)" in page or "&lt;script&gt;alert(" in page
    for link in re.findall(r'\b(?:href|src|action)="([^"]*)"', page):
        assert link.startswith(("https://", "#")), link
    assert "\x1b" not in page and "\x07" not in page


def _pieces(cell: str) -> list[str]:
    return [piece.lstrip(" ") for piece in re.split(r"[,;\t|]", cell)]


def _formulas(text: str) -> list[str]:
    """Cells of CSV `text` with a piece a spreadsheet would evaluate."""
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))[1:]
    return [
        cell
        for row in rows
        for cell in row
        if any(p and (p[0] in "=+-@" or ord(p[0]) < 0x20) for p in _pieces(cell))
    ]


def test_no_csv_cell_starts_a_formula(hostile: tuple[AuditResult, Path]) -> None:
    result, folder = hostile
    out = folder / "csv"
    write_reports(build_view(result), out)
    for name in ("verdicts.csv", "checklist.csv"):
        text = (out / name).read_text(encoding="utf-8")
        assert "HYPERLINK" in text and "cmd|" in text  # the attacks are there, as text
        assert _formulas(text) == [], name


def test_each_annotation_is_one_command_on_one_line(hostile: tuple[AuditResult, Path]) -> None:
    result, _ = hostile
    text = github_annotations(result)
    lines = text.splitlines()
    assert len(lines) == result.verdicts.num_rows  # every UNCHECKED row, one line each
    command = re.compile(r"::warning file=[^,:]+(,line=\d+)?,title=auditor%3A UNCHECKED::[^\r\n]*")
    for line in lines:
        assert command.fullmatch(line), line
        assert "\x1b" not in line and "\x07" not in line
    assert "forged-key" in text  # the key is said, as text after the command
    assert not any(line.lstrip().startswith(FORGED) for line in lines)


def test_the_terminal_gets_no_control_character(hostile: tuple[AuditResult, Path]) -> None:
    result, folder = hostile
    view = build_view(result)
    sink = io.StringIO()
    # a colourless console: any ESC on it would have come from the data
    console = Console(file=sink, width=60, no_color=True, force_terminal=False)
    print_summary(view, folder, quiet=False, console=console)
    FindingsList(console, max_findings=50).write(view, folder)
    shown = sink.getvalue()
    assert "forged-key" in shown  # the Zotero key is listed
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", shown), repr(shown)
    assert not any(line.lstrip().startswith("::") for line in shown.splitlines())


def test_junit_stays_well_formed(hostile: tuple[AuditResult, Path]) -> None:
    result, _ = hostile
    root = ET.fromstring(junit_xml(result))
    assert root.iter("testcase")
