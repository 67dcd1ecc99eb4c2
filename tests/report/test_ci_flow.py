"""A CI job's view, end to end over the sample snapshot (offline): exit code, annotations, JUnit.

A bibliography with known problems exits 1 with one `::error` on the right line per failing
reference and a JUnit file counting the same failures; once fixed it exits 0 with none.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from auditor import pipeline, policy
from auditor.registers import registry
from auditor.report.annotations import github_annotations
from auditor.report.junit import write_junit
from auditor.settings import load_settings

SNAPSHOT = Path(__file__).resolve().parents[2] / "sample_bibs" / "snapshot.parquet"

_GOOD = """@article{lecun2015deep,
  author  = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  title   = {Deep learning},
  journal = {Nature},
  year    = {2015},
  doi     = {10.1038/nature14539},
}
"""

_TOSATTO = """
@article{tosatto2014,
  author  = {Tosatto, Laura and Horrocks, Mathew H. and Dear, Alexander J. and others},
  title   = {Single-molecule {FRET} studies on alpha-synuclein oligomerization
             of {Parkinson}'s disease genetically related mutants},
  journal = {Scientific Reports},
  year    = {YEAR},
  doi     = {10.1038/srep16696},
}
"""

_WRONG_TITLE = """
@article{lecun_title,
  author  = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  title   = {Shallow heuristics for protein folding in yeast},
  year    = {2015},
  doi     = {10.1038/nature14539},
}
"""


async def _run(bib: Path, tmp: Path) -> tuple[int, str, ET.Element]:
    settings = load_settings(
        {"offline": True, "snapshots": (str(SNAPSHOT),), "cache_dir": str(tmp / "cache")},
        inputs=[str(bib)],
        environ={},
        registers=registry.settings_defaults(),
    )
    result = await pipeline.run_audit([str(bib)], settings)
    code = policy.exit_code(result.verdicts, result.checklist, settings.fail_on, False)
    junit = tmp / "junit.xml"
    write_junit(result, junit, settings.fail_on)
    return code, github_annotations(result, settings.fail_on), ET.parse(junit).getroot()


def _line_of(text: str, key: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if "{" + key + "," in line)


async def test_broken_then_fixed(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    broken = _GOOD + _TOSATTO.replace("YEAR", "2013") + _WRONG_TITLE
    bib.write_text(broken, encoding="utf-8")
    code, annotations, junit = await _run(bib, tmp_path)
    errors = [line for line in annotations.splitlines() if line.startswith("::error")]
    assert code == 1
    assert [e.split("::")[1] for e in errors] == [
        f"error file={bib},line={_line_of(broken, 'tosatto2014')},title=auditor%3A "
        "RESOLVES-BUT-DIFFERS",
        f"error file={bib},line={_line_of(broken, 'lecun_title')},title=auditor%3A "
        "RESOLVES-BUT-DIFFERS",
    ]
    assert junit.get("failures") == str(len(errors)) == "2"
    assert junit.get("tests") == "3"

    fixed = _GOOD + _TOSATTO.replace("YEAR", "2015")
    bib.write_text(fixed, encoding="utf-8")
    code, annotations, junit = await _run(bib, tmp_path)
    assert code == 0
    assert "::error" not in annotations
    assert junit.get("failures") == "0"
