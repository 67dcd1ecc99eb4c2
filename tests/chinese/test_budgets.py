"""Request budgets: ⌈prefixes / batch⌉ doiRA calls, one CSL per distinct ISTIC DOI, no repeats."""

from __future__ import annotations

import math

from auditor import tables
from tests.chinese.conftest import waterfall
from tests.chinese.helpers import TITLE, csl, refs, verdicts_for


async def test_doira_batches_distinct_prefixes(registers, corpus):
    rows = []
    for i in range(45):
        prefix = f"10.{5000 + i}"
        corpus.agencies[prefix] = "CNKI"
        corpus.handles.add(f"{prefix}/a")
        rows += [{"title": TITLE, "doi": f"{prefix}/a"}, {"title": TITLE, "doi": f"{prefix}/a"}]
    references = refs(*rows)
    settings = registers.settings(doira_batch_size=20)
    result = await waterfall(settings, references, verdicts_for(references), None)
    assert registers.counts["doira"] == math.ceil(45 / 20)
    assert registers.counts["handle"] == 45  # one per distinct DOI, not per row
    assert set(result.outcomes["reason_code"].to_pylist()) == {"DOI_EXISTS_TITLE_UNVERIFIABLE"}
    assert len(result.requests) == len(set(result.requests))


async def test_one_csl_request_per_distinct_istic_doi(registers, corpus):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl["10.5555/a"] = csl("10.5555/a")
    corpus.csl["10.5555/b"] = csl("10.5555/b")
    rows = [{"title": TITLE, "doi": d} for d in ("10.5555/a", "10.5555/b", "10.5555/a")]
    references = refs(*rows)
    await waterfall(registers.settings(), references, verdicts_for(references), None)
    assert registers.counts["doira"] == 1
    assert registers.counts["doi_csl"] == 2


async def test_mixed_bibliography_asks_nothing_for_english_rows(registers, corpus):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl["10.5555/a"] = csl("10.5555/a")
    rows = [{"title": f"English paper {i}", "doi": f"10.1000/{i}"} for i in range(30)]
    rows.append({"title": TITLE, "doi": "10.5555/a"})
    references = refs(*rows)
    result = await waterfall(registers.settings(), references, verdicts_for(references), None)
    assert result.outcomes["row_id"].to_pylist() == [30]
    assert all("10.1000" not in s for s in registers.seen)
    assert result.verdicts.slice(0, 30).equals(verdicts_for(references).slice(0, 30))


async def test_agencies_known_from_records_are_not_asked_again(registers, corpus):
    corpus.csl["10.5555/a"] = csl("10.5555/a")
    references = refs({"title": TITLE, "doi": "10.5555/a"}, {"title": TITLE, "doi": "10.1360/b"})
    records = tables.from_rows(
        [
            {
                "register": "crossref",
                "id_type": "doi",
                "identifier": "10.5555/a",
                "status": "not_found",
                "agency": "ISTIC",
            },
            {
                "register": "crossref",
                "id_type": "doi",
                "identifier": "10.1360/b",
                "status": "found",
                "title": TITLE,
            },
        ],
        tables.RECORDS,
    )
    before = verdicts_for(references, "RESOLVES-AND-MATCHES")
    result = await waterfall(registers.settings(), references, before, records)
    assert registers.counts["doira"] == 0
    assert result.outcomes["reason_code"].to_pylist() == [
        "DOI_TITLE_VERIFIED",
        "DOI_RA_OUT_OF_SCOPE",
    ]
    assert result.verdicts["verdict"].to_pylist() == ["RESOLVES-AND-MATCHES"] * 2


async def test_handle_answer_from_records_is_not_probed_again(registers, corpus):
    corpus.agencies["10.13209"] = "CNKI"
    references = refs({"title": TITLE, "doi": "10.13209/a"})
    records = tables.from_rows(
        [
            {
                "register": "handle",
                "id_type": "doi",
                "identifier": "10.13209/a",
                "status": "not_found",
                "reason": "not_found",
            }
        ],
        tables.RECORDS,
    )
    result = await waterfall(registers.settings(), references, verdicts_for(references), records)
    assert registers.counts["handle"] == 0
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_REFUTED"]


async def test_prefix_agency_known_from_another_doi_is_not_asked(registers, corpus):
    references = refs({"title": TITLE, "doi": "10.5555/fake"})
    records = tables.from_rows(
        [
            {
                "register": "doi",
                "id_type": "doi",
                "identifier": "10.5555/real",
                "status": "not_covered",
                "agency": "ISTIC",
            },
        ],
        tables.RECORDS,
    )
    result = await waterfall(registers.settings(), references, verdicts_for(references), records)
    assert registers.counts["doira"] == 0
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_REFUTED"]


async def test_legs_share_answers_when_running_side_by_side(registers, corpus):
    """The DOI leg and the coordinate leg run concurrently; a DOI both need is asked once."""
    from tests.chinese.helpers import JOURNAL, TA, pubmed_doc

    doi = "10.5555/shared"
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[doi] = csl(doi)
    corpus.esearch[f'"{TA}"[ta]'] = ["1"]
    corpus.esearch[f'"{TA}"[ta] AND 103[vi] AND 3967[pg]'] = ["38129175"]
    corpus.pubmed["38129175"] = pubmed_doc("38129175", doi=doi)
    references = refs(
        {"title": TITLE, "doi": doi},
        {"title": TITLE, "container_title": JOURNAL, "volume": "103", "pages": "3967"},
    )
    result = await waterfall(registers.settings(), references, verdicts_for(references))
    assert result.outcomes["reason_code"].to_pylist() == [
        "DOI_TITLE_VERIFIED",
        "PUBMED_COORDINATE_VERIFIED",
    ]
    assert registers.counts["doira"] == 1
    assert registers.counts["doi_csl"] == 1
    assert len(result.requests) == len(set(result.requests))
