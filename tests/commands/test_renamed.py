"""Renamed options keep working for one minor release: `--format` is read as the new option,
warns on stderr naming it, and is never shown in `--help`."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.commands.renamed import RENAMED, rewrite

BIB = """@article{ghost2020,
  author = {Nobody, N.}, title = {A study that is not there}, year = {2020},
  doi = {10.5555/not-a-real-doi-38},
}
"""


def test_old_names_become_new_ones_and_warn_once() -> None:
    said: list[str] = []
    args = ["x.bib", "--format", "github", "--format=sarif", "--", "--format"]
    assert rewrite("audit", args, said.append) == [
        "x.bib", "--output-format", "github", "--output-format=sarif", "--", "--format",
    ]  # fmt: skip
    assert said == ["warning: --format is deprecated and is removed in 0.5.0: use --output-format"]
    assert rewrite("check", ["--format", "x"], said.append) == ["--format", "x"]
    assert len(said) == 1


@pytest.fixture
def bib(isolated: Path) -> Path:
    path = isolated / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    return path


def test_audit_format_is_output_format_with_a_warning(bib: Path) -> None:
    run = CliRunner().invoke(
        app, ["audit", str(bib), "--offline", "--out", "out", "--format", "github"]
    )
    assert run.exit_code == 0, run.output  # offline, nothing cached: unchecked, not failing
    assert run.stdout.startswith("::warning file=") and "UNCHECKED" in run.stdout
    assert "--format is deprecated" in run.stderr and "use --output-format" in run.stderr


def test_audit_format_takes_only_the_new_options_values(bib: Path) -> None:
    run = CliRunner().invoke(app, ["audit", str(bib), "--offline", "--format", "html"])
    assert run.exit_code == 2
    assert "--output-format" in run.output and "use --output-format" in run.stderr


def test_load_format_is_input_format_with_a_warning(isolated: Path) -> None:
    path = isolated / "refs.txt"  # a .txt extension: only the forced format reads it as BibTeX
    path.write_text(BIB, encoding="utf-8")
    forced = CliRunner().invoke(app, ["load", str(path), "--format", "bibtex"])
    assert forced.exit_code == 0, forced.output
    assert "use --input-format" in forced.stderr
    new = CliRunner().invoke(app, ["load", str(path), "--input-format", "bibtex"])
    assert forced.stdout == new.stdout and "deprecated" not in new.stderr


@pytest.mark.parametrize("command", sorted(RENAMED))
def test_help_never_shows_an_old_name(command: str) -> None:
    text = CliRunner().invoke(app, [command, "--help"], env={"TERMINAL_WIDTH": "200"}).stdout
    for old, renamed in RENAMED[command].items():
        assert renamed.new in text
        assert f"{old} " not in text and f"{old}\n" not in text
