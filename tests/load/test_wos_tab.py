"""Web of Science tab-delimited exports: one record a line under a header of field tags."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from auditor.load import detect_format, load_files
from auditor.load.wos_tab import WosTabLoader

FIXTURES = Path(__file__).parent / "fixtures"
TAB = FIXTURES / "savedrecs_tab.txt"


def _rows(path: Path) -> list[dict[str, object]]:
    return load_files([str(path)]).table.to_pylist()


def test_every_line_is_a_row_with_its_fields() -> None:
    outcome = load_files([str(TAB)])
    article, early, book, cut = outcome.table.to_pylist()
    assert [r["source_format"] for r in (article, early, book, cut)] == ["wos_tab"] * 4
    assert [r["source_line"] for r in (article, early, book, cut)] == [2, 3, 4, 5]
    assert article["key"] == "WOS:000503361900012"
    assert article["authors"] == ["Alceste, Fabiana", "Luke, Timothy J.", "Kassin, Saul M."]
    assert (article["year"], article["volume"], article["issue"], article["pages"]) == (
        2019,
        "8",
        "4",
        "507-515",
    )
    assert article["container_title"] == "JOURNAL OF APPLIED RESEARCH IN MEMORY AND COGNITION"
    # the DOI quoted in the abstract and the cited references never become the row's DOI
    assert article["identifier"] == "10.1016/j.jarmac.2019.09.003"
    assert (early["doi"], early["pmid"], early["pages"]) == (
        "10.1371/journal.pone.0250001",
        "33886654",
        "e0250001",
    )
    assert early["title"] == '"Cheap talk" and vaccine uptake: a cohort study'
    assert book["entry_type"] == "book" and book["authors"] == ["World Health Organization"]
    assert book["row_reason"] == "no_identifier"
    assert cut["title"] == "A line cut short by a copy and paste"
    assert cut["warnings"] == ["9 cells for 71 header columns"]
    assert [(p.path, p.line) for p in outcome.problems] == [(str(TAB), 5)]


def test_utf16_windows_export_and_mac_line_ends(tmp_path: Path) -> None:
    text = TAB.read_text(encoding="utf-8-sig")
    windows = tmp_path / "savedrecs.txt"
    windows.write_bytes(codecs.BOM_UTF16_LE + text.encode("utf-16-le"))
    mac = tmp_path / "mac.txt"
    mac.write_bytes(text.replace("\r\n", "\r").encode("utf-8"))
    assert _rows(windows) == [{**r, "source_path": str(windows)} for r in _rows(TAB)]
    assert [r["key"] for r in _rows(mac)][:3] == [
        "WOS:000503361900012",
        "WOS:000642345600011",
        "WOS:000855432100001",
    ]


@pytest.mark.parametrize("name", ["savedrecs.txt", "export.tsv", "export.csv", "noext"])
def test_detected_by_its_header_whatever_the_name(name: str) -> None:
    head = "\ufeffPT\tAU\tBA\tTI\tSO\tPY\tDI\tUT\t\r\nJ\tDoe, J\t\tT\tS\t2020\t\tWOS:1\t\r\n"
    assert detect_format(name, head) == "wos_tab"


def test_plain_text_savedrecs_is_still_plain_text() -> None:
    head = "FN Clarivate Analytics Web of Science\nVR 1.0\nPT J\nAU Doe, J\nER\n"
    assert detect_format("savedrecs.txt", head) == "wos"
    assert detect_format("refs.tsv", "PT\tAU\ttitle\tSO\tUT\n") == "csv"  # not every one a tag
    assert detect_format("refs.tsv", "PT\tAU\tSO\tPY\tUT\n") == "csv"  # no title column
    assert detect_format("x.txt", "UT\tPT\tAU\tTI\tSO\tPY\n") == "wos_tab"  # order varies


def test_spreadsheet_quotes_and_bad_header_never_raise() -> None:
    text = 'PT\tTI\tAU\tWhat\tUT\nJ\t"A ""quoted"" word"\tDoe, J; ; Roe, R\tx\tWOS:2\n\n\t\t\n'
    rows, problems = WosTabLoader().load(text, "t.txt")
    columns = rows.columns
    assert (columns["source_line"], columns["title"]) == ([2], ['A "quoted" word'])
    assert columns["authors"] == [["Doe, J", "Roe, R"]]
    assert [(p.line, p.message) for p in problems] == [
        (1, "header column 'What' is not a field tag")
    ]
    assert WosTabLoader().load("", "e.txt")[0].rows == []
