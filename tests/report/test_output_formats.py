"""The `--output-format` registry: every name the CLI offers is built, and only those."""

from __future__ import annotations

import io

from auditor.report.interface import ReportFormat
from auditor.report.output_formats import FORMATS, OutputName


def test_the_cli_names_and_the_registry_agree() -> None:
    assert set(OutputName) == {OutputName.TEXT, *FORMATS}
    assert OutputName.TEXT not in FORMATS


def test_every_format_builds_a_report_format_on_its_stream() -> None:
    for name, output in FORMATS.items():
        stream = io.StringIO()
        built = output.build(stream, ("P0",))
        assert isinstance(built, ReportFormat), name
        assert output.help, name
