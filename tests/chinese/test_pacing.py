"""NCBI calls of this stage share the NCBI throttle; doi.org/Handle pace on their own."""

from __future__ import annotations

from auditor import tables
from auditor.chinese.waterfall import run_waterfall
from auditor.registers import registry
from auditor.transport.net import open_net
from tests.chinese.conftest import FakeClock
from tests.chinese.helpers import JOURNAL, TA, TITLE, refs, verdicts_for


async def test_ncbi_pacing_with_api_key_and_independent_doi_throttle(registers, corpus):
    corpus.esearch[f'"{TA}"[ta]'] = ["1"]
    corpus.agencies["10.13209"] = "CNKI"
    rows = [
        {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": str(3900 + i)}
        for i in range(4)
    ]
    rows += [{"title": TITLE, "doi": f"10.13209/x{i}"} for i in range(3)]
    references = refs(*rows)
    settings = registers.settings(ncbi_api_key="secret-key")
    clock = FakeClock()
    async with open_net(settings, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        result = await run_waterfall(
            references, verdicts_for(references), tables.empty(tables.RECORDS), settings, net
        )
        ncbi = net.throttles["ncbi"].starts
        doi = net.throttles["doi"].starts + net.throttles["handle"].starts
    assert len(ncbi) == 5  # one coverage query, four coordinate queries
    gaps = [b - a for a, b in zip(ncbi, ncbi[1:], strict=False)]
    assert min(gaps) >= 0.34  # an API key does not relax the pace
    assert len(doi) == 4  # one doiRA, three Handle probes
    assert registers.last_params["esearch"]["api_key"] == "secret-key"
    assert registers.last_params["esearch"]["email"] == "tester@example.org"
    assert set(result.outcomes["reason_code"].to_pylist()) == {
        "PUBMED_INDEXED_BUT_COORDINATE_MISS",
        "DOI_REFUTED",
    }
