"""An arXiv-id reference whose venue the arXiv record's `journal_ref` contradicts is found, end to
end (`run_audit` against the loopback emulator's Atom feed); one whose record has no
`journal_ref` is never flagged for its venue (a preprint later published is common)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditor.emulator import Corpus, Emulator, EmulatorConfig, start_emulator
from auditor.pipeline import run_audit
from auditor.registers import registry
from auditor.tables import CRITERIA_V1


def _arxiv(title: str, journal_ref: str | None = None) -> dict[str, Any]:
    rec = {
        "title": title,
        "authors": ["Ada Lovelace", "Charles Babbage"],
        "published": "2019-05-02T17:00:00Z",
        "updated": "2019-06-01T10:00:00Z",
    }
    if journal_ref:
        rec["journal_ref"] = journal_ref
    return rec


CORPUS = Corpus(
    arxiv={
        "1905.00001": _arxiv("Sparse Attention for Long Sequences", "ICML 2019"),
        "1905.00002": _arxiv("Graph Rewiring at Scale", "NeurIPS 2019"),
        "1905.00003": _arxiv("A Preprint Published Later"),  # no journal_ref
        "1905.00004": _arxiv("Kernels in the Workshop", "NeurIPS 2019 Workshop on Kernels"),
    }
)

BIB = """
@inproceedings{wrongvenue,
  author = {Lovelace, Ada and Babbage, Charles}, title = {Sparse Attention for Long Sequences},
  booktitle = {Advances in Neural Information Processing Systems}, year = {2019},
  eprint = {1905.00001}, archivePrefix = {arXiv},
}
@inproceedings{rightvenue,
  author = {Lovelace, Ada and Babbage, Charles}, title = {Graph Rewiring at Scale},
  booktitle = {NeurIPS}, year = {2019}, eprint = {1905.00002}, archivePrefix = {arXiv},
}
@inproceedings{nojournalref,
  author = {Lovelace, Ada and Babbage, Charles}, title = {A Preprint Published Later},
  booktitle = {ICLR}, year = {2019}, eprint = {1905.00003}, archivePrefix = {arXiv},
}
@inproceedings{workshopref,
  author = {Lovelace, Ada and Babbage, Charles}, title = {Kernels in the Workshop},
  booktitle = {ICML}, year = {2019}, eprint = {1905.00004}, archivePrefix = {arXiv},
}
"""


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    emulator = await start_emulator(CORPUS, EmulatorConfig())
    yield emulator
    await emulator.close()


async def _audit(emu: Emulator, tmp_path: Path, **kw: Any) -> dict[str, dict[str, Any]]:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    s = registry.settings(
        cache_dir=str(tmp_path / "cache"),
        max_retries=0,
        arxiv_rate=1000.0,
        **emu.base_urls,  # type: ignore[arg-type]
        **kw,
    )
    result = await run_audit([str(bib)], s)
    return {v["key"]: v for v in result.verdicts.to_pylist()}


async def test_the_journal_ref_catches_a_wrong_venue_and_nothing_else(
    emu: Emulator, tmp_path: Path
) -> None:
    rows = await _audit(emu, tmp_path)
    wrong = rows["wrongvenue"]
    assert wrong["verdict"] == "RESOLVES-BUT-DIFFERS"
    assert wrong["findings"] == ["venue_differs"]
    assert (wrong["venue_register"], wrong["venue_match"]) == ("ICML 2019", False)
    assert rows["rightvenue"]["verdict"] == "RESOLVES-AND-MATCHES"
    assert rows["rightvenue"]["venue_match"] is True
    for key in ("nojournalref", "workshopref"):  # no settled journal_ref: not compared
        assert rows[key]["verdict"] == "RESOLVES-AND-MATCHES", key
        assert rows[key]["venue_match"] is None


async def test_v1_never_compares_the_venue(emu: Emulator, tmp_path: Path) -> None:
    rows = await _audit(emu, tmp_path, criteria=CRITERIA_V1)
    assert {v["verdict"] for v in rows.values()} == {"RESOLVES-AND-MATCHES"}
