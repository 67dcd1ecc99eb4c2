"""Settings precedence: defaults < config file < pipeline profile < env < flags."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from auditor.errors import ConfigError
from auditor.registers import registry
from auditor.settings import Settings, env_name, load_settings

MP = pytest.MonkeyPatch


def load(flags: dict[str, Any] | None = None, **kwargs: Any) -> Settings:
    """`load_settings` with the registers' defaults, as the commands call it."""
    return load_settings(flags, registers=registry.settings_defaults(), **kwargs)


def test_defaults_without_any_source(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    settings = load({}, environ={})
    assert settings.registers["crossref"].url == "https://api.crossref.org"
    assert settings.pmid_leg and settings.doi_leg and settings.arxiv_leg
    assert settings.offline is False


def test_layers_apply_in_order(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auditor.toml").write_text('timeout = 3.0\nmax_retries = 1\nmailto = "a@x.org"\n')
    profile = tmp_path / "p.toml"
    profile.write_text("max_retries = 2\noffline = true\n")
    env = {"AUDITOR_MAX_RETRIES": "5", "AUDITOR_MAILTO": "env@x.org"}
    settings = load({"mailto": "flag@x.org"}, pipeline=str(profile), environ=env)
    assert settings.timeout == 3.0  # config file
    assert settings.offline is True  # profile
    assert settings.max_retries == 5  # env beats profile and file
    assert settings.mailto == "flag@x.org"  # flag beats env


def test_leg_switches_use_the_criteria_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert env_name("pmid_leg") == "PMID_LEG"
    settings = load({}, environ={"PMID_LEG": "off", "ARXIV_LEG": "on"})
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
    settings = load({}, inputs=[str(bib)], environ={})
    assert settings.snapshots == (str((project / "snap.parquet").resolve()),)


def test_pyproject_tool_section(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("[tool.auditor]\ncrossref_batch_size = 7\n")
    assert load({}, environ={}).registers["crossref"].batch_size == 7


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
        load(flags, environ=environ)


def test_unknown_pipeline_is_a_config_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="unknown pipeline"):
        load({}, pipeline="no-such-profile", environ={})


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
        load({}, environ={})


def test_a_register_section_takes_short_names(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auditor.toml").write_text(
        "[registers.crossref]\nurl = 'https://mirror.example.org'\nrate = 2.0\nbatch_size = 7\n"
        "[registers.ncbi]\neutils_url = 'https://ncbi.example.org'\n"
    )
    settings = load({}, environ={})
    crossref = settings.registers["crossref"]
    assert (crossref.url, crossref.rate, crossref.batch_size) == (
        "https://mirror.example.org",
        2.0,
        7,
    )
    assert settings.registers["ncbi"].url == "https://ncbi.example.org"


def test_every_setting_has_exactly_one_section() -> None:
    from auditor.settings import SECTIONS

    homes = [name for keys in SECTIONS.values() for name in keys]
    flat = [f.name for f in dataclasses.fields(Settings) if f.name != "registers"]
    assert sorted(homes) == sorted(flat)


def test_a_register_setting_reads_under_every_name(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "auditor.toml").write_text(
        "crossref_url = 'https://top.example.org'\n[transport]\nncbi_rate = 2.0\n"
        "[chinese]\ndoira_batch_size = 7\n"
    )
    settings = load({}, environ={"AUDITOR_DBLP_URL": "https://dblp.example.org"})
    assert settings.registers["crossref"].url == "https://top.example.org"
    assert settings.registers["ncbi"].rate == 2.0
    assert settings.registers["doi"].batch_size == 7
    assert settings.registers["dblp"].url == "https://dblp.example.org"
    flagged = load({"eutils_url": "https://flag.example.org"}, environ={})
    assert flagged.registers["ncbi"].url == "https://flag.example.org"


def test_the_new_environment_name_beats_the_older_alias(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    env = {"AUDITOR_EUTILS_URL": "https://old.example.org", "AUDITOR_NCBI_URL": "https://new.org"}
    assert load({}, environ=env).registers["ncbi"].url == "https://new.org"
    assert load({}, environ={"AUDITOR_EUTILS_URL": "https://old.example.org"}).registers[
        "ncbi"
    ].url == ("https://old.example.org")


def test_a_bad_register_value_names_its_source(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match="AUDITOR_DOI_RATE: doi_rate"):
        load({}, environ={"AUDITOR_DOI_RATE": "-2"})
    with pytest.raises(ConfigError, match="--crossref-url: crossref_url"):
        load({"crossref_url": "ftp://example.org"}, environ={})
    (tmp_path / "auditor.toml").write_text("[registers.s2]\nrate = 'fast'\n")
    with pytest.raises(ConfigError, match="s2_rate cannot be 'fast'"):
        load({}, environ={})


def test_a_register_names_its_own_value_rule(tmp_path: Path, monkeypatch: MP) -> None:
    monkeypatch.chdir(tmp_path)
    # Crossref's rate 0 means "pick by the mailto"; any other register's rate must be positive.
    assert load({}, environ={"AUDITOR_CROSSREF_RATE": "0"}).registers["crossref"].rate == 0.0
    with pytest.raises(ConfigError, match="AUDITOR_DBLP_RATE: dblp_rate must be a positive"):
        load({}, environ={"AUDITOR_DBLP_RATE": "0"})
    with pytest.raises(ConfigError, match="datacite_batch_size must be a positive"):
        load({}, environ={"AUDITOR_DATACITE_BATCH_SIZE": "0"})
