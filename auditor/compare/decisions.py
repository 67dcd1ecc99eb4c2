"""The published criteria documents: rules as implemented, decided open choices, known issues.

Each criteria id has its text in a JSON file beside this module (package data):
`criteria.json` for reference-resolution/v1, `criteria_v2.json` for auditor/v2. `auditor criteria`
and the JSON report print exactly what the code implements; `criteria_document()` checks the
thresholds the text names against the code's and adds the facts that depend on the running
interpreter (its Unicode version).
"""

from __future__ import annotations

import json
import unicodedata
from importlib import resources
from typing import Any

from auditor.compare.criteria import FOUND_FRACTION_MIN, JACCARD_MIN, SUBSET_FRACTION_MIN
from auditor.tables import CRITERIA_V1, CRITERIA_V2, DEFAULT_CRITERIA

__all__ = ["DOCUMENTS", "criteria_document"]

#: criteria id → the package file holding its document.
DOCUMENTS: dict[str, str] = {CRITERIA_V1: "criteria.json", CRITERIA_V2: "criteria_v2.json"}


def _read(name: str) -> dict[str, Any]:
    text = resources.files("auditor.compare").joinpath(name).read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    return doc


def _check_v1(doc: dict[str, Any]) -> None:
    rules = doc["rules"]
    shipped = (
        doc["criteria_id"],
        rules["title"]["jaccard_threshold"],
        rules["title"]["subset_register_fraction_min"],
        rules["authors"]["found_fraction_min"],
    )
    applied = (CRITERIA_V1, str(JACCARD_MIN), str(SUBSET_FRACTION_MIN), str(FOUND_FRACTION_MIN))
    if shipped != applied:
        raise RuntimeError(f"criteria.json {shipped} disagrees with the code {applied}")


def _check_v2(doc: dict[str, Any]) -> None:
    from auditor.compare import v2

    shipped = (doc["criteria_id"], doc["parameters"])
    applied = (CRITERIA_V2, v2.parameters())
    if shipped != applied:
        raise RuntimeError(f"criteria_v2.json {shipped} disagrees with the code {applied}")


def criteria_document(criteria_id: str = DEFAULT_CRITERIA) -> dict[str, Any]:
    """The document of `criteria_id` as a JSON-ready dict (a fresh copy on every call).

    Raises `KeyError` for an unknown id, and `RuntimeError` if the shipped document disagrees
    with the thresholds the code uses: a document must never describe another rule than the one
    applied.
    """
    doc = _read(DOCUMENTS[criteria_id])
    if criteria_id == CRITERIA_V1:
        _check_v1(doc)
    else:
        _check_v2(doc)
    doc["unicode_version"] = unicodedata.unidata_version
    return doc
