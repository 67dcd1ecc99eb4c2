"""No real reference flagged when the registers hold it (#35, "done when"): each real document
audited offline against a snapshot of its own cited entries (`world.py`).

Each document's figures are pinned in `expected_world.json`: a new false flag, on an aligned
reference or on a row aligned with none, fails. The target is no flag at all; the documents that
still have one are listed with the cause in `benchmarks/RESULTS.md`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.load.documents.realdocs.corpus import HERE, DocSpec, load_manifest
from tests.load.documents.realdocs.world import audit_in_world

EXPECTED = json.loads((HERE / "expected_world.json").read_text(encoding="utf-8"))
SPECS = [s for s in load_manifest() if s.id in EXPECTED]


def test_every_redistributable_document_is_measured() -> None:
    assert {s.id for s in load_manifest() if s.redistribute} <= set(EXPECTED)


@pytest.mark.parametrize("spec", SPECS, ids=[s.id for s in SPECS])
def test_no_more_false_flags_than_pinned(spec: DocSpec, tmp_path: Path) -> None:
    for path in spec.files:
        if not spec.local(path).exists():
            pytest.skip(f"{spec.id} is not redistributable: run fetch.py to bring {path}")
    got = audit_in_world(spec, tmp_path)
    want = EXPECTED[spec.id]
    assert got.aligned >= want["aligned"], got
    assert got.flagged <= want["flagged"], got.flags
    assert got.spurious_flagged <= want["spurious_flagged"], got
