"""The one place a resolved `Settings` is checked, before any work starts.

`load_settings` calls `check_settings` with the source of every value (a flag, an `AUDITOR_*`
variable, a config file), so a bad value is a `ConfigError` (exit 2) naming the setting and where
it came from, instead of a traceback later (`--ncbi-rate 0`), a silent misbehaviour
(`--timeout -1`, `--max-retries -3`) or an injected header (a CR/LF in `--mailto`).
"""

from __future__ import annotations

import codecs
import math
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from auditor.errors import ConfigError

#: Seconds: a longer per-request timeout is a typo, and would overflow timers far enough out.
MAX_TIMEOUT = 3600.0

Rule = Callable[[Any], str | None]
"""Returns why a value is wrong, or `None` when it is fine."""


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def positive(value: Any) -> str | None:
    """A positive finite number."""
    if not _number(value) or not math.isfinite(value) or value <= 0:
        return "must be a positive finite number"
    return None


def non_negative(value: Any) -> str | None:
    """Zero or a positive finite number."""
    if not _number(value) or not math.isfinite(value) or value < 0:
        return "must be a finite number, zero or more"
    return None


def timeout(value: Any) -> str | None:
    """A positive finite number of seconds up to `MAX_TIMEOUT`."""
    why = positive(value)
    if why is None and value > MAX_TIMEOUT:
        return f"must be at most {MAX_TIMEOUT:g} seconds"
    return why


def http_url(value: Any) -> str | None:
    """An absolute http(s) URL with a host and nothing a request line could be split on."""
    if not isinstance(value, str) or _unsafe_text(value) or " " in value:
        return "must be an http(s) URL without spaces or control characters"
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 - raises ValueError for a bad port
    except ValueError:
        return "must be an http(s) URL"
    if parts.scheme.lower() not in {"http", "https"} or not parts.hostname:
        return "must be an http(s) URL with a host (https://host/path)"
    return None


def _unsafe_text(text: str) -> bool:
    return any(ord(c) < 0x20 or ord(c) == 0x7F for c in text)


def header_safe(value: Any) -> str | None:
    """Text that can go into an HTTP header or query: no CR, LF or other control characters."""
    if value is None:
        return None
    if not isinstance(value, str) or _unsafe_text(value):
        return "must not contain line breaks or control characters"
    return None


def text_encoding(value: Any) -> str | None:
    """A codec that decodes bytes to text (`rot13` is a codec, but not one of those)."""
    if value is None:
        return None
    try:
        codecs.lookup(value)
        b"a".decode(value)
    except (LookupError, TypeError, ValueError):
        return "must be a known text encoding (utf-8, latin-1, utf-16, …)"
    return None


def out_folder(value: Any) -> str | None:
    """A folder, or a path whose nearest existing ancestor is a writable folder."""
    if value is None:
        return None
    path = Path(value)
    if path.exists():
        if not path.is_dir():
            return "must be a folder, not a file"
        return None if os.access(path, os.W_OK | os.X_OK) else "is a folder we cannot write"
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        return f"cannot be created: {parent} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot be created: {parent} is not writable"
    return None


#: Every checked setting and its rule; a setting not named here has no constraint beyond its type.
def engine_name(value: Any) -> str | None:
    """`local` or `dask` (`auditor audit`'s engines)."""
    return None if value in ("local", "dask") else "must be local or dask"


RULES: dict[str, Rule] = {
    "timeout": timeout,
    "max_retries": non_negative,
    "retry_budget": non_negative,
    "cache_ttl_days": non_negative,
    "search_fast_pace": non_negative,
    "max_body_bytes": positive,
    "precheck_interval": positive,
    "precheck_daily": positive,
    "caller_concurrency": positive,
    "upload_max_bytes": positive,
    "check_daily": positive,
    "client_timeout": positive,
    "client_connections": positive,
    "client_queue": positive,
    "encoding": text_encoding,
    "out": out_folder,
    # optional: no GROBID unless a URL is given
    "grobid_url": lambda value: None if value is None else http_url(value),
    "engine": engine_name,
    "document_max_inflated_bytes": positive,
    "document_max_xml_depth": positive,
    "document_max_fields": positive,
    "pdf_max_pages": positive,
    "pdf_max_page_points": positive,
    "pdf_max_page_chars": positive,
    "pdf_max_content_bytes": positive,
    "pdf_max_memory_bytes": positive,
    "pdf_max_seconds": positive,
    "import_max_inflated_bytes": positive,
    "import_max_line_bytes": positive,
    "import_max_json_depth": positive,
    "import_max_xml_depth": positive,
    "partition_rows": positive,
    "workers": positive,
    "threads": positive,
}


def _rule_for(name: str) -> Rule | None:
    if name in RULES:
        return RULES[name]
    if name.endswith("_url"):
        return http_url
    if name.endswith("_rate"):
        return positive
    if name.endswith(("_batch_size", "_concurrency")):
        return positive
    if name in {"mailto", "ncbi_email"} or name.endswith("_api_key"):
        return header_safe
    return None


#: Rules a register's settings dataclass may name for a field (`RegisterSettings.rules`).
NAMED_RULES: dict[str, Rule] = {"positive": positive, "non_negative": non_negative}


def check_settings(
    values: Mapping[str, Any], origins: Mapping[str, str], rules: Mapping[str, Rule] | None = None
) -> None:
    """Raise `ConfigError` for the first setting that breaks its rule, naming its source.

    `values` maps every setting to its resolved value (the fields of a `Settings`, handed in by
    `load_settings`, so this module needs no `Settings` of its own); `origins` maps a setting to
    where its value came from (`--timeout`, `AUDITOR_TIMEOUT`, a config file path); settings
    left at their default are checked too (`default`). `rules` overrides the rule of a setting
    (a register's own, such as Crossref's rate, where 0 means "pick by the mailto").
    """
    for name, value in values.items():
        rule = (rules or {}).get(name) or _rule_for(name)
        why = None if rule is None else rule(value)
        if why is not None:
            origin = origins.get(name, "default")
            raise ConfigError(f"{origin}: {name} {why} (got {value!r})")


__all__ = ["MAX_TIMEOUT", "NAMED_RULES", "RULES", "check_settings"]
