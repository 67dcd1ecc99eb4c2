"""The profiles and CI recipes in `pipelines/` load and say what they promise."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from auditor.policy import parse_fail_on
from auditor.registers import registry
from auditor.settings import load_settings

ROOT = Path(__file__).resolve().parent.parent
PIPELINES = ROOT / "pipelines"


@pytest.mark.parametrize("name", ["thesis", "editor", "ci", "offline"])
def test_profile_loads_and_its_fail_on_parses(name: str) -> None:
    settings = load_settings(
        {},
        pipeline=str(PIPELINES / f"{name}.toml"),
        environ={},
        registers=registry.settings_defaults(),
    )
    parse_fail_on(settings.fail_on)


def test_ci_profile_fails_on_the_documented_rule() -> None:
    settings = load_settings(
        {}, pipeline=str(PIPELINES / "ci.toml"), environ={}, registers=registry.settings_defaults()
    )
    assert settings.fail_on == (
        "DOES-NOT-RESOLVE",
        "RESOLVES-BUT-DIFFERS",
        "NOT FOUND",
        "P0",
        "missing_entry",
    )
    assert settings.fail_on_unchecked is False


def test_offline_profile_is_offline_and_flags_still_win() -> None:
    path = str(PIPELINES / "offline.toml")
    assert (
        load_settings({}, pipeline=path, environ={}, registers=registry.settings_defaults()).offline
        is True
    )
    assert (
        load_settings(
            {"offline": False}, pipeline=path, environ={}, registers=registry.settings_defaults()
        ).offline
        is False
    )


def test_pre_commit_hooks_file_is_the_pipelines_copy_and_valid() -> None:
    root_copy = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert root_copy == (PIPELINES / "pre-commit-hooks.yaml").read_text(encoding="utf-8")
    hooks = yaml.safe_load(root_copy)
    assert {hook["id"] for hook in hooks} == {
        "auditor",
        "auditor-online",
        "auditor-offline",
        "auditor-manuscript",
    }
    for hook in hooks:
        assert hook["entry"].startswith("auditor audit ")
        assert hook["language"] == "python"
        # a commit never waits on the network unless the hook says so by its name (#38 item 2)
        online = hook["id"] == "auditor-online"
        assert ("--online" in hook["entry"].split()) is online
        assert ("--offline" in hook["entry"].split()) is not online
        assert re.search(hook["files"], "paper.qmd") and re.search(hook["files"], "refs.bib")
        # The manuscript hook names its manuscript in `args`; changed chapters are not inputs.
        assert hook["pass_filenames"] is (hook["id"] != "auditor-manuscript")


def test_the_action_caches_the_auditor_cache_dir() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    steps = action["runs"]["steps"]
    cache = next(s for s in steps if str(s.get("uses", "")).startswith("actions/cache"))
    audit = next(s for s in steps if s.get("id") == "audit")
    assert cache["with"]["path"] == audit["env"]["AUDITOR_CACHE_DIR"]
    assert "github" in audit["run"] or "audit.sh" in audit["run"]
    script = (ROOT / "action" / "audit.sh").read_text(encoding="utf-8")
    assert "--output-format github" in script and "--junit" in script
