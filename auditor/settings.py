"""One frozen `Settings`, resolved as defaults < config file < `AUDITOR_*` env < flags.

The config file is the first of: `--config PATH`; `auditor.toml` beside the first input file;
`auditor.toml` in the working directory; `[tool.auditor]` of `pyproject.toml` in the working
directory. Every setting has a config key (its field name), an environment variable
(`AUDITOR_` + upper-cased name, except the criteria's leg switches `PMID_LEG`, `DOI_LEG`,
`ARXIV_LEG`) and a flag (`--` + name with dashes). Relative paths in a config file are taken
relative to that file, so a project file can name the snapshot that ships beside it.

Each register's own settings (base URL, pace, batch size) are its `RegisterSettings`
(`register_settings.py`), held in `Settings.registers` by register host name; `load_settings` is
handed the registers' defaults by its caller, so this module names no register.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from auditor import register_settings
from auditor.config_file import find_config, read_toml
from auditor.errors import ConfigError
from auditor.register_settings import RegisterSettings
from auditor.settings_check import NAMED_RULES, check_settings
from auditor.vocabulary import CRITERIA_IDS, DEFAULT_CRITERIA

#: Settings whose values are filesystem paths (resolved against the config file's folder).
_PATH_KEYS = frozenset(
    {"cache_dir", "snapshots", "journal_map", "out", "signing_key", "serve_tokens"}
)

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

    # each register's own settings (`RegisterSettings`), by register host name; a register
    # missing here runs with the defaults its `Host` declares
    registers: Mapping[str, RegisterSettings] = field(default_factory=dict, hash=False)
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
    search_fast_pace: float = 3.0  # req/s from which an index is asked at once (search/plan.py)
    # transport
    timeout: float = 10.0
    max_retries: int = 4
    # Seconds each register host may lose to failed attempts and retry waits per register batch
    # (one stage's requests; `Net.retry_batch`): past it that host is not retried, so
    # `Retry-After: 29` or a trickling body on every answer costs about this, not hours.
    retry_budget: float = 60.0
    max_body_bytes: int = 8 * 1024 * 1024
    batching: bool = True
    # chinese waterfall
    # Off: a DOI is decided by its register alone, as the reference-check contract fixes
    # (`auditor serve`'s `/check` runs with it off whatever the config says).
    chinese_waterfall: bool = True
    journal_map: str | None = None
    # input
    encoding: str | None = None
    grobid_url: str | None = None  # a GROBID server that reads PDFs (else the built-in reader)
    # what one document may cost to read (`auditor.load.documents.limits`)
    document_max_inflated_bytes: int = 64 * 1024 * 1024
    document_max_xml_depth: int = 1_000
    document_max_fields: int = 50_000
    pdf_max_pages: int = 2_000
    pdf_max_page_points: float = 14_400.0
    pdf_max_page_chars: int = 200_000
    pdf_max_content_bytes: int = 32 * 1024 * 1024
    pdf_max_memory_bytes: int = 2 * 1024 * 1024 * 1024
    pdf_max_seconds: float = 120.0
    # what one dump file may cost to import (`auditor.dumps.limits`)
    import_max_inflated_bytes: int = 32 * 1024 * 1024 * 1024
    import_max_line_bytes: int = 16 * 1024 * 1024
    import_max_json_depth: int = 200
    import_max_xml_depth: int = 200
    # comparison: which criteria document decides the verdicts (see `auditor criteria`)
    criteria: str = DEFAULT_CRITERIA
    # Worker processes (one per core beside this one) for the title rule of a compare of 100k
    # rows or more: opt-in, since they compete with everything else on the machine.
    title_workers: bool = False
    # where the stages run (`auditor audit`): "local" (this process) or "dask" (partitions on a
    # Dask cluster: `scheduler`'s address, else a local cluster of `workers` processes of
    # `threads` threads each; Dask's own `scheduler-address` config still counts)
    engine: str = "local"
    scheduler: str = ""  # empty: none
    partition_rows: int = 100_000  # rows of one cluster task (Parquet: whole row groups)
    workers: int = 2
    threads: int = 1
    fail_on: tuple[str, ...] = ()  # policy and output
    fail_on_unchecked: bool = False
    out: str | None = None
    report: tuple[str, ...] = ()  # `report.choice.REPORTS` names; empty: sized to the run
    # signed reports and `auditor serve`
    signing_key: str = field(default_factory=_default_signing_key)
    precheck_interval: float = 5.0  # seconds between two /precheck calls of one caller
    precheck_daily: int = 100  # /precheck calls per caller per UTC day
    caller_concurrency: int = 8  # register lookups in flight per caller
    upload_max_bytes: int = 5 * 1024 * 1024  # largest bibliography the upload page takes
    # who `auditor serve` answers (see `auditor.serve.guard`)
    allow_host: tuple[str, ...] = ()  # Host names answered besides the bound address, localhost
    allow_origin: tuple[str, ...] = ()  # web origins allowed to call (and given CORS headers)
    serve_tokens: str | None = None  # file of bearer tokens; required beyond loopback
    check_daily: int = 1000  # /check calls per client (address or token) per UTC day
    client_timeout: float = 10.0  # seconds a client may take to send a request's head or body
    client_connections: int = 16  # open connections per client address
    client_queue: int = 4  # requests of one client in flight at once; more get 429


#: The flat settings (every field but `registers`), by name.
_FIELDS = {f.name: f for f in fields(Settings) if f.name != "registers"}


def _default(name: str, registers: Mapping[str, RegisterSettings]) -> Any:
    """The default of flat setting `name` (a `Settings` field or a register's flat name)."""
    if name in ("cache_dir", "signing_key"):
        return ""
    if name in _FIELDS:
        return getattr(Settings(), name)
    register, field_name = register_settings.flat_names(registers)[name]
    return getattr(registers[register], field_name)


def _coerce(default: Any, name: str, value: Any, origin: str) -> Any:
    """Turn a config/env/flag value into the type of `default`, or raise `ConfigError`."""
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


#: The config file's sections and the settings each holds (as `auditor.example.toml` lays them
#: out). A key outside its section is a `ConfigError`, so `[legs] timeout = 3` is refused.
SECTIONS: dict[str, frozenset[str]] = {
    "registers": frozenset({"mailto", "ncbi_email", "ncbi_api_key", "s2_api_key"}),
    "legs": frozenset({"pmid_leg", "doi_leg", "arxiv_leg"}),
    "tiers": frozenset({"snapshots", "cache_dir", "cache_ttl_days", "refresh", "offline"}),
    "search": frozenset({"search_unresolved", "search_fast_pace"}),
    "transport": frozenset(
        {"timeout", "max_retries", "retry_budget", "max_body_bytes", "batching"}
    ),
    "chinese": frozenset({"chinese_waterfall", "journal_map"}),
    "input": frozenset(
        {"encoding", "grobid_url", "document_max_inflated_bytes", "document_max_xml_depth"}
        | {"document_max_fields", "pdf_max_pages", "pdf_max_page_points", "pdf_max_page_chars"}
        | {"pdf_max_content_bytes", "pdf_max_memory_bytes", "pdf_max_seconds"}
        | {"import_max_inflated_bytes", "import_max_line_bytes", "import_max_json_depth"}
        | {"import_max_xml_depth"}
    ),
    "compare": frozenset({"criteria", "title_workers"}),
    "cluster": frozenset({"engine", "scheduler", "partition_rows", "workers", "threads"}),
    "policy": frozenset({"fail_on", "fail_on_unchecked"}),
    "output": frozenset({"out", "report"}),
    "serve": frozenset(
        {"signing_key", "precheck_interval", "precheck_daily", "caller_concurrency"}
        | {"upload_max_bytes", "allow_host", "allow_origin", "serve_tokens", "check_daily"}
        | {"client_timeout", "client_connections", "client_queue"}
    ),
}

#: Sections where a register's flat name (`crossref_url`, `ncbi_rate`, `doira_batch_size`) is
#: read as well as at the top level: where earlier example files put them.
_FLAT_REGISTER_SECTIONS = frozenset({"registers", "transport", "chinese"})


@dataclass(frozen=True)
class _Names:
    """The names one `load_settings` call accepts: the fields, and the registers' flat names."""

    registers: Mapping[str, RegisterSettings]
    flat: Mapping[str, tuple[str, str]]
    """Register flat name (aliases included) → (register, field)."""

    def canonical(self, name: str) -> str:
        """`eutils_url` → `ncbi_url`; a `Settings` field as it is."""
        return register_settings.canonical(*self.flat[name]) if name in self.flat else name

    def setting(self, key: str, section: str, origin: str) -> str:
        """The flat name `key` means inside `[section]` (`""` = top level), or a `ConfigError`."""
        name = key.replace("-", "_")
        _, _, register = section.partition(".")
        if register:
            # `[registers.crossref] url`, or as written at the top level, `crossref_url`.
            for candidate in (register_settings.canonical(register, name), name):
                if self.flat.get(candidate, ("",))[0] == register:
                    return self.canonical(candidate)
        elif name in _FIELDS and (not section or name in SECTIONS[section]):
            return name
        elif name in self.flat and (not section or section in _FLAT_REGISTER_SECTIONS):
            return self.canonical(name)
        where = f" in [{section}]" if section else ""
        home = next((f" (it belongs in [{s}])" for s, keys in SECTIONS.items() if name in keys), "")
        raise ConfigError(f"{origin}: unknown setting {key!r}{where}{home}")

    def section(self, parent: str, key: str, origin: str) -> str:
        """The name of section `key` under `parent`, or a `ConfigError` for one we lack."""
        if not parent and key in SECTIONS:
            return key
        if parent == "registers" and key in self.registers:
            return f"registers.{key}"
        known = ", ".join([*sorted(SECTIONS), *(f"registers.{r}" for r in sorted(self.registers))])
        name = f"{parent}.{key}" if parent else key
        raise ConfigError(f"{origin}: unknown section [{name}] (known: {known})")

    def flatten(self, data: Mapping[str, Any], origin: str, section: str = "") -> dict[str, Any]:
        """Top-level keys, the sections of `SECTIONS` holding their own keys, and
        `[registers.<name>]` holding one register's; anything else is a `ConfigError`."""
        flat: dict[str, Any] = {}
        for key, value in data.items():
            if isinstance(value, Mapping):
                flat.update(self.flatten(value, origin, self.section(section, key, origin)))
            else:
                flat[self.setting(key, section, origin)] = value
        return flat

    def environment(self) -> dict[str, str]:
        """Every environment variable read, and the flat name it sets."""
        out = {env_name(name): name for name in _FIELDS}
        # Aliases first, so `AUDITOR_NCBI_URL` wins over the older `AUDITOR_EUTILS_URL`.
        for name in sorted(self.flat, key=lambda n: self.canonical(n) == n):
            out[env_name(name)] = self.canonical(name)
        return out


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


def load_settings(
    flags: Mapping[str, Any] | None,
    *,
    config: str | None = None,
    pipeline: str | None = None,
    inputs: Sequence[str] = (),
    environ: Mapping[str, str] | None = None,
    registers: Mapping[str, RegisterSettings],
) -> Settings:
    """Resolve `Settings` from all sources; `flags` holds only the flags the user gave.

    Layers, later wins: defaults, the config file, the `--pipeline` profile, `AUDITOR_*`
    environment, flags. `registers` are the registers' defaults by host name
    (`registry.settings_defaults()`): their settings are read under their names, and every one
    of them is in the result. The result is checked by `settings_check.check_settings`. Raises
    `ConfigError` naming the file, variable or flag at fault.
    """
    environ = os.environ if environ is None else environ
    names = _Names(registers, register_settings.flat_names(registers))
    values: dict[str, Any] = {}
    origins: dict[str, str] = {}

    def put(name: str, value: Any, origin: str) -> None:
        values[name] = _coerce(_default(name, names.registers), name, value, origin)
        origins[name] = origin

    for path, data in _layers(config, pipeline, inputs):
        for name, value in names.flatten(data, str(path)).items():
            put(name, value, str(path))
            if name in _PATH_KEYS and values[name]:
                values[name] = _resolved(values[name], path.parent)
    for variable, name in names.environment().items():
        raw = environ.get(variable)
        if raw is not None and raw != "":
            put(name, raw, variable)
    for name, value in (flags or {}).items():
        if name not in _FIELDS and name not in names.flat:
            raise ConfigError(f"unknown flag --{name.replace('_', '-')}")
        if value is not None and value != ():
            put(names.canonical(name), value, f"--{name.replace('_', '-')}")
    flat = {n: v for n, v in values.items() if n in _FIELDS}
    own = register_settings.apply(
        names.registers, {n: v for n, v in values.items() if n not in _FIELDS}
    )
    settings = dataclasses.replace(Settings(), registers=own, **flat)
    _check_criteria(settings.criteria)
    checked = {f: getattr(settings, f) for f in _FIELDS} | register_settings.flat_values(own)
    rules = {n: NAMED_RULES[r] for n, r in register_settings.flat_rules(own).items()}
    check_settings(checked, origins, rules)
    return settings


def _layers(
    config: str | None, pipeline: str | None, inputs: Sequence[str]
) -> list[tuple[Path, dict[str, Any]]]:
    """The config file and the `--pipeline` profile, in the order they apply."""
    layers: list[tuple[Path, dict[str, Any]]] = []
    found = find_config(config, inputs)
    if found:
        layers.append(found)
    if pipeline:
        profile = find_pipeline(pipeline)
        layers.append((profile, read_toml(profile)))
    return layers


def _resolved(value: Any, base: Path) -> Any:
    """A path setting (or tuple of them) taken relative to the config file's folder `base`."""
    if isinstance(value, tuple):
        return tuple(str((base / v).resolve()) for v in value)
    return str((base / value).resolve())


def settings_with(registers: Mapping[str, RegisterSettings], **values: Any) -> Settings:
    """A `Settings` from typed flat values, register flat names included (`crossref_url=…`,
    `ncbi_rate=…`), over the registers' defaults `registers`; `KeyError` for an unknown name.

    For code and tests that build settings directly; a run's settings come from `load_settings`.
    """
    names = register_settings.flat_names(registers)
    own = {n: v for n, v in values.items() if n not in _FIELDS}
    unknown = [n for n in own if n not in names]
    if unknown:
        raise KeyError(unknown[0])
    flat = {n: v for n, v in values.items() if n in _FIELDS}
    return Settings(registers=register_settings.apply(registers, own), **flat)


def _check_criteria(criteria: str) -> None:
    if criteria not in CRITERIA_IDS:
        known = ", ".join(CRITERIA_IDS)
        raise ConfigError(f"unknown criteria {criteria!r} (known: {known})")
