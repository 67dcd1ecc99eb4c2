"""What a Pandoc Markdown, Quarto (`.qmd`) or R Markdown (`.Rmd`) manuscript cites, and where.

Citations are Pandoc's: `[@key]`, `[see @key, p. 3; @other]`, `@key` in text, `-@key` and
`@{key}`; keys start with a letter, digit or `_` and may hold internal punctuation
(`:.#$%&-+?<>~/`). Code (fenced blocks, Rmd chunks, inline code spans), HTML comments, e-mail
addresses, an `@` inside a URL (`medium.com/@user`) and bookdown's `\\@ref(…)` are not
citations, and neither are cross-references: pandoc-crossref's `@fig:…`, `@tbl:…`, `@eq:…`,
`@sec:…`, `@lst:…`, and in Quarto its own `@fig-…`, `@tbl-…`, `@sec-…` and the other reserved
prefixes.

The bibliographies are the YAML front matter's `bibliography:` (a string or a list), else a
Quarto `_metadata.yml` in the file's folder, else the nearest `_quarto.yml` in it or a folder
above (whose folder is then the manuscript's tree); each path is relative to the file that
names it. Every file is read only inside that tree (`auditor.load.manuscript_tree`). YAML is
read by PyYAML's safe loader (no tags, no objects) with at most `MAX_YAML_ALIASES` aliases, so
an alias bomb is a warning, not a hang for whatever walks the value. Quarto's
`{{< include file >}}` is followed, relative to the including file.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from auditor.errors import InputError
from auditor.load.enclosed import enclosed, replaced
from auditor.load.manuscript import MAX_DEPTH, Manuscript, read_text

__all__ = ["MAX_YAML_ALIASES", "read_markdown"]

_MD_CITE = re.compile(r"(?<![\w@.\\/=:])-?@(?:\{([^{}\s]+)\}|([\w][\w:.#$%&+?<>~/-]*[\w])|(\w))")
_INCLUDE = re.compile(r"\{\{<\s*include\s+(\S+?)\s*>\}\}")
# (a run of backticks opens code from its first one only: from each, it costs the run's square)
_INLINE_CODE = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
# (`match`ed at a line's start; the look-behind keeps a scan inside a long run of space linear)
_BIB_KEY = re.compile(r"(?<!\s)\s*bibliography\s*:")
# (`<!--` with the first `-->` after it, found by `enclosed`: as `<!--.*?-->` with `re.S` would,
# without its cost, the text's length for every `<!--` never closed)
_HTML_COMMENT = re.compile("<!--")
_HTML_COMMENT_END = re.compile("-->")
#: pandoc-crossref prefixes (`@fig:one`), in every Markdown dialect.
_CROSSREF = re.compile(r"^(?:fig|tbl|eq|sec|lst):")
#: Quarto's reserved cross-reference prefixes (`@fig-one`), in `.qmd` only.
_QUARTO_CROSSREF = re.compile(
    r"^(?:fig|tbl|lst|tip|nte|wrn|imp|cau|thm|lem|cor|prp|cnj|def|exm|exr|sol|rem|eq|sec)-"
)
_PROJECT_FILES = ("_quarto.yml", "_quarto.yaml")
_METADATA_FILES = ("_metadata.yml", "_metadata.yaml")
#: Front matter larger than this is not YAML metadata but a runaway block (unclosed `---`).
_MAX_FRONT_MATTER = 1 << 20
#: How many folders above the file a `_quarto.yml` is looked for in.
_PROJECT_LEVELS = 8
#: Aliases (`*a`) in one YAML block: metadata uses a few; thousands are a bomb for whatever
#: walks the value.
MAX_YAML_ALIASES = 100


class _YamlBomb(yaml.YAMLError):  # type: ignore[misc]  # PyYAML ships no types
    """A YAML block past `MAX_YAML_ALIASES`."""


class _CappedLoader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML ships no types
    """PyYAML's safe loader, counting aliases as it composes (merge keys, `<<: [*a, *a]`, are
    copied once each since PyYAML 6.0.4, the version `pyproject.toml` asks for)."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.aliases = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_YAML_ALIASES:
                raise _YamlBomb(f"more than {MAX_YAML_ALIASES} aliases")
        return super().compose_node(parent, index)


def _line_ends(comment: str) -> str:
    return "\n" * comment.count("\n")


def read_markdown(path: Path, manuscript: Manuscript) -> None:
    """Fill `manuscript` from the Markdown file at `path` and what it includes.

    Raises `InputError` for an unreadable file or includes nested deeper than `MAX_DEPTH`; bad
    YAML or a missing bibliography or included file is a warning.
    """
    named = _read(path, manuscript, depth=0)
    if not named:
        named = _project_bibliographies(path, manuscript)
    for bib, where in named:
        if bib is not None:
            manuscript.bibliography_at(bib, where, None)


