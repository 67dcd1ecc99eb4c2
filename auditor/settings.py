"""One frozen `Settings`, resolved as defaults < config file < `AUDITOR_*` env < flags.

The config file is the first of: `--config PATH`; `auditor.toml` beside the first input file;
`auditor.toml` in the working directory; `[tool.auditor]` of `pyproject.toml` in the working
directory. Every setting has a config key (its field name), an environment variable
(`AUDITOR_` + upper-cased name, except the criteria's leg switches `PMID_LEG`, `DOI_LEG`,
`ARXIV_LEG`) and a flag (`--` + name with dashes). Relative paths in a config file are taken
relative to that file, so a project file can name the snapshot that ships beside it.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from auditor.errors import ConfigError
from auditor.settings_check import check_settings
from auditor.vocabulary import CRITERIA_IDS, DEFAULT_CRITERIA

#: Settings whose values are filesystem paths (resolved against the config file's folder).
_PATH_KEYS = frozenset({"cache_dir", "snapshots", "journal_map", "out", "signing_key"})

#: Environment names that the criteria fix, not `AUDITOR_*`.
_ENV_OVERRIDES = {"pmid_leg": "PMID_LEG", "doi_leg": "DOI_LEG", "arxiv_leg": "ARXIV_LEG"}


def _default_cache_dir() -> str:
    from platformdirs import user_cache_dir

    return user_cache_dir("auditor")


def _default_signing_key() -> str:
    from platformdirs import user_config_dir

    return str(Path(user_config_dir("auditor")) / "signing_key.pem")


@dataclass(frozen=True)
class Settings:
    """Every knob of a run. Field names are the config keys."""

    # register base URLs: a configured base URL is trusted by the redirect policy
    crossref_url: str = "https://api.crossref.org"
    datacite_url: str = "https://api.datacite.org"
    eutils_url: str = "https://eutils.ncbi.nlm.nih.gov/entrez/eutils"
    arxiv_url: str = "https://export.arxiv.org"
    doi_url: str = "https://doi.org"
    handle_url: str = "https://hdl.handle.net"
    dblp_url: str = "https://dblp.org"
    s2_url: str = "https://api.semanticscholar.org"
    # identification toward registers
    mailto: str | None = None
    ncbi_email: str | None = None
    ncbi_api_key: str | None = None
    s2_api_key: str | None = None
    # legs (criteria D1 rule: each closable on its own)
    pmid_leg: bool = True
    doi_leg: bool = True
    arxiv_leg: bool = True
    # source tiers
    snapshots: tuple[str, ...] = ()
    cache_dir: str = field(default_factory=_default_cache_dir)
    cache_ttl_days: float = 30.0
    refresh: bool = False
    offline: bool = False
    # title search
    search_unresolved: bool = False  # also search the titles of ids that do not resolve
    # transport
    timeout: float = 10.0
    max_retries: int = 4
    # Seconds each register host may lose to failed attempts and retry waits per register batch
    # (one stage's requests; `Net.retry_batch`): past it that host is not retried, so
    # `Retry-After: 29` or a trickling body on every answer costs about this, not hours.
    retry_budget: float = 60.0
    max_body_bytes: int = 8 * 1024 * 1024
    crossref_batch_size: int = 20
    batching: bool = True
    ncbi_rate: float = 3.0
    crossref_rate: float = 0.0  # requests/s; 0 = 10 with a mailto, 5 without
    crossref_concurrency: int = 5
    datacite_rate: float = 5.0
    datacite_batch_size: int = 50
    arxiv_rate: float = 1 / 3  # arXiv asks for one request every three seconds
    doi_rate: float = 5.0
    handle_rate: float = 5.0
    dblp_rate: float = 1.0  # DBLP asks for about one request a second
    s2_rate: float = 1.0  # Semantic Scholar's pace without a key
    # chinese waterfall
    journal_map: str | None = None
    doira_batch_size: int = 20
    # input
    encoding: str | None = None
    # comparison: which criteria document decides the verdicts (see `auditor criteria`)
    criteria: str = DEFAULT_CRITERIA
    # Worker processes (one per core beside this one) for the title rule of a large compare
    # (100k rows or more): opt-in, since they compete with everything else on the machine.
    title_workers: bool = False
    # policy and output
    fail_on: tuple[str, ...] = ()
    fail_on_unchecked: bool = False
    out: str | None = None
    # signed reports and `auditor serve`
    signing_key: str = field(default_factory=_default_signing_key)
    precheck_interval: float = 5.0  # seconds between two /precheck calls of one caller
    precheck_daily: int = 100  # /precheck calls per caller per UTC day
    caller_concurrency: int = 8  # register lookups in flight per caller
    upload_max_bytes: int = 5 * 1024 * 1024  # largest bibliography the upload page takes


_FIELDS = {f.name: f for f in fields(Settings)}


def _coerce(name: str, value: Any, origin: str) -> Any:
    """Turn a config/env/flag value into the field's type, or raise `ConfigError` naming it."""
    default = getattr(Settings(), name) if name not in ("cache_dir", "signing_key") else ""
    try:
        if isinstance(default, bool):
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off"}:
                return False
            raise ValueError(value)
        if isinstance(default, tuple):
            if isinstance(value, str):
                return tuple(v.strip() for v in value.split(",") if v.strip())
            return tuple(str(v) for v in value)
        if isinstance(default, int):
            return int(value)
        if isinstance(default, float):
            return float(value)
        return None if value is None else str(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{origin}: {name} cannot be {value!r}") from None


def env_name(name: str) -> str:
    """The environment variable that sets `name`."""
    return _ENV_OVERRIDES.get(name, f"AUDITOR_{name.upper()}")


def find_config(
    explicit: str | None, inputs: Sequence[str] = ()
) -> tuple[Path, dict[str, Any]] | None:
    """Locate and parse the config file; `None` when there is none. Raises `ConfigError`."""
    candidates: list[tuple[Path, bool]] = []
    if explicit:
        candidates.append((Path(explicit), True))
    else:
        if inputs:
            candidates.append((Path(inputs[0]).resolve().parent / "auditor.toml", False))
        candidates.append((Path.cwd() / "auditor.toml", False))
        candidates.append((Path.cwd() / "pyproject.toml", False))
    for path, required in candidates:
        if not path.is_file():
            if required:
                raise ConfigError(f"config file not found: {path}")
            continue
        data = _read_toml(path)
        if path.name == "pyproject.toml":
            data = data.get("tool", {}).get("auditor")
            if data is None:
                continue
        return path, data
    return None


#: The config file's sections and the settings each holds (as `auditor.example.toml` lays them
#: out). A key outside its section is a `ConfigError`, so `[legs] timeout = 3` is refused.
SECTIONS: dict[str, frozenset[str]] = {
    "registers": frozenset(
        {name for name in _FIELDS if name.endswith("_url")}
        | {"mailto", "ncbi_email", "ncbi_api_key", "s2_api_key"}
    ),
    "legs": frozenset({"pmid_leg", "doi_leg", "arxiv_leg"}),
    "tiers": frozenset({"snapshots", "cache_dir", "cache_ttl_days", "refresh", "offline"}),
    "search": frozenset({"search_unresolved"}),
    "transport": frozenset(
        {name for name in _FIELDS if name.endswith("_rate")}
        | {"timeout", "max_retries", "retry_budget", "max_body_bytes", "batching"}
        | {"crossref_batch_size", "crossref_concurrency", "datacite_batch_size"}
    ),
    "chinese": frozenset({"doira_batch_size", "journal_map"}),
    "input": frozenset({"encoding"}),
    "compare": frozenset({"criteria"}),
    "policy": frozenset({"fail_on", "fail_on_unchecked"}),
    "output": frozenset({"out"}),
    "serve": frozenset(
        {"signing_key", "precheck_interval", "precheck_daily", "caller_concurrency"}
        | {"upload_max_bytes"}
    ),
}

#: `[registers.<name>]`: one register's settings under their short names (`url`, `rate`, …),
#: named by the prefix its settings share (`crossref_url`, `crossref_rate` → `crossref`).
REGISTER_PREFIXES = frozenset(
    name.removesuffix("_url") for name in SECTIONS["registers"] if name.endswith("_url")
)


def _setting(key: str, section: str, origin: str) -> str:
    """The field `key` names inside `[section]` (`""` = top level), or a `ConfigError`."""
    name = key.replace("-", "_")
    _, _, register = section.partition(".")
    if register:
        # `[registers.crossref] url` or, as written at the top level, `crossref_url`.
        for candidate in (f"{register}_{name}", name):
            if candidate in _FIELDS and candidate.startswith(f"{register}_"):
                return candidate
    elif name in _FIELDS and (not section or name in SECTIONS[section]):
        return name
    where = f" in [{section}]" if section else ""
    home = next((f" (it belongs in [{s}])" for s, keys in SECTIONS.items() if name in keys), "")
    raise ConfigError(f"{origin}: unknown setting {key!r}{where}{home}")


def _flatten(data: Mapping[str, Any], origin: str, section: str = "") -> dict[str, Any]:
    """Top-level keys, the sections of `SECTIONS` holding their own keys, and
    `[registers.<name>]` holding one register's; anything else is a `ConfigError`."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, Mapping):
            flat.update(_flatten(value, origin, _section(section, key, origin)))
        else:
            flat[_setting(key, section, origin)] = value
    return flat


def _section(parent: str, key: str, origin: str) -> str:
    """The name of section `key` under `parent`, or a `ConfigError` for one we do not have."""
    if not parent and key in SECTIONS:
        return key
    if parent == "registers" and key in REGISTER_PREFIXES:
        return f"registers.{key}"
    known = ", ".join(sorted(SECTIONS) + [f"registers.{p}" for p in sorted(REGISTER_PREFIXES)])
    name = f"{parent}.{key}" if parent else key
    raise ConfigError(f"{origin}: unknown section [{name}] (known: {known})")


def find_pipeline(name: str) -> Path:
    """A profile: a TOML path, or a name in `./pipelines/` or the bundled `auditor/pipelines/`.

    The repository's `pipelines/` is a link to the bundled folder, so the profiles a user reads
    there are the ones an installed `auditor` ships.
    """
    path = Path(name)
    if path.suffix == ".toml" or path.is_file():
        if path.is_file():
            return path
        raise ConfigError(f"pipeline file not found: {path}")
    for folder in (Path.cwd() / "pipelines", Path(__file__).resolve().parent / "pipelines"):
        candidate = folder / f"{name}.toml"
        if candidate.is_file():
            return candidate
    raise ConfigError(f"unknown pipeline {name!r}: no pipelines/{name}.toml")


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None


def load_settings(
    flags: Mapping[str, Any] | None = None,
    *,
    config: str | None = None,
    pipeline: str | None = None,
    inputs: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
) -> Settings:
    """Resolve `Settings` from all sources; `flags` holds only the flags the user gave.

    Layers, later wins: defaults, the config file, the `--pipeline` profile, `AUDITOR_*`
    environment, flags. The result is checked by `settings_check.check_settings`. Raises
    `ConfigError` naming the file, variable or flag at fault.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}
    layers: list[tuple[Path, dict[str, Any]]] = []
    found = find_config(config, inputs)
    if found:
        layers.append(found)
    if pipeline:
        profile = find_pipeline(pipeline)
        layers.append((profile, _read_toml(profile)))
    for path, data in layers:
        for name, value in _flatten(data, str(path)).items():
            value = _coerce(name, value, str(path))
            if name in _PATH_KEYS and value:
                base = path.parent
                if isinstance(value, tuple):
                    value = tuple(str((base / v).resolve()) for v in value)
                else:
                    value = str((base / value).resolve())
            values[name] = value
            origins[name] = str(path)
    for name in _FIELDS:
        raw = environ.get(env_name(name))
        if raw is not None and raw != "":
            values[name] = _coerce(name, raw, env_name(name))
            origins[name] = env_name(name)
    for name, value in (flags or {}).items():
        if name not in _FIELDS:
            raise ConfigError(f"unknown flag --{name.replace('_', '-')}")
        if value is None or value == ():
            continue
        values[name] = _coerce(name, value, f"--{name.replace('_', '-')}")
        origins[name] = f"--{name.replace('_', '-')}"
    settings = dataclasses.replace(Settings(), **values)
    _check_criteria(settings.criteria)
    check_settings({f: getattr(settings, f) for f in _FIELDS}, origins)
    return settings


def _check_criteria(criteria: str) -> None:
    if criteria not in CRITERIA_IDS:
        known = ", ".join(CRITERIA_IDS)
        raise ConfigError(f"unknown criteria {criteria!r} (known: {known})")
