"""The `--output-format` registry: what `audit` prints on stdout besides the report files.

`text` (the default) is the findings list for a person (`report.findings`). Every other name is
a machine format: one module each with its `ReportFormat`, built from the stream it prints on and
the `--fail-on` list, and here one `OutputName` and one entry in `FORMATS` (a test checks that
the two agree; the enum is what the CLI offers). A format whose stdout is one document (a JSON
log) says so, and `--json` may not print beside it. The modules are imported only when their
format is asked for, so `--help` stays quick.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from auditor.report.interface import ReportFormat

__all__ = ["FORMATS", "OutputFormat", "OutputName"]


class OutputName(StrEnum):
    """The `--output-format` values. `TEXT`, the default, is the console's findings list (not in
    `FORMATS`: no stream format of its own)."""

    TEXT = "text"
    GITHUB = "github"
    SARIF = "sarif"
    CODEQUALITY = "codequality"


@dataclass(frozen=True)
class OutputFormat:
    """One `--output-format` name: its help, how it is built, whether stdout is one document."""

    help: str
    build: Callable[[TextIO, Sequence[str]], ReportFormat]
    document: bool = False


def _github(stream: TextIO, fail_on: Sequence[str]) -> ReportFormat:
    from auditor.report.annotations import GithubAnnotations

    return GithubAnnotations(stream, fail_on)


def _sarif(stream: TextIO, fail_on: Sequence[str]) -> ReportFormat:
    from auditor.report.sarif import SarifLog

    return SarifLog(stream, fail_on)


def _code_quality(stream: TextIO, fail_on: Sequence[str]) -> ReportFormat:
    from auditor.report.code_quality import CodeQualityReport

    return CodeQualityReport(stream, fail_on)


FORMATS: dict[OutputName, OutputFormat] = {
    OutputName.GITHUB: OutputFormat("GitHub workflow annotations", _github),
    OutputName.SARIF: OutputFormat("a SARIF 2.1.0 log for code scanning", _sarif, document=True),
    OutputName.CODEQUALITY: OutputFormat(
        "a GitLab code quality report", _code_quality, document=True
    ),
}
