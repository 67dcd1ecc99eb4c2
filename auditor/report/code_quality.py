"""GitLab code quality (`--output-format codequality`): the findings as a Code Climate issue list.

GitLab shows a job's `codequality` report on the merge request, each issue on its file and
line. The issues are the SARIF log's results (`report.sarif`), one per reference that needs a
person, so both formats say the same thing: `check_name` is the SARIF rule id, `fingerprint` its
partial fingerprint (stable while lines move), the severity its level (`error`: major, the
`--fail-on` policy fails it; `warning`: minor; `note`: info), the path relative to the working
folder (as the job's checkout is).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import unquote, urlsplit

from auditor.report.interface import ReportFormat
from auditor.report.sarif import sarif_log
from auditor.report.view import ReportView
from auditor.result import AuditResult

__all__ = ["CodeQualityReport", "code_quality"]

_SEVERITY = {"error": "major", "warning": "minor", "note": "info"}


def _path(artifact: dict[str, Any]) -> str:
    uri = str(artifact["uri"])
    if artifact.get("uriBaseId"):
        return unquote(uri)
    return unquote(urlsplit(uri).path)  # a file outside the working folder: its absolute path


def code_quality(result: AuditResult, fail_on: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The Code Climate issues of `result` (`fail_on`: the `--fail-on` list)."""
    (run,) = sarif_log(result, fail_on)["runs"]
    issues = []
    for found in run["results"]:
        location = found["locations"][0]["physicalLocation"]
        issues.append(
            {
                "type": "issue",
                "description": found["message"]["text"],
                "check_name": found["ruleId"],
                "categories": ["Bug Risk"],
                "fingerprint": next(iter(found["partialFingerprints"].values())),
                "severity": _SEVERITY[found["level"]],
                "location": {
                    "path": _path(location["artifactLocation"]),
                    "lines": {"begin": int(location.get("region", {}).get("startLine", 1))},
                },
            }
        )
    return issues


class CodeQualityReport(ReportFormat):
    """`--output-format codequality`: the issue list on `stream` (stdout), for GitLab."""

    def __init__(self, stream: TextIO, fail_on: Sequence[str] = ()) -> None:
        self.stream = stream
        self.fail_on = tuple(fail_on)

    def write(self, view: ReportView, out_dir: Path) -> list[Path]:
        """Write `code_quality(result, fail_on)` as indented JSON to the stream."""
        json.dump(
            code_quality(view.result, self.fail_on), self.stream, indent=2, ensure_ascii=False
        )
        self.stream.write("\n")
        return []
