"""A worker's piece never starts a title-worker pool, whatever the settings say (#29 item 5)."""

from __future__ import annotations

from typing import Any

import pytest

from auditor import stages
from auditor.partitions import tasks
from auditor.registers import registry
from auditor.tables import REFERENCES, empty


def test_the_title_pool_is_off_inside_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Any] = []

    async def audit_tables(references: Any, settings: Any, net: Any, **kw: Any) -> str:
        seen.append((settings.title_workers, settings.offline, net, kw))
        return "made"

    monkeypatch.setattr(stages, "audit_tables", audit_tables)
    settings = registry.settings(title_workers=True, offline=False)
    assert tasks._audit(empty(REFERENCES), settings, None) == "made"
    # No lookup service: offline, no `Net`; no duplicate groups inside a piece.
    assert seen == [(False, True, None, {"duplicates": False})]
