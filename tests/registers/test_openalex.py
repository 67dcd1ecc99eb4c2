"""The OpenAlex register: work parsing, DOI lists over loopback, 404 as a referral, retractions."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from auditor.emulator import Corpus, Emulator, EmulatorConfig, start_emulator
from auditor.errors import MalformedBody, Reason
from auditor.registers import registry
from auditor.registers.interface import TitleQuery
from auditor.registers.openalex import (
    OPENALEX,
    OpenalexRegister,
    parse_work,
    parse_work_list,
    work_row,
)
from auditor.registers.openalex_search import OpenalexSearchRegister, parse_search
from auditor.settings import Settings
from auditor.transport.net import Response, open_net
from tests.emulator.conftest import crossref_message
from tests.registers.test_emulator import InstantClock

FIXTURES = Path(__file__).parent / "fixtures"
DOI = "10.1016/j.example.2021.104512"


def _fixture(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def _response(body: Any, status: int = 200) -> Response:
    raw = json.dumps(body).encode()
    return Response(status, {"content-type": "application/json"}, raw, "https://api.openalex.org")


def test_a_work_in_the_real_shape() -> None:
    row = parse_work(DOI, _response(_fixture("openalex_work.json")))
    assert row["status"] == "found" and row["register"] == "openalex"
    assert (row["id_type"], row["identifier"], row["doi"]) == ("doi", DOI, DOI)
    assert row["title"] == "Sparse attention for long-range weather forecasting"
    # display_name first; the raw name as printed where OpenAlex matched no author.
    assert row["authors"] == ["Marijke de Vries", "Tomás Álvarez", "Li Wei"]
    assert row["surnames"][1:] == ["Álvarez", "Wei"]
    assert row["year"] == 2021 and row["years"] == [2021]
    assert row["container_title"] == "Environmental Modelling & Software"
    assert (row["volume"], row["issue"], row["pages"]) == ("142", None, "104512")
    assert row["work_type"] == "article" and row["updates"] == []


def test_is_retracted_is_a_retraction_update() -> None:
    listing = _fixture("openalex_works.json")
    rows = parse_work_list([DOI, "10.1038/s41586-019-0000-x"], _response(listing))
    retracted = rows["10.1038/s41586-019-0000-x"]
    assert [(u["type"], u["relation"], u["source"]) for u in retracted["updates"]] == [
        ("retraction", "updated_by", "openalex")
    ]
    assert retracted["pages"] == "373-377" and retracted["container_title"] == "Nature"


def test_a_list_naming_a_doi_not_asked_is_untrustworthy() -> None:
    with pytest.raises(MalformedBody) as caught:
        parse_work_list([DOI], _response(_fixture("openalex_works.json")))
    assert caught.value.reason is Reason.WRONG_ECHO


@pytest.mark.parametrize(
    "body", [{"results": []}, {"meta": {}, "results": {}}, [], {"meta": {}, "results": ["x"]}]
)
def test_a_body_of_another_shape_is_malformed(body: Any) -> None:
    with pytest.raises(MalformedBody):
        parse_work_list([DOI], _response(body))


def test_a_work_without_doi_or_title() -> None:
    work = {**_fixture("openalex_work.json"), "doi": None, "ids": {"openalex": "W1"}}
    assert work_row(work, "d")["id_type"] == "openalex"  # type: ignore[index]
    assert work_row({**work, "title": None, "display_name": ""}, "d") is None


def test_search_answers_are_candidates_of_the_search_register() -> None:
    found = parse_search(_response(_fixture("openalex_works.json")))
    assert [c["register"] for c in found] == ["openalex_search"] * 2
    assert parse_search(_response({"meta": {"count": 0}, "results": []})) == []


def _corpus() -> Corpus:
    dois = [f"10.5555/oa{n}" for n in range(5)]
    return Corpus(crossref={d: crossref_message(d, f"Work number {d[-1]}") for d in dois})


@pytest.fixture
async def emu() -> AsyncIterator[Emulator]:
    emulator = await start_emulator(_corpus(), EmulatorConfig())
    yield emulator
    await emulator.close()


def _settings(emu: Emulator, tmp_path: Path, **kw: Any) -> Settings:
    base = {"cache_dir": str(tmp_path), "max_retries": 1, "timeout": 2.0, **emu.base_urls}
    return registry.settings(**{**base, **kw})


async def _fetch(s: Settings, ids: list[str]) -> dict[str, Any]:
    clock = InstantClock()
    async with open_net(s, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        return await OpenalexRegister().fetch(ids, net)


async def test_dois_go_in_pipe_lists_and_an_absent_one_is_a_referral(emu, tmp_path) -> None:
    asked = ["10.5555/oa0", "10.5555/oa1", "10.5555/oa2", "10.5555/nowhere"]
    rows = await _fetch(_settings(emu, tmp_path, mailto="me@example.org"), asked)
    assert [rows[d]["status"] for d in asked] == ["found"] * 3 + ["not_found"]
    assert rows["10.5555/nowhere"]["reason"] == "not_in_openalex"
    assert OpenalexRegister().referred(rows["10.5555/nowhere"])
    listed = next(e for e in emu.log if e.endpoint == "openalex_filter")
    assert listed.params["filter"] == "doi:" + "|".join(asked)
    assert listed.params["per-page"] == "4" and listed.params["mailto"] == "me@example.org"
    assert emu.counts["openalex_work"] == 1  # the absent DOI, confirmed alone


async def test_batch_size_is_a_setting_and_a_pipe_doi_goes_alone(emu, tmp_path) -> None:
    s = _settings(emu, tmp_path, openalex_batch_size=2)
    assert OPENALEX.own(s).batch_size == 2
    rows = await _fetch(s, ["10.5555/oa0", "10.5555/oa1", "10.5555/oa2", "10.5555/a|b"])
    # [oa0, oa1] in one list; oa2 left over and the pipe DOI each by its own URL.
    assert emu.counts["openalex_filter"] == 1 and emu.counts["openalex_work"] == 2
    assert rows["10.5555/a|b"]["status"] == "not_found"


async def test_a_wrong_echo_is_a_failure_to_look(emu, tmp_path) -> None:
    emu.config = EmulatorConfig(faults={"10.5555/oa0": "wrong_echo"})
    rows = await _fetch(_settings(emu, tmp_path, max_retries=0), ["10.5555/oa0"])
    assert rows["10.5555/oa0"]["status"] == "unreachable"
    assert rows["10.5555/oa0"]["reason"] == "wrong_echo"


async def test_title_search_over_loopback(emu, tmp_path) -> None:
    clock = InstantClock()
    s = _settings(emu, tmp_path)
    query = TitleQuery("Work number 3")
    async with open_net(s, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
        answers = await OpenalexSearchRegister().search([query], net)
    assert answers[query].candidates[0]["doi"] == "10.5555/oa3"


async def test_a_doi_whose_agency_serves_nothing_comparable_is_read_from_openalex(
    tmp_path,
) -> None:
    from auditor.resolve import resolve
    from tests.registers.test_emulator import references

    paper = {
        "paperId": "p1",
        "title": "A report of the Publications Office",
        "authors": [{"name": "Jean Dupont"}],
        "year": 2019,
        "venue": "EU Publications",
        "externalIds": {"DOI": "10.2788/op.1"},
    }
    corpus = Corpus(
        agencies={"10.2788": "OP"},
        handles={"10.2788/op.1", "10.2788/op.2"},
        search={"s2": [{"text": paper["title"], "paper": paper}]},
    )
    emulator = await start_emulator(corpus, EmulatorConfig())
    try:
        s = _settings(emulator, tmp_path)
        clock = InstantClock()
        refs = references([("doi", "10.2788/op.1"), ("doi", "10.2788/op.2")])
        async with open_net(s, registry.hosts(), clock=clock, sleep=clock.sleep) as net:
            rows = {r["identifier"]: r for r in (await resolve(refs, s, net)).to_pylist()}
    finally:
        await emulator.close()
    held = rows["10.2788/op.1"]
    assert (held["status"], held["register"], held["year"]) == ("found", "openalex", 2019)
    assert held["authors"] == ["Jean Dupont"]
    # Not in OpenAlex either: the DOI system's word stands (the DOI exists, at its agency).
    assert (rows["10.2788/op.2"]["status"], rows["10.2788/op.2"]["reason"]) == (
        "not_covered",
        "registered_with_op",
    )
