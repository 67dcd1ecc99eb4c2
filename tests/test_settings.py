"""Settings precedence: defaults < config file < pipeline profile < env < flags."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from auditor.errors import ConfigError
from auditor.settings import Settings, env_name, load_settings

MP = pytest.MonkeyPatch


def test_defaults_without_any_source(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load_settings({}, environ={})
    assert settings.crossref_url == "https://api.crossref.org"
    assert settings.pmid_leg and settings.doi_leg and settings.arxiv_leg
    assert settings.offline is False


def test_layers_apply_in_order(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auditor.toml").write_text('timeout = 3.0\nmax_retries = 1\nmailto = "a@x.org"\n')
    profile = tmp_path / "p.toml"
    profile.write_text("max_retries = 2\noffline = true\n")
    env = {"AUDITOR_MAX_RETRIES": "5", "AUDITOR_MAILTO": "env@x.org"}
    settings = load_settings({"mailto": "flag@x.org"}, pipeline=str(profile), environ=env)
    assert settings.timeout == 3.0  # config file
    assert settings.offline is True  # profile
    assert settings.max_retries == 5  # env beats profile and file
    assert settings.mailto == "flag@x.org"  # flag beats env


def test_leg_switches_use_the_criteria_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert env_name("pmid_leg") == "PMID_LEG"
    settings = load_settings({}, environ={"PMID_LEG": "off", "ARXIV_LEG": "on"})
    assert settings.pmid_leg is False and settings.arxiv_leg is True


def test_paths_in_a_config_file_are_relative_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "auditor.toml").write_text('snapshots = ["snap.parquet"]\n')
    bib = project / "refs.bib"
    bib.write_text("")
    monkeypatch.chdir(tmp_path)
    settings = load_settings({}, inputs=[str(bib)], environ={})
    assert settings.snapshots == (str((project / "snap.parquet").resolve()),)


def test_pyproject_tool_section(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.auditor]\ncrossref_batch_size = 7\n")
    assert load_settings({}, environ={}).crossref_batch_size == 7


@pytest.mark.parametrize(
    ("flags", "environ", "config", "needle"),
    [
        ({"timeout": "soon"}, {}, None, "--timeout"),
        ({}, {"AUDITOR_OFFLINE": "maybe"}, None, "AUDITOR_OFFLINE"),
        ({}, {}, "nope = 1\n", "unknown setting 'nope'"),
        ({}, {}, "timeout = [\n", "auditor.toml"),
    ],
)
def test_bad_values_name_their_source(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    flags: dict[str, object],
    environ: dict[str, str],
    config: str | None,
    needle: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    if config is not None:
        (tmp_path / "auditor.toml").write_text(config)
    with pytest.raises(ConfigError, match=needle):
        load_settings(flags, environ=environ)


def test_unknown_pipeline_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="unknown pipeline"):
        load_settings({}, pipeline="no-such-profile", environ={})


def test_settings_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Settings().offline = True  # type: ignore[misc]


@pytest.mark.parametrize(
    ("config", "needle"),
    [
        (
            "[legs]\ntimeout = 3\n",
            r"unknown setting 'timeout' in \[legs\] \(it belongs in \[transport\]\)",
        ),
        ("[nope]\ntimeout = 3\n", r"unknown section \[nope\]"),
        ("[registers.nope]\nurl = 'https://a.org'\n", r"unknown section \[registers.nope\]"),
        (
            "[registers.crossref]\ntimeout = 3\n",
            r"unknown setting 'timeout' in \[registers.crossref\]",
        ),
        ("[legs.deeper]\npmid_leg = false\n", r"unknown section \[legs.deeper\]"),
    ],
)
def test_a_key_outside_its_section_is_a_config_error(
    tmp_path: Path, monkeypatch: MP, config: str, needle: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auditor.toml").write_text(config)
    with pytest.raises(ConfigError, match=needle):
        load_settings({}, environ={})


def test_a_register_section_takes_short_names(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auditor.toml").write_text(
        "[registers.crossref]\nurl = 'https://mirror.example.org'\nrate = 2.0\nbatch_size = 7\n"
        "[registers.eutils]\neutils_url = 'https://ncbi.example.org'\n"
    )
    settings = load_settings({}, environ={})
    assert settings.crossref_url == "https://mirror.example.org"
    assert (settings.crossref_rate, settings.crossref_batch_size) == (2.0, 7)
    assert settings.eutils_url == "https://ncbi.example.org"


def test_every_setting_has_exactly_one_section() -> None:
    from auditor.settings import SECTIONS

    homes = [name for keys in SECTIONS.values() for name in keys]
    assert sorted(homes) == sorted(f.name for f in dataclasses.fields(Settings))
