"""`auditor emulator serve`: flag parsing, usage errors, and a short real run."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from auditor.commands.emulator import build_config, parse_fault, parse_rate_limit, register
from auditor.emulator import PUBLISHED_LIMITS, Corpus


@pytest.fixture
def cli() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:
        """Root."""

    return app


def test_parse_rate_limit() -> None:
    assert parse_rate_limit("crossref=10/1") == ("crossref", (10, 1.0))
    assert parse_rate_limit("arxiv=1/3") == ("arxiv", (1, 3.0))
    for bad in ("crossref=10", "scopus=1/1", "crossref=x/1", "crossref=0/1", "eutils=3/0"):
        with pytest.raises(ValueError, match="rate-limit"):
            parse_rate_limit(bad)


def test_parse_fault_splits_on_the_last_equals() -> None:
    assert parse_fault("10.1/a=b=5xx") == ("10.1/a=b", "5xx")
    with pytest.raises(ValueError, match="--fault"):
        parse_fault("10.1/a=explode")


def test_build_config_published_limits_then_overrides() -> None:
    config = build_config(0.2, ["crossref=5/1"], True, ["1=reset"], 0.1, 3, ["arxiv"])
    assert config.rate_limits == {**PUBLISHED_LIMITS, "crossref": (5, 1.0)}
    assert (config.latency, config.faults, config.fault_rate, config.seed) == (
        0.2,
        {"1": "reset"},
        0.1,
        3,
    )
    assert config.down == {"arxiv"}


def test_serve_prints_settings_and_counts(cli: typer.Typer, tmp_path: Path) -> None:
    Corpus(handles={"10.1/x"}).write_dir(tmp_path)
    result = CliRunner().invoke(
        cli,
        ["emulator", "serve", "--corpus", str(tmp_path), "--port", "0", "--exit-after", "0.05"],
    )
    assert result.exit_code == 0, result.output
    assert "AUDITOR_CROSSREF_URL=http://127.0.0.1:" in result.stdout
    assert "AUDITOR_HANDLE_URL=http://127.0.0.1:" in result.stdout


def test_serve_usage_errors_exit_2(cli: typer.Typer, tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(cli, ["emulator", "serve", "--corpus", str(tmp_path / "nope")])
    assert missing.exit_code == 2
    assert "corpus folder not found" in missing.stderr
    bad = runner.invoke(
        cli, ["emulator", "serve", "--corpus", str(tmp_path), "--rate-limit", "crossref"]
    )
    assert bad.exit_code == 2
    assert "SERVICE=COUNT/SECONDS" in bad.stderr


def test_generate_writes_a_servable_corpus_and_its_bibliography(
    cli: typer.Typer, tmp_path: Path
) -> None:
    out = tmp_path / "demo"
    result = CliRunner().invoke(
        cli,
        ["emulator", "generate", str(out), "--dois", "10", "--pmids", "4", "--arxiv-ids", "2"]
        + ["--missing", "0.1"],
    )
    assert result.exit_code == 0, result.output
    assert "16 references, 1 absent" in result.stdout
    corpus = Corpus.from_dir(out)
    assert len(corpus.crossref) == 10 - 1 + 3  # one absent, three spares
    bib = (out / "references.bib").read_text(encoding="utf-8")
    assert bib.count("@article{") == 16


def test_generate_refuses_a_bad_fraction(cli: typer.Typer, tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["emulator", "generate", str(tmp_path), "--missing", "2"])
    assert result.exit_code == 2