def _read(path: Path, manuscript: Manuscript, depth: int) -> list[tuple[Path | None, str]]:
    """Cite what `path` cites; its front matter's bibliographies (main file only)."""
    if depth > MAX_DEPTH:
        raise InputError(f"{path}: includes nested deeper than {MAX_DEPTH} (a cycle?)")
    shown = str(path)
    text = read_text(path, manuscript, shown)
    comments = enclosed(text, _HTML_COMMENT, lambda m: (m.end(), _HTML_COMMENT_END))
    text = replaced(text, ((m.start(), e.end()) for m, _, e in comments), _line_ends)
    lines = text.splitlines()
    named: list[tuple[Path | None, str]] = []
    body_start = 0
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), 0)
        if end:
            meta = _yaml("\n".join(lines[1:end]), shown, manuscript)
            if depth == 0:
                at = next((i + 1 for i in range(1, end) if _BIB_KEY.match(lines[i])), 1)
                named = [(manuscript.place(path.parent, n, shown, at), shown) for n in _names(meta)]
            body_start = end + 1
    quarto = path.suffix.lower() == ".qmd"
    fenced = False
    for number, line in enumerate(lines[body_start:], body_start + 1):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced:
            continue
        for include in _INCLUDE.finditer(line):
            child = manuscript.place(path.parent, include[1], shown, number)
            if child is not None:
                _include(child, manuscript, shown, number, depth)
        if "@" in line:
            _cite_line(_INLINE_CODE.sub("", line), manuscript, shown, number, quarto)
    return named


def _cite_line(line: str, manuscript: Manuscript, shown: str, number: int, quarto: bool) -> None:
    for match in _MD_CITE.finditer(line):
        key = match[1] or match[2] or match[3]
        if _CROSSREF.match(key) or (quarto and _QUARTO_CROSSREF.match(key)):
            continue
        manuscript.cite(key, shown, number)


def _include(child: Path, manuscript: Manuscript, shown: str, line: int, depth: int) -> None:
    if child.is_file():
        _read(child, manuscript, depth + 1)
    else:
        manuscript.warn(
            shown, line, f"included file {child} not found; its citations are not read", "include"
        )


def _yaml(text: str, shown: str, manuscript: Manuscript) -> Any:
    """The YAML mapping in `text`, or `None` (with a warning) when it is not one."""
    if len(text) > _MAX_FRONT_MATTER:
        manuscript.warn(shown, 1, "YAML metadata too large; not read", "yaml")
        return None
    try:
        value = yaml.load(text, Loader=_CappedLoader)  # noqa: S506 (a safe loader)
    except _YamlBomb as exc:
        manuscript.warn(shown, 1, f"YAML metadata has {exc}; not read", "yaml")
        return None
    except (yaml.YAMLError, RecursionError) as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", None)
        where = f" (line {line + 1} of the block)" if isinstance(line, int) else ""
        manuscript.warn(shown, 1, f"YAML metadata cannot be read{where}; not used", "yaml")
        return None
    return value if isinstance(value, dict) else None


def _names(meta: Any) -> list[str]:
    """The `bibliography:` value of a metadata mapping: a string or a list of strings; else the
    first one a Quarto output format sets (`format: {html: {bibliography: refs.bib}}`)."""
    if not isinstance(meta, dict):
        return []
    value = meta.get("bibliography")
    formats = meta.get("format")
    if value is None and isinstance(formats, dict):
        nested = (f.get("bibliography") for f in formats.values() if isinstance(f, dict))
        value = next((v for v in nested if v), None)
    if isinstance(value, str):
        return [value.strip()] if value.strip() else []
    if isinstance(value, list):
        return [v.strip() for v in value if isinstance(v, str) and v.strip()]
    return []


def _project_bibliographies(path: Path, manuscript: Manuscript) -> list[tuple[Path | None, str]]:
    """The bibliographies of the folder's `_metadata.yml`, else of the nearest `_quarto.yml`
    (searched no higher than `manuscript.within`), whose folder becomes the manuscript's tree."""
    for name in _METADATA_FILES:
        found = _from_file(path.parent, name, manuscript)
        if found:
            return found
    folder = path.resolve().parent
    top = manuscript.within.resolve() if manuscript.within is not None else None
    for level in range(_PROJECT_LEVELS):
        if top is not None and not folder.is_relative_to(top):
            break
        for name in _PROJECT_FILES:
            # as named, where it can be: the file's own folder is in the tree already
            where = path.parent if level == 0 else folder
            if (where / name).is_file():
                if level:
                    manuscript.root = folder  # Quarto's project: the folder of `_quarto.yml`
                return _from_file(where, name, manuscript)
        if folder.parent == folder:
            break
        folder = folder.parent
    return []


def _from_file(folder: Path, name: str, manuscript: Manuscript) -> list[tuple[Path | None, str]]:
    meta_file = manuscript.place(folder, name, str(folder / name), None)
    if meta_file is None or not meta_file.is_file():
        return []
    shown = str(meta_file)
    meta = _yaml(read_text(meta_file, manuscript, shown), shown, manuscript)
    return [(manuscript.place(meta_file.parent, n, shown, 1), shown) for n in _names(meta)]
