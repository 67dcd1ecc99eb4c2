"""Search by the whole string for unsure parses: validation and fields read off the string."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from auditor.emulator import Emulator
from auditor.load.documents.settle import fields_around, string_query, validated
from auditor.pipeline import run_audit
from tests.search.test_stage import emu, settings  # noqa: F401  (the emulator fixture)

CANDIDATE: dict[str, Any] = {
    "title": "Attention Is All You Need",
    "authors": ["Ashish Vaswani", "Noam Shazeer"],
    "surnames": ["Vaswani", "Shazeer"],
    "year": 2017,
}
STRING = "[4] Vaswani A, Shazeer N Attention is all you need NeurIPS 2017 pp 5998-6008"


def test_query_is_the_string_without_label_or_identifiers() -> None:
    assert string_query("[4] Smith J Title words 2020 doi:10.1000/x") == "Smith J Title words 2020"


def test_a_candidate_counts_only_with_title_surname_and_year_in_the_string() -> None:
    assert validated(STRING, CANDIDATE)
    assert not validated(STRING, {**CANDIDATE, "year": 2018})
    assert not validated(STRING, {**CANDIDATE, "surnames": ["Okafor"]})
    assert not validated(STRING, {**CANDIDATE, "title": "Attention Is Not All You Need"})
    assert not validated(STRING, {**CANDIDATE, "title": "Attention"})  # one word says nothing


def test_fields_are_read_off_the_string_around_the_title() -> None:
    fields = fields_around(STRING, CANDIDATE)
    assert fields is not None
    assert fields["title"] == "Attention is all you need"  # as printed, not as the index has it
    assert fields["authors"] == ["Vaswani, A", "Shazeer, N"]
    assert fields["year"] == 2017 and fields["pages"] == "5998-6008"


async def test_an_unsure_string_is_settled_by_search(emu: Emulator, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "refs.txt"
    path.write_text(
        "Vaswani A, Shazeer N Attention is all you need NeurIPS 2017\n"
        "Okafor C Recursive attention graphs for protein folding ICML 2022\n",
        encoding="utf-8",
    )
    result = await run_audit([str(path)], settings(emu, tmp_path))
    real, fake = result.verdicts.to_pylist()
    assert real["verdict"] == "RESOLVES-AND-MATCHES", real
    assert real["title_claimed"] == "Attention is all you need"
    assert real["queried_by"] == "title" and real["searched"]
    assert fake["verdict"] == "NOT COVERED" and fake["reason"] == "unsure_reference"
    assert fake["reference_text"].startswith("Okafor C")
