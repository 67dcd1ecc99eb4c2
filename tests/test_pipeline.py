"""The pipeline classifies once, in the load stage, with the legs the settings close."""

from __future__ import annotations

from pathlib import Path

import pytest

import auditor.load
from auditor.pipeline import run_audit
from auditor.settings import Settings


async def test_classified_once_with_the_closed_legs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{a, title={A title}, author={Doe, Jane}, year={2020}, doi={10.5555/a}}\n",
        encoding="utf-8",
    )
    calls: list[frozenset[str]] = []
    real = auditor.load.classify

    def counted(table, *, closed_legs=frozenset()):  # type: ignore[no-untyped-def]
        calls.append(closed_legs)
        return real(table, closed_legs=closed_legs)

    monkeypatch.setattr(auditor.load, "classify", counted)
    settings = Settings(cache_dir=str(tmp_path / "cache"), offline=True, doi_leg=False)
    result = await run_audit([str(bib)], settings)
    assert calls == [frozenset({"doi"})]
    row = result.verdicts.to_pylist()[0]
    assert (row["verdict"], row["reason"]) == ("NOT COVERED", "leg_closed")
