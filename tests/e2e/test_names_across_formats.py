"""One reference, four formats, one v1 verdict (issue #22): names are read as written.

The same two authors are written the same way in a `.bib`, a `.ris`, a CSV and a CSL-JSON file.
`reference-resolution/v1` must reach the same verdict from each (its literal surname cut sees the
same strings), KI-1 must hold from load to verdict (`Anna van der Berg` against the family
`van der Berg` differs under v1), and auditor/v2 must match the particle names either way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from auditor import tables
from auditor.classify import classify
from auditor.compare import compare
from auditor.load import load_files

_DOI = "10.1234/names.2020"
_TITLE = "Particles in family names of real authors"


def _files(tmp: Path, given_first: bool) -> list[Path]:
    """The reference in each format, its names `Given von Family` or `von Family, Given`."""
    first, second = (
        ("Anna van der Berg", "Paul S. de Vries")
        if given_first
        else ("van der Berg, Anna", "de Vries, Paul S.")
    )
    bib = tmp / "refs.bib"
    bib.write_text(
        f"@article{{berg2020,\n  author = {{{first} and {second}}},\n  title = {{{_TITLE}}},\n"
        f"  journal = {{J. Names}},\n  year = {{2020}},\n  doi = {{{_DOI}}}\n}}\n",
        encoding="utf-8",
    )
    ris = tmp / "refs.ris"
    ris.write_text(
        f"TY  - JOUR\nID  - berg2020\nAU  - {first}\nAU  - {second}\nTI  - {_TITLE}\n"
        f"JO  - J. Names\nPY  - 2020\nDO  - {_DOI}\nER  - \n",
        encoding="utf-8",
    )
    csv = tmp / "refs.csv"
    csv.write_text(
        f'key,title,authors,year,journal,doi\nberg2020,{_TITLE},"{first}; {second}",2020,'
        f"J. Names,{_DOI}\n",
        encoding="utf-8",
    )
    people: list[dict[str, Any]] = (
        [{"literal": first}, {"literal": second}]
        if given_first
        else [
            {"family": "Berg", "non-dropping-particle": "van der", "given": "Anna"},
            {"family": "Vries", "non-dropping-particle": "de", "given": "Paul S."},
        ]
    )
    csl = tmp / "refs.json"
    item = {"id": "berg2020", "type": "article-journal", "title": _TITLE, "author": people}
    item |= {"container-title": "J. Names", "issued": {"date-parts": [[2020]]}, "DOI": _DOI}
    csl.write_text(json.dumps([item]), encoding="utf-8")
    return [bib, ris, csv, csl]


def _record() -> dict[str, Any]:
    return {
        "register": "crossref",
        "id_type": "doi",
        "identifier": _DOI,
        "status": "found",
        "retrieved_at": "2026-12-01T00:00:00Z",
        "tier": "snapshot",
        "title": _TITLE,
        "authors": ["Anna van der Berg", "Paul S. de Vries"],
        "surnames": ["van der Berg", "de Vries"],
        "year": 2020,
    }


def _verdicts(path: Path, criteria: str) -> list[dict[str, Any]]:
    loaded = load_files([str(path)])
    assert not [p for p in loaded.problems if p.severity == "error"], loaded.problems
    refs = classify(loaded.table)
    records = tables.from_rows([_record()], tables.RECORDS)
    return compare(refs, records, criteria).to_pylist()


@pytest.mark.parametrize(
    ("given_first", "v1_verdict", "v1_reason"),
    [
        # KI-1: without a comma v1 takes the last token, `berg` ≠ `van der berg`.
        (True, tables.Verdict.DIFFERS.value, "authors_differ"),
        # With a comma the part before it: `van der berg` = `van der berg`.
        (False, tables.Verdict.MATCHES.value, None),
    ],
)
def test_one_reference_four_formats_one_v1_verdict(
    tmp_path: Path, given_first: bool, v1_verdict: str, v1_reason: str | None
) -> None:
    seen = {}
    for path in _files(tmp_path, given_first):
        (row,) = _verdicts(path, tables.CRITERIA_V1)
        seen[path.suffix] = (row["verdict"], row["reason"], row["authors_claimed"])
    assert set(seen) == {".bib", ".ris", ".csv", ".json"}
    written = (
        ["Anna van der Berg", "Paul S. de Vries"]
        if given_first
        else ["van der Berg, Anna", "de Vries, Paul S."]
    )
    # One verdict, and the names shown are the names as written, in every format.
    assert all(got == (v1_verdict, v1_reason, written) for got in seen.values()), seen


@pytest.mark.parametrize("given_first", [True, False])
def test_v2_matches_particle_names_in_every_format(tmp_path: Path, given_first: bool) -> None:
    for path in _files(tmp_path, given_first):
        (row,) = _verdicts(path, tables.CRITERIA_V2)
        assert row["verdict"] == tables.Verdict.MATCHES.value, (path.suffix, row)


def test_bibtex_parse_sits_beside_the_names_as_written(tmp_path: Path) -> None:
    bib = _files(tmp_path, given_first=True)[0]
    (row,) = load_files([str(bib)]).table.to_pylist()
    assert row["authors"] == ["Anna van der Berg", "Paul S. de Vries"]
    assert [(n["particle"], n["family"]) for n in row["author_names"]] == [
        ("van der", "Berg"),
        ("de", "Vries"),
    ]


def test_comma_list_is_literal_under_v1_and_split_under_v2(tmp_path: Path) -> None:
    bib = tmp_path / "llm.bib"
    bib.write_text(
        "@article{llm,\n  author = {Anna van der Berg, Carl Davis, Eve Fox},\n"
        f"  title = {{{_TITLE}}},\n  year = {{2020}},\n  doi = {{{_DOI}}}\n}}\n",
        encoding="utf-8",
    )
    loaded = load_files([str(bib)])
    (ref,) = loaded.table.to_pylist()
    assert ref["authors"] == ["Anna van der Berg, Carl Davis, Eve Fox"]  # BibTeX's reading
    assert [n["family"] for n in ref["author_names"]] == ["Berg", "Davis", "Fox"]
    assert [p.kind or p.message.split(":")[0] for p in loaded.problems] == ["author_list_commas"]
    # v1 reads `Anna van der Berg` as the surname: no register name is that.
    (v1,) = _verdicts(bib, tables.CRITERIA_V1)
    assert (v1["verdict"], v1["reason"]) == (tables.Verdict.DIFFERS.value, "authors_differ")
    # v2 reads the three names meant: Davis and Fox are not the record's authors (read
    # literally, one name whose family part holds `Berg`, it would match).
    (v2,) = _verdicts(bib, tables.CRITERIA_V2)
    assert (v2["verdict"], v2["reason"]) == (
        tables.Verdict.DIFFERS.value,
        "authors_not_in_register",
    )
    assert v2["authors_claimed"] == ref["authors"]  # the report shows what was written
