"""Real bibliographies and parser suites from `../shared/realdata/`, read in place.

These tests need the shared folder beside the clone (CI has it); without it they are skipped with
a reason. The core behaviour is pinned by the fixtures in `tests/load/fixtures/`; these check
that what real tools export loads completely: one row per entry, no exception, right ids.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import detect_format, load_files
from tests.missing_fixtures import REALDATA, need, needs

pytestmark = needs(REALDATA)

_ENTRY = re.compile(
    r"^\ufeff?\s*@\s*(?!string\b|comment\b|preamble\b)[A-Za-z]+\s*[{(]", re.I | re.M
)
_TY = re.compile(r"^\ufeff?TY  -", re.M)
_STARTS = {
    "wos": re.compile(r"^\ufeff?PT [A-Z]", re.M),
    "medline": re.compile(r"^PMID- ", re.M),
    "endnote": re.compile(r"^%0 ", re.M),
}


def _files(sub: str, *suffixes: str) -> list[Path]:
    root = REALDATA / sub
    if not root.is_dir():
        return []
    return sorted(p for p in root.rglob("*") if p.suffix in suffixes)


def _expected_rows(path: Path, fmt: str) -> int | None:
    text = path.read_bytes().decode("utf-8", "replace")
    if fmt == "bibtex":
        return len(_ENTRY.findall(text))
    if fmt == "ris":
        return len(_TY.findall(text))
    if fmt in _STARTS:
        return len(_STARTS[fmt].findall(text))
    return None


@pytest.fixture(autouse=True)
def _quiet_bibtexparser() -> None:
    logging.getLogger("bibtexparser").setLevel(logging.ERROR)


@pytest.mark.parametrize(
    "path",
    _files("bibs", ".bib", ".ris", ".txt") + _files("parser-suites", ".bib", ".ris"),
    ids=lambda p: p.name,
)
def test_every_entry_loads_exactly_once(path: Path) -> None:
    try:
        outcome = load_files([str(path)])
    except InputError as exc:  # a file of no entries is refused, naming it (#27)
        assert str(exc) == f"no references in {path}"
        head = path.read_bytes()[:4096].decode("utf-8", "replace")
        assert _expected_rows(path, detect_format(str(path), head)) == 0
        return
    t = outcome.table
    expected = _expected_rows(path, outcome.inputs[0].format)
    assert expected is not None
    assert t.num_rows == expected
    assert t.column("row_id").to_pylist() == list(range(t.num_rows))
    errors = {p.line for p in outcome.problems if p.severity == "error"}
    failed = {r["source_line"] for r in t.to_pylist() if r["parse_error"]}
    assert failed == errors


def _rows(name: str) -> list[dict[str, object]]:
    path = need(REALDATA / "bibs" / name)
    return load_files([str(path)]).table.to_pylist()


def test_refchecker_mixed_sample_identifiers() -> None:
    rows = _rows("refchecker-hallucination_mixed_sample.bib")
    assert [(r["id_type"], r["identifier"]) for r in rows[:3]] == [
        ("arxiv", "1706.03762"),
        ("arxiv", "1810.04805"),
        ("arxiv", "2205.01833"),
    ]


def test_thesis_bibliography_mostly_dois_and_decoded() -> None:
    rows = _rows("bblodfon-phd-thesis-2021.references.bib")
    assert len(rows) == 174
    assert sum(r["id_type"] == "doi" for r in rows) >= 120
    assert not any("\\" in (r["title"] or "") for r in rows)
    assert not any("{" in (r["title"] or "") for r in rows)


def test_gbt7714_chinese_titles_and_authors() -> None:
    rows = _rows("gbt7714-2015-standard-examples.bib")
    first = rows[0]
    assert (first["title"], first["authors"], first["year"]) == ("国史旧闻", ["陈登原"], 2000)
    assert rows[1]["authors"] == ["哈里森", "沃尔德伦"]


def test_embase_csv_with_mapped_columns() -> None:
    path = need(REALDATA / "bibs" / "asreview-embase.csv")
    outcome = load_files([str(path)], csv_map={"authors": "Author Names"})
    rows = outcome.table.to_pylist()
    assert len(rows) == 6
    assert rows[0]["title"].startswith("Duplication cysts")


def test_pubmed_endnote_export() -> None:
    rows = _rows("asreview-pubmed_endnote.txt")
    assert len(rows) == 6
    assert all(r["title"] for r in rows)


def test_embase_csv_without_map_matches_its_ris_twin() -> None:
    csv_rows, ris_rows = _rows("asreview-embase.csv"), _rows("asreview-embase.ris")
    assert len(csv_rows) == len(ris_rows) == 6
    for c, r in zip(csv_rows, ris_rows, strict=True):
        assert (c["identifier"], c["year"], c["volume"], c["pages"]) == (
            r["identifier"],
            r["year"],
            r["volume"],
            r["pages"],
        )
        assert c["authors"] and c["title"] == r["title"]


def test_citation_js_csl_json_matches_its_bibtex_source() -> None:
    root = need(REALDATA / "parser-suites" / "citation-js-bibtex" / "mapping")
    for bib, csl in (
        ("biblatex-input.bib", "biblatex-csl.json"),
        ("bibtex-input.bib", "bibtex-csl.json"),
    ):
        b = load_files([str(root / bib)]).table.to_pylist()
        c = load_files([str(root / csl)]).table.to_pylist()
        assert {r["source_format"] for r in c} == {"csl_json"}
        assert [r["key"] for r in c] == [r["key"] for r in b]
        assert [(r["id_type"], r["identifier"]) for r in c] == [
            (r["id_type"], r["identifier"]) for r in b
        ]
        assert [r["year"] for r in c] == [r["year"] for r in b]


def test_gbk_file_is_recognised_without_an_encoding() -> None:
    path = need(REALDATA / "parser-suites" / "bibtexparser" / "v2" / "gbk_test.bib")
    row = load_files([str(path)]).table.to_pylist()[0]
    assert (row["key"], row["authors"], row["container_title"]) == (
        "凯撒2013",
        ["凯撒"],
        "测试期刊",
    )


def test_gbk_file_with_explicit_encoding() -> None:
    path = need(REALDATA / "parser-suites" / "bibtexparser" / "v2" / "gbk_test.bib")
    row = load_files([str(path)], encoding="gbk").table.to_pylist()[0]
    expected = ("凯撒2013", ["凯撒"], "测试期刊")
    assert (row["key"], row["authors"], row["container_title"]) == expected


def test_rispy_web_of_science_example() -> None:
    path = need(REALDATA / "parser-suites" / "rispy" / "example_wos.ris")
    outcome = load_files([str(path)])
    rows = outcome.table.to_pylist()
    assert outcome.inputs[0].format == "wos" and outcome.problems == ()
    assert [(r["key"], r["doi"], r["pmid"]) for r in rows] == [
        ("WOS:000221807500019", "10.1021/bi049798f", "15170338"),
        ("WOS:000221807500020", "10.1021/bi0497291", "15170339"),
    ]
    assert rows[0]["authors"][:2] == ["Parkes-Loach, PS", "Majeed, AP"]
    assert (rows[0]["year"], rows[0]["pages"]) == (2004, "7003-7016")
