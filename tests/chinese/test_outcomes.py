"""The outcome table: every outcome mapped, and its wording."""

from __future__ import annotations

from auditor.chinese.outcomes import INFO, Outcome, item_text, verdict_for


def test_every_outcome_is_mapped():
    assert set(INFO) == set(Outcome)
    assert verdict_for(Outcome.PUBMED_INDEXED_BUT_COORDINATE_MISS) == "NOT COVERED"
    assert verdict_for(Outcome.DOI_REFUTED) == "DOES-NOT-RESOLVE"
    assert verdict_for(Outcome.DOI_TITLE_MISMATCH) == "RESOLVES-BUT-DIFFERS"
    assert verdict_for(Outcome.PUBMED_COORDINATE_VERIFIED) == "RESOLVES-AND-MATCHES"


def test_wording_discipline():
    for outcome, info in INFO.items():
        if info.priority is None:
            continue
        text = item_text(outcome).lower()
        if info.priority == "P0":
            assert "fabricated" in text
        else:
            assert "pending human check" in text and "fabricat" not in text
