"""The waterfall against the project's loopback register emulator (`auditor.emulator`).

A mixed Chinese bibliography (ISTIC, CNKI and Crossref DOIs, real and fabricated, DOI-less medical
references with right and wrong coordinates, English rows) runs through the real transport; then
every emulator fault kind is aimed at one register call and must yield UNCHECKED, never a verdict.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import pytest

from auditor import tables
from auditor.chinese.waterfall import WaterfallResult, run_waterfall
from auditor.emulator import Corpus, EmulatorConfig, start_emulator
from auditor.emulator.server import Emulator
from auditor.registers import registry
from auditor.settings import Settings
from auditor.transport.net import open_net
from tests.chinese.conftest import FakeClock
from tests.chinese.helpers import (
    JOURNAL,
    OTHER_TITLE,
    TA,
    TITLE,
    csl,
    pubmed_doc,
    refs,
    verdicts_for,
)

ISTIC_OK = "10.5555/cma.j.cn112137-20231008-00670"
ISTIC_CHIMERA = "10.5555/cma.j.cn112137-20220101-00001"
ISTIC_FAKE = "10.5555/cma.j.cn112137-29991231-99999"
CNKI_OK = "10.13209/j.0479-8023.2020.001"
CNKI_FAKE = "10.13209/j.0479-8023.2099.999"
CROSSREF_CN = "10.1360/tb-2020-0001"
CAND = "10.5555/cma.j.cn112137-20231008-00671"
VP = f'"{TA}"[ta] AND 103[vi] AND 3967[pg]'
AMBIG = f'"{TA}"[ta] AND 103[vi] AND 100[pg]'


def corpus() -> Corpus:
    """Records of the registers, in their wire shapes."""
    return Corpus(
        agencies={"10.5555": "ISTIC", "10.13209": "CNKI", "10.1360": "Crossref"},
        csl={
            ISTIC_OK: csl(ISTIC_OK),
            ISTIC_CHIMERA: csl(ISTIC_CHIMERA, title=OTHER_TITLE),
            CAND: csl(CAND, title="临床随机对照试验的中文标题"),
        },
        handles={CNKI_OK},
        pubmed={
            "38129175": pubmed_doc("38129175", doi=CAND),
            "38129176": pubmed_doc("38129176", pages="100-104"),
            "38129177": pubmed_doc("38129177", pages="100-110"),
        },
        esearch={VP: ["38129175"], AMBIG: ["38129176", "38129177"]},
    )


ROWS: list[tuple[dict[str, Any], str | None, str, str | None]] = [
    # (row, outcome, verdict, priority)
    (
        {"title": FULL if (FULL := TITLE + "。") else "", "doi": ISTIC_OK},
        "DOI_TITLE_VERIFIED",
        "RESOLVES-AND-MATCHES",
        None,
    ),
    ({"title": TITLE, "doi": ISTIC_CHIMERA}, "DOI_TITLE_MISMATCH", "RESOLVES-BUT-DIFFERS", "P0"),
    ({"title": TITLE, "doi": ISTIC_FAKE}, "DOI_REFUTED", "DOES-NOT-RESOLVE", "P0"),
    ({"title": TITLE, "doi": CNKI_OK}, "DOI_EXISTS_TITLE_UNVERIFIABLE", "NOT COVERED", "P2"),
    ({"title": TITLE, "doi": CNKI_FAKE}, "DOI_REFUTED", "DOES-NOT-RESOLVE", "P0"),
    ({"title": TITLE, "doi": CROSSREF_CN}, "DOI_RA_OUT_OF_SCOPE", "NOT COVERED", "P3"),
    (
        {
            "title": "临床随机对照试验的中文标题",
            "container_title": JOURNAL,
            "volume": "103",
            "pages": "3967-3971",
            "year": 2023,
        },
        "PUBMED_COORDINATE_VERIFIED",
        "RESOLVES-AND-MATCHES",
        None,
    ),
    (
        {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "9999"},
        "PUBMED_INDEXED_BUT_COORDINATE_MISS",
        "NOT COVERED",
        "P1",
    ),
    (
        {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "100"},
        "PUBMED_COORDINATE_AMBIGUOUS",
        "NOT COVERED",
        "P1",
    ),
    (
        {"title": TITLE, "container_title": "中国全科医学", "volume": "1", "pages": "1"},
        "JOURNAL_NOT_INDEXED",
        "NOT COVERED",
        "P3",
    ),
    (
        {"title": "社会学研究方法", "container_title": "社会学研究"},
        "NO_ISSN_MAPPING",
        "NOT COVERED",
        "P3",
    ),
    ({"title": "Deep residual learning", "doi": "10.1109/cvpr.2016.90"}, None, "NOT COVERED", None),
]


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    """The project's emulator on 127.0.0.1."""
    emulator = await start_emulator(corpus(), EmulatorConfig(hang_seconds=2.0))
    yield emulator
    await emulator.close()


