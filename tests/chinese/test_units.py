"""Module-level contracts: bridge file handling, questions asked once a run, the outcome table."""

from __future__ import annotations

import pytest

from auditor import tables
from auditor.chinese.bridge import load_bridge
from auditor.chinese.outcomes import INFO, Outcome, item_text, verdict_for
from auditor.chinese.pubmed_coords import coordinates, first_page
from auditor.chinese.steps import Run, known_facts
from auditor.errors import ConfigError, Reason, Unreachable
from auditor.settings import Settings


def test_seed_bridge_has_the_five_rows_and_the_counterexample():
    bridge = load_bridge()
    assert len(bridge) == 6
    assert bridge.lookup("中华流行病学杂志").nlm_ta == "Zhonghua Liu Xing Bing Xue Za Zhi"
    assert bridge.lookup("《中华医学杂志》").issn == "0376-2491"
    assert bridge.lookup("中国全科医学").nlm_ta is None
    assert bridge.lookup("中华医学") is None and bridge.lookup(None) is None


def test_user_map_overrides_and_extends(tmp_path):
    path = tmp_path / "m.csv"
    path.write_text(
        "journal,issn,nlm_ta,nlm_id\n中国全科医学,1007-9572,Zhongguo Quan Ke Yi Xue,1\n"
        "护理学杂志,1001-4152,Hu Li Xue Za Zhi,2\n",
        encoding="utf-8",
    )
    bridge = load_bridge(str(path))
    assert bridge.lookup("中国全科医学").nlm_ta == "Zhongguo Quan Ke Yi Xue"
    assert bridge.lookup("护理学杂志").issn == "1001-4152"


@pytest.mark.parametrize(
    "text",
    [
        "name,issn\n中华,0376-2491\n",
        "journal,issn,nlm_ta,nlm_id\n中华,bad,TA,1\n",
        'journal,issn,nlm_ta,nlm_id\n中华,0376-2491,"Bad"" OR x[ta]",1\n',
    ],
)
def test_bad_user_map_is_a_config_error(tmp_path, text):
    path = tmp_path / "m.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        load_bridge(str(path))


def test_missing_user_map_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        load_bridge(str(tmp_path / "absent.csv"))


async def test_a_question_is_asked_once_a_run_and_its_failure_replayed():
    calls: list[str] = []

    async def job(key: str) -> str:
        calls.append(key)
        if key == "bad":
            raise Unreachable("down", Reason.TIMEOUT)
        return key

    net = object()  # `once` hands the run's net to the job; these jobs do not use it
    settings = Settings(cache_dir="/nonexistent")
    run = Run(settings, net, load_bridge(None), known_facts(tables.empty(tables.RECORDS)))  # type: ignore[arg-type]
    for _ in range(3):
        assert await run.once("doi", "ok", lambda _net: job("ok")) == "ok"
        with pytest.raises(Unreachable):
            await run.once("doi", "bad", lambda _net: job("bad"))
    assert calls == ["ok", "bad"]
    assert run.asked == ["doi ok", "doi bad"]


async def test_without_a_net_every_question_fails_offline():
    settings = Settings(cache_dir="/nonexistent")
    run = Run(settings, None, load_bridge(None), known_facts(tables.empty(tables.RECORDS)))
    with pytest.raises(Unreachable) as info:
        await run.once("doi", "x", lambda _net: pytest.fail("asked without a net"))
    assert info.value.reason is Reason.OFFLINE


def test_every_outcome_is_mapped():
    assert set(INFO) == set(Outcome)
    assert verdict_for(Outcome.PUBMED_INDEXED_BUT_COORDINATE_MISS) == "NOT COVERED"
    assert verdict_for(Outcome.DOI_REFUTED) == "DOES-NOT-RESOLVE"
    assert verdict_for(Outcome.DOI_TITLE_MISMATCH) == "RESOLVES-BUT-DIFFERS"
    assert verdict_for(Outcome.PUBMED_COORDINATE_VERIFIED) == "RESOLVES-AND-MATCHES"


def test_wording_discipline():
    for outcome, info in INFO.items():
        if info.priority is None:
            continue
        text = item_text(outcome).lower()
        if info.priority == "P0":
            assert "fabricated" in text
        else:
            assert "pending human check" in text and "fabricat" not in text


def test_first_page_and_coordinates():
    assert first_page("3967-3971") == "3967"
    assert first_page("e123–e130") == "e123"
    assert coordinates("103", "3967-71", None, None).by_volume_page
    c = coordinates(None, "3967", ["Chen, X."], 2020)
    assert (c.surname, c.year, c.by_author_year) == ("Chen", 2020, True)
