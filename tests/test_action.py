"""The GitHub Action (`action.yml`): its steps, run here as GitHub runs them (#38 item 1).

A new repository holds only `paper.tex`, `refs.bib` (one reference that does not resolve), the
sample snapshot and the three-line workflow of `pipelines/github-workflow.yml`. The test reads
the workflow's `with:`, fills in the action's input defaults, and runs each `run:` step of
`action.yml` with bash in that repository, with the environment GitHub gives a step: its `env:`
with `${{ … }}` evaluated (inputs, `github.action_path`, `runner.temp`, earlier steps' outputs),
`GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY` files, and `if:` conditions. The `uses:` steps
(setup-python, actions/cache, upload-artifact) are GitHub's own; their `with:` is checked
instead. The install step is not run: this environment already has auditor installed, and
`pip install` of the checkout would ask the package index. The run is offline (the `offline`
pipeline and the snapshot), so no test touches the network.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_bibs"
_EXPR_RE = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def _action() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    return loaded


def _evaluate(expr: str, ctx: dict[str, Any]) -> Any:
    """The few expressions action.yml uses: a context path, `==` against a string literal, and
    `always()`. Anything else fails the test: the action must stay within what is checked."""
    if expr == "always()":
        return True
    m = re.fullmatch(r"(.+?)\s*==\s*'([^']*)'", expr)
    if m:
        return str(_evaluate(m.group(1), ctx)) == m.group(2)
    value: Any = ctx
    for part in expr.split("."):
        if not isinstance(value, dict) or part not in value:
            raise AssertionError(f"action.yml uses an expression the test does not know: {expr}")
        value = value[part]
    return value


def _substitute(text: str, ctx: dict[str, Any]) -> str:
    return _EXPR_RE.sub(lambda m: str(_evaluate(m.group(1), ctx)), text)


def _outputs(path: Path) -> dict[str, str]:
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    return dict(line.split("=", 1) for line in lines if "=" in line)


def _entry(bib: str, key: str) -> str:
    start = bib.rindex("@", 0, bib.index(f"{{{key},"))
    end = bib.find("\n@", start + 1)
    return bib[start : end if end != -1 else len(bib)].rstrip() + "\n"


def _new_repository(tmp_path: Path, keys: list[str]) -> Path:
    repo = tmp_path / "paper"
    repo.mkdir()
    thesis = (SAMPLES / "thesis.bib").read_text(encoding="utf-8")
    (repo / "refs.bib").write_text("\n".join(_entry(thesis, k) for k in keys), encoding="utf-8")
    cites = " ".join(f"\\cite{{{k}}}" for k in keys)
    (repo / "paper.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n"
        f"Results {cites}.\n\\bibliography{{refs}}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    (repo / "refs.snapshot.parquet").write_bytes((SAMPLES / "snapshot.parquet").read_bytes())
    workflow = repo / ".github" / "workflows" / "bibliography.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text((ROOT / "pipelines" / "github-workflow.yml").read_text(), encoding="utf-8")
    return repo


def _run_action(repo: Path, tmp_path: Path, extra: dict[str, str]) -> dict[str, Any]:
    """Run the action as the repository's workflow calls it; the steps' results."""
    workflow = yaml.safe_load((repo / ".github/workflows/bibliography.yml").read_text())
    (step,) = [s for s in workflow["jobs"]["audit"]["steps"] if "auditor" in s.get("uses", "")]
    action = _action()
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    inputs.update({k: str(v) for k, v in {**step["with"], **extra}.items()})
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir()
    ctx: dict[str, Any] = {
        "inputs": inputs,
        "github": {"action_path": str(ROOT), "run_id": "7", "run_attempt": "1"},
        "runner": {"temp": str(runner_temp), "os": "Linux"},
        "steps": {},
    }
    summary = tmp_path / "summary.md"
    results: dict[str, Any] = {"uses": {}, "stdout": "", "codes": []}
    for i, spec in enumerate(action["runs"]["steps"]):
        cond = spec.get("if")
        if cond is not None and not _evaluate(_EXPR_RE.fullmatch(cond).group(1), ctx):  # type: ignore[union-attr]
            continue
        if "uses" in spec:
            with_ = {k: _substitute(str(v), ctx) for k, v in spec.get("with", {}).items()}
            results["uses"][spec["uses"].split("@")[0]] = with_
            continue
        if spec["name"] == "Install auditor":
            assert '"$ACTION_PATH"' in spec["run"] and spec["env"]["ACTION_PATH"]
            continue
        assert spec["shell"] == "bash" and "${{" not in spec["run"], "values go through env"
        out = tmp_path / f"output-{i}"
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("INPUT_")},
            **{k: _substitute(str(v), ctx) for k, v in spec.get("env", {}).items()},
            "GITHUB_OUTPUT": str(out),
            "GITHUB_STEP_SUMMARY": str(summary),
            "GITHUB_ACTIONS": "true",
        }
        run = subprocess.run(
            ["bash", "-e", "-c", spec["run"]],
            cwd=repo, env=env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        results["stdout"] += run.stdout
        results["codes"].append(run.returncode)
        if "id" in spec:
            ctx["steps"][spec["id"]] = {"outputs": _outputs(out)}
    results["summary"] = summary.read_text(encoding="utf-8") if summary.exists() else ""
    results["outputs"] = ctx["steps"].get("audit", {}).get("outputs", {})
    return results


_OFFLINE = {"pipeline": "offline", "snapshot": "refs.snapshot.parquet"}


def test_the_workflow_is_three_lines_of_the_action() -> None:
    workflow = yaml.safe_load((ROOT / "pipelines" / "github-workflow.yml").read_text())
    steps = workflow["jobs"]["audit"]["steps"]
    (step,) = [s for s in steps if "auditor@" in s.get("uses", "")]
    assert step["with"] == {"paper": "paper.tex"}
    assert set(_action()["inputs"]) >= {
        "paper", "pipeline", "fail-on", "criteria", "mailto", "snapshot", "cache",
    }  # fmt: skip


def test_a_fabricated_reference_is_annotated_reported_and_fails_the_check(tmp_path: Path) -> None:
    repo = _new_repository(tmp_path, ["lecun2015deep", "zhang2021quantum"])
    got = _run_action(repo, tmp_path, _OFFLINE)
    annotation = re.search(
        r"^::error file=refs\.bib,line=(\d+)[^\n]*zhang2021quantum", got["stdout"], re.M
    )
    assert annotation, got["stdout"]
    assert got["outputs"]["exit-code"] == "1"
    assert got["codes"][-1] == 1  # the last step fails the check, after the upload
    assert (repo / "auditor-report" / "report.html").is_file()
    assert (repo / "auditor-junit.xml").is_file()
    upload = got["uses"]["actions/upload-artifact"]
    assert upload["name"] == "auditor-report" and "auditor-report" in upload["path"].split()
    cache = got["uses"]["actions/cache"]
    assert cache["path"] == str(tmp_path / "runner-temp" / "auditor-cache")
    assert (
        cache["key"].startswith("auditor-cache-Linux-")
        and "auditor-cache-Linux-" in cache["restore-keys"]
    )
    assert "failed the check" in got["summary"]


def test_references_that_resolve_pass_the_check(tmp_path: Path) -> None:
    repo = _new_repository(tmp_path, ["lecun2015deep", "he2016resnet"])
    got = _run_action(repo, tmp_path, _OFFLINE)
    assert got["outputs"]["exit-code"] == "0", got["stdout"]
    assert got["codes"][-1] == 0
    assert "::error" not in got["stdout"]


def test_without_the_cache_input_no_cache_is_kept(tmp_path: Path) -> None:
    repo = _new_repository(tmp_path, ["lecun2015deep"])
    got = _run_action(repo, tmp_path, {**_OFFLINE, "cache": "false"})
    assert "actions/cache" not in got["uses"]


@pytest.mark.parametrize("hostile", ['paper.tex"; touch pwned; echo "', "$(touch pwned)"])
def test_an_input_is_a_value_never_shell_text(tmp_path: Path, hostile: str) -> None:
    repo = _new_repository(tmp_path, ["lecun2015deep"])
    got = _run_action(repo, tmp_path, {**_OFFLINE, "paper": hostile})
    assert not (repo / "pwned").exists()
    assert got["outputs"]["exit-code"] == "2"
