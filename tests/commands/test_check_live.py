"""`auditor check` without `--record` resolves through the real register code (emulator)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.commands import check_steps as check_command
from auditor.emulator import Corpus, EmulatorConfig, run_emulator
from auditor.transport.net import open_net

WORK = {
    "DOI": "10.5555/check.1",
    "type": "journal-article",
    "title": ["Vectorized reference checking"],
    "author": [{"given": "Ada", "family": "Lovelace", "sequence": "first"}],
    "published": {"date-parts": [[2021, 3, 4]]},
    "issued": {"date-parts": [[2021, 3, 4]]},
    "container-title": ["Journal of Tests"],
}


@pytest.fixture
def env(isolated: Path, tmp_path: Path) -> Path:
    return tmp_path


def _check(emu_urls: dict[str, str], *args: str) -> tuple[int, str]:
    env = {f"AUDITOR_{k.upper()}": v for k, v in emu_urls.items()}
    result = CliRunner().invoke(app, ["check", *args], env=env)
    return result.exit_code, result.output


def test_check_resolves_live_and_reports_each_field(env: Path) -> None:
    corpus = Corpus(crossref={"10.5555/check.1": WORK}, agencies={"10.5555": "Crossref"})
    with run_emulator(corpus, EmulatorConfig()) as emu:
        code, out = _check(
            emu.base_urls,
            "--id",
            "https://doi.org/10.5555/CHECK.1",
            "--title",
            "Vectorized Reference Checking",
            "--author",
            "Lovelace, Ada",
            "--year",
            "2018",
            "--json",
        )
        assert emu.counts["crossref_work"] + emu.counts["crossref_filter"] == 1
    assert code == 1, out
    report = json.loads(out)
    assert report["verdict"] == "RESOLVES-BUT-DIFFERS"
    assert report["identifier"] == "10.5555/check.1"
    assert report["tier"] == "live"
    fields = {f["field"]: f["match"] for f in report["fields"]}
    assert fields == {"title": True, "authors": True, "year": False, "venue": None}


def test_check_of_an_unregistered_doi_asks_the_doi_system(env: Path) -> None:
    corpus = Corpus(agencies={"10.5555": "Crossref"})
    with run_emulator(corpus, EmulatorConfig()) as emu:
        code, out = _check(emu.base_urls, "--id", "10.5555/nothing", "--title", "Ghost", "--json")
        asked_doi_system = emu.counts["doira"] + emu.counts["handle"]
    assert json.loads(out)["verdict"] == "DOES-NOT-RESOLVE"
    assert code == 1
    assert asked_doi_system >= 1


class _Clock:
    """Monotonic time that sleeping advances: the retries' backoff is waited out instantly."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += max(0.0, seconds)


def test_check_with_the_register_down_is_unchecked_not_absent(
    env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _Clock()
    monkeypatch.setattr(
        check_command, "open_net", functools.partial(open_net, clock=clock, sleep=clock.sleep)
    )
    corpus = Corpus(crossref={"10.5555/check.1": WORK})
    config = EmulatorConfig(down={"crossref"})
    with run_emulator(corpus, config) as emu:
        code, out = _check(emu.base_urls, "--id", "10.5555/check.1", "--title", "x", "--json")
    assert json.loads(out)["verdict"] == "UNCHECKED"
    assert code == 3
    assert sum(clock.slept) > 1.0  # the backoff was taken, on the injected clock
