"""A manubot manuscript audited offline over the sample snapshot: a citation by identifier is
audited by that identifier (criteria decision `cited_by_identifier`), never a missing entry."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from auditor import pipeline, policy
from auditor.registers import registry
from auditor.result import AuditResult
from auditor.settings import load_settings

SNAPSHOT = Path(__file__).resolve().parents[2] / "sample_bibs" / "snapshot.parquet"

#: `content/01.intro.md`: a DOI the snapshot holds, a book, a key no bibliography holds.
_INTRO = """## Introduction

Deep learning [@doi:10.1038/nature14539] is described in a book [@isbn:9780262035613].
A plain key no bibliography holds [@smith2020].
"""

#: DOIs the snapshot answers for: the DOI system says no such DOI; a retracted article.
_MORE = """Gone [@doi:10.1038/s41586-021-99999-9]; retracted [@{doi:10.1016/S0140-6736(97)11096-0}].
"""


async def _audit(
    tmp: Path, text: str, criteria: str = "auditor/v2"
) -> tuple[AuditResult, int, list[str]]:
    """The audit of `text` as a manubot `content/` file, its exit code under the default policy
    (no `fail_on` given) and the keys of the rows that policy fails."""
    (tmp / "content").mkdir(exist_ok=True)
    md = tmp / "content" / "01.intro.md"
    md.write_text(text, encoding="utf-8")
    (tmp / "refs.bib").write_text("@misc{uncited, title = {Not cited}}\n", encoding="utf-8")
    settings = load_settings(
        {
            "offline": True,
            "snapshots": (str(SNAPSHOT),),
            "cache_dir": str(tmp / "cache"),
            "criteria": criteria,
        },
        inputs=[str(md)],
        environ={},
        registers=registry.settings_defaults(),
    )
    result = await pipeline.run_audit([str(md), str(tmp / "refs.bib")], settings)
    code = policy.exit_code(result.verdicts, result.checklist, settings.fail_on, False)
    failing = policy.failing_rows(
        result.verdicts, result.checklist, policy.parse_fail_on(settings.fail_on)
    )
    return result, code, [result.verdicts["key"][i].as_py() for i in failing]


def _rows(result: AuditResult, *columns: str) -> list[tuple[Any, ...]]:
    data = result.verdicts.select(["key", *columns]).to_pylist()
    return [tuple(r[c] for c in ("key", *columns)) for r in data]


async def test_a_citation_by_identifier_is_audited_by_it(tmp_path: Path) -> None:
    result, code, failing = await _audit(tmp_path, _INTRO)
    assert _rows(result, "verdict", "reason", "queried_by") == [
        ("doi:10.1038/nature14539", "RESOLVES-AND-MATCHES", None, "id"),
        ("isbn:9780262035613", "NOT COVERED", "unsupported_type", None),
        ("smith2020", "INVALID", "missing_entry", None),
    ]
    found = result.verdicts.slice(0, 1).to_pylist()[0]
    # Nothing claimed, nothing compared; the record relied on is named.
    assert found["title_claimed"] is None and found["title_match"] is None
    assert found["authors_match"] is None and found["year_match"] is None
    assert found["findings"] == []
    assert (found["register"], found["tier"]) == ("crossref", "snapshot")
    assert found["cited_at"].endswith("01.intro.md:3")
    # Under the default policy only the real missing entry fails the run.
    assert failing == ["smith2020"] and code == 1
    fixed, code, failing = await _audit(tmp_path, _INTRO.replace("[@smith2020]", "again"))
    assert code == 0 and failing == [] and fixed.verdicts.num_rows == 2


async def test_a_dead_doi_does_not_resolve_and_a_retraction_is_p0(tmp_path: Path) -> None:
    result, code, failing = await _audit(tmp_path, _MORE)
    assert _rows(result, "verdict", "reason") == [
        ("doi:10.1038/s41586-021-99999-9", "DOES-NOT-RESOLVE", "not_found"),
        ("doi:10.1016/S0140-6736(97)11096-0", "RESOLVES-AND-MATCHES", None),
    ]
    retracted = result.checklist.filter(
        [k == "doi:10.1016/S0140-6736(97)11096-0" for k in result.checklist["key"].to_pylist()]
    )
    assert retracted["priority"].to_pylist() == ["P0"]
    assert code == 1 and failing == [k for k, *_ in _rows(result)]


async def test_under_v1_a_citation_by_identifier_stays_invalid_missing_title(
    tmp_path: Path,
) -> None:
    result, code, failing = await _audit(tmp_path, _INTRO, criteria="reference-resolution/v1")
    assert _rows(result, "verdict", "reason", "criteria_id") == [
        ("doi:10.1038/nature14539", "INVALID", "missing_title", "reference-resolution/v1"),
        ("isbn:9780262035613", "INVALID", "missing_title", "reference-resolution/v1"),
        ("smith2020", "INVALID", "missing_entry", "reference-resolution/v1"),
    ]
    assert result.records.num_rows == 0  # v1 looks nothing up for a row it cannot compare
    assert code == 1 and failing == ["smith2020"]