def settings_for(emu: Emulator, tmp_path: Any, **extra: Any) -> Settings:
    """Settings aimed at the emulator; a tiny timeout so `timeout` faults end at once."""
    values: dict[str, Any] = {
        **emu.base_urls,
        "ncbi_email": "tester@example.org",
        "cache_dir": str(tmp_path / "cache"),
        "max_retries": 1,
        "timeout": 0.2,
    }
    values.update(extra)
    return registry.settings(**values)


async def audit(emu: Emulator, settings: Settings, rows: list[dict[str, Any]]) -> WaterfallResult:
    """Run the stage through `open_net` with an injected clock."""
    references = refs(*rows)
    clock = FakeClock()
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        return await run_waterfall(
            references, verdicts_for(references), tables.empty(tables.RECORDS), settings, net
        )


async def test_mixed_bibliography(emu, tmp_path):
    result = await audit(emu, settings_for(emu, tmp_path), [r for r, *_ in ROWS])
    outcomes = {o["row_id"]: o for o in result.outcomes.to_pylist()}
    verdicts = result.verdicts.to_pylist()
    items = {i["row_id"]: i for i in result.items.to_pylist()}
    for row_id, (_, outcome, verdict, priority) in enumerate(ROWS):
        got = outcomes.get(row_id, {}).get("reason_code")
        assert got == outcome, (row_id, got)
        assert verdicts[row_id]["verdict"] == verdict, row_id
        assert (items[row_id]["priority"] if row_id in items else None) == priority, row_id
    for item in items.values():
        assert item["human_result"] is None and item["sources_tried"] and item["text"]
    # budgets: 3 distinct prefixes asked at once (plus the candidate's, already known)
    assert emu.counts["doira"] == math.ceil(3 / 20)
    assert emu.counts["doi_csl"] == 4  # ISTIC_OK, ISTIC_CHIMERA, ISTIC_FAKE, CAND
    asked = Counter(r.url for r in emu.log)
    assert max(asked.values()) == 1, asked  # no request twice within a run
    assert not any("10.1109" in r.url for r in emu.log)


FAULTS = [
    "5xx",
    "timeout",
    "reset",
    "truncated",
    "malformed",
    "redirect_http",
    "redirect_ip",
    "429",
]


@pytest.mark.parametrize("kind", FAULTS)
@pytest.mark.parametrize(
    ("target", "row"),
    [
        ("doi:10.5555", {"title": TITLE, "doi": ISTIC_OK}),
        (f"doi:{ISTIC_OK}", {"title": TITLE, "doi": ISTIC_OK}),
        (f"csl:{ISTIC_OK}", {"title": TITLE, "doi": ISTIC_OK}),
        (f"handle:{CNKI_OK}", {"title": TITLE, "doi": CNKI_OK}),
        (
            f"eutils:{VP}",
            {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "3967"},
        ),
        (
            "eutils:38129175",
            {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "3967"},
        ),
    ],
)
async def test_every_fault_is_unchecked_never_a_verdict(emu, tmp_path, kind, target, row):
    emu.config.faults = {target: kind}
    result = await audit(emu, settings_for(emu, tmp_path), [row])
    out = result.outcomes.to_pylist()[0]
    if target == f"doi:{ISTIC_OK}" and kind in ("truncated", "malformed"):
        # A body fault on doi.org's 302 hop spoils a body that is never read: the CSL record
        # behind the redirect is intact, so the outcome stands.
        assert out["reason_code"] == "DOI_TITLE_VERIFIED"
        return
    assert out["status"] == "unchecked", (kind, target, out)
    assert result.verdicts["verdict"].to_pylist() == ["UNCHECKED"]
    assert result.items.num_rows == 0


@pytest.mark.parametrize(
    ("target", "row"),
    [
        ("10.5555", {"title": TITLE, "doi": ISTIC_OK}),
        (ISTIC_OK, {"title": TITLE, "doi": ISTIC_OK}),
        (CNKI_OK, {"title": TITLE, "doi": CNKI_OK}),
        (
            "38129175",
            {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "3967"},
        ),
    ],
)
async def test_wrong_echo_is_unchecked(emu, tmp_path, target, row):
    emu.config.faults = {target: "wrong_echo"}
    result = await audit(emu, settings_for(emu, tmp_path), [row])
    assert result.outcomes["status"].to_pylist() == ["unchecked"]


async def test_doi_system_down_leaves_pubmed_rows_decided(emu, tmp_path):
    emu.config.down = {"doi", "handle"}
    rows = [
        {"title": TITLE, "doi": ISTIC_OK},
        {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "9999"},
    ]
    result = await audit(emu, settings_for(emu, tmp_path), rows)
    assert result.outcomes["reason_code"].to_pylist() == [
        "http_5xx",
        "PUBMED_INDEXED_BUT_COORDINATE_MISS",
    ]
    assert result.verdicts["verdict"].to_pylist() == ["UNCHECKED", "NOT COVERED"]
