"""The shipped criteria document matches the code and the published v1 thresholds."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from auditor.compare import decisions
from auditor.compare.criteria import FOUND_FRACTION_MIN, JACCARD_MIN, SUBSET_FRACTION_MIN
from auditor.compare.decisions import criteria_document
from tests.missing_fixtures import SHARED, need

SPEC = SHARED / "spec" / "reference-check-service.json"


def test_document_names_v1_and_matches_the_code() -> None:
    doc = criteria_document("reference-resolution/v1")
    assert doc["criteria_id"] == "reference-resolution/v1"
    assert Fraction(doc["rules"]["title"]["jaccard_threshold"]) == JACCARD_MIN
    assert len({d["id"] for d in doc["decisions"]}) == len(doc["decisions"])
    assert all({"id", "case", "literal_result", "status"} <= set(k) for k in doc["known_issues"])


def test_thresholds_are_the_published_ones() -> None:
    assert float(JACCARD_MIN) == 0.85
    assert float(SUBSET_FRACTION_MIN) == 0.6
    assert float(FOUND_FRACTION_MIN) == 0.6666666666666666


def test_thresholds_are_the_published_contracts() -> None:
    comparison = json.loads(need(SPEC).read_text("utf-8"))["comparison"]
    assert comparison["title"]["jaccard_threshold"] == float(JACCARD_MIN)
    assert comparison["title"]["subset_register_fraction_min"] == float(SUBSET_FRACTION_MIN)
    assert comparison["authors"]["found_fraction_min"] == float(FOUND_FRACTION_MIN)


def test_document_that_disagrees_with_the_code_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decisions, "JACCARD_MIN", Fraction(4, 5))
    with pytest.raises(RuntimeError, match="disagrees"):
        criteria_document("reference-resolution/v1")
