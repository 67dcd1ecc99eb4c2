"""The published criteria document: v1 rules as implemented, decided open choices, known issues.

The text lives in `criteria.json` beside this module (package data), so `auditor criteria` and the
JSON report print exactly what the code implements; `criteria_document()` adds the facts that
depend on the running interpreter (its Unicode version).
"""

from __future__ import annotations

import json
import unicodedata
from importlib import resources
from typing import Any

from auditor.compare.criteria import FOUND_FRACTION_MIN, JACCARD_MIN, SUBSET_FRACTION_MIN
from auditor.tables import CRITERIA_ID

__all__ = ["criteria_document"]


def criteria_document() -> dict[str, Any]:
    """The criteria document as a JSON-ready dict (a fresh copy on every call).

    Raises `RuntimeError` if the shipped document disagrees with the thresholds the code uses:
    the document must never describe another rule than the one applied.
    """
    text = resources.files("auditor.compare").joinpath("criteria.json").read_text("utf-8")
    doc: dict[str, Any] = json.loads(text)
    rules = doc["rules"]
    shipped = (
        doc["criteria_id"],
        rules["title"]["jaccard_threshold"],
        rules["title"]["subset_register_fraction_min"],
        rules["authors"]["found_fraction_min"],
    )
    applied = (CRITERIA_ID, str(JACCARD_MIN), str(SUBSET_FRACTION_MIN), str(FOUND_FRACTION_MIN))
    if shipped != applied:
        raise RuntimeError(f"criteria.json {shipped} disagrees with the code {applied}")
    doc["unicode_version"] = unicodedata.unidata_version
    return doc
