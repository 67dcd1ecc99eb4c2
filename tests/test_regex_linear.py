"""No catastrophic backtracking (issue 37 item 2): every regular expression that reads a
reference string, a name list or a manuscript runs in time linear in its input.

The patterns are found, not listed: every compiled pattern held at module level (alone or in a
tuple, list, set or dict) by the readers (`auditor.load` with its documents and manuscript
readers, `auditor.names`, and the text, markup, identifier and column modules), and every
pattern written into a `re.` call in their source, evaluated in its module. A pattern built
from a call's own values cannot be evaluated here; each such call is in `DYNAMIC` with why it is
linear, and a new one fails the test until it is added.

Each pattern scans (`finditer`) and matches whole (`fullmatch`) hostile text built here: a
prefix (none, a letter, a capital, a digit, a bracket), then a unit repeated (initials, names,
dots, commas, brackets, spaces, hyphens, digits, openings of what the readers look for), then
a tail (none, or `!` to fail a would-be match at the very end), at 300 and at 3,000
characters. The time must grow at most `BOUND` times (see `tests/linear_time.py`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterator
from types import ModuleType

import pytest

import auditor.load
import auditor.names
from tests.linear_time import linear

AnyPattern = re.Pattern[str] | re.Pattern[bytes]

#: The packages that read what the user wrote (every submodule is walked), and single modules.
PACKAGES = (auditor.load, auditor.names)
MODULES = ("auditor.text", "auditor.markup", "auditor.classify", "auditor.column_idioms")

#: `re.` calls whose pattern is built from the call's own values, and why each is linear.
DYNAMIC = {
    ("auditor.load.csl_json", "_resync"): "a line end, the broken item's indent and `{`, all"
    " literal: no repetition at all",
    ("auditor.load.documents.settle", "fields_around"): "a title's literal words joined by"
    " `[\\W_]*`, a class no word character is in: each start reads at most one title's length"
    " ahead, with nothing to backtrack into",
    ("auditor.load.tex_source", "<module>"): "the `\\end{name}` patterns, the values of the"
    " module-level dict `_ENDS`: measured with the other patterns",
}

#: How a call's flags are passed: the position of `flags` among each function's arguments.
_FLAGS_AT = {
    "compile": 1,
    "search": 2,
    "match": 2,
    "fullmatch": 2,
    "findall": 2,
    "finditer": 2,
    "split": 3,
    "sub": 4,
    "subn": 4,
}

UNITS = (
    # initials and names
    "A. ", "A.", "A", "a", "aB", "A.-B. ", "Smith, A., ", "Smith A, ", "and ", "et al. ", "van ",
    # punctuation and brackets
    ".", ",", ", ", ";", ":", "-", "–", "'", '"', "“", "`", "*", "_", "(", ")", "[", "]", "{",
    "}", "<", ">", "/", "\\", "@", "%", "#", "=", "&", "|",
    # space
    " ", "\n", "\t",
    # digits
    "1", "1-", "1, ", "1.", "(2001) ", "[1] ",
    # openings of what the readers look for, and other scripts
    "\\begin{comment}", "\\begin{filecontents}[", "\\begin{filecontents}{x}", "<!--", "@misc{",
    "\\cite{", "{{< ", "[@", "doi:", "http://", "10.1/", "TY  - ", "%0 ", "<a>", "&amp;", "一 ",
)  # fmt: skip
PREFIXES = ("", "a", "A", "1", "(", "[")
TAILS = ("", "!")
SMALL, LARGE = 300, 3_000


def _modules() -> Iterator[ModuleType]:
    for package in PACKAGES:
        yield package
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            yield importlib.import_module(info.name)
    for name in MODULES:
        yield importlib.import_module(name)


def _held(value: object, path: str, depth: int = 0) -> Iterator[tuple[str, AnyPattern]]:
    """Each pattern in `value` (a pattern, or a container of them), with where it is held."""
    if isinstance(value, re.Pattern):
        yield path, value
    elif depth < 3 and isinstance(value, tuple | list | set | frozenset):
        for i, item in enumerate(value):
            yield from _held(item, f"{path}[{i}]", depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for key, item in value.items():
            yield from _held(item, f"{path}[{key!r}]", depth + 1)


def _written(module: ModuleType) -> Iterator[tuple[str, int, ast.expr, ast.expr | None]]:
    """Every `re.<function>(pattern, …)` call in `module`'s source: the function it is written in
    (`<module>` outside any), its line, its pattern and its flags."""
    tree = ast.parse(inspect.getsource(module))
    within: dict[int, str] = {}
    for node in ast.walk(tree):  # outer functions come first, so the innermost name stays
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            within.update((id(inner), node.name) for inner in ast.walk(node))
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _FLAGS_AT
            and node.args
        ):
            continue
        at = _FLAGS_AT[node.func.attr]
        flags = node.args[at] if len(node.args) > at else None
        flags = next((k.value for k in node.keywords if k.arg == "flags"), flags)
        yield within.get(id(node), "<module>"), node.lineno, node.args[0], flags


def _value(node: ast.expr, module: ModuleType) -> object:
    return eval(compile(ast.Expression(node), module.__name__, "eval"), dict(vars(module)))


def _collect() -> tuple[dict[str, AnyPattern], set[tuple[str, str]]]:
    found: dict[tuple[object, int], tuple[str, AnyPattern]] = {}
    dynamic: set[tuple[str, str]] = set()
    for module in _modules():
        for attr, value in vars(module).items():
            for where, pattern in _held(value, f"{module.__name__}.{attr}"):
                found.setdefault((pattern.pattern, pattern.flags), (where, pattern))
        for function, line, node, flags in _written(module):
            try:
                pattern = re.compile(
                    _value(node, module),  # type: ignore[call-overload]
                    0 if flags is None else _value(flags, module),  # type: ignore[arg-type]
                )
            except (NameError, TypeError):
                dynamic.add((module.__name__, function))
                continue
            found.setdefault(
                (pattern.pattern, pattern.flags), (f"{module.__name__}:{line}", pattern)
            )
    return dict(sorted(found.values(), key=lambda held: held[0])), dynamic


PATTERNS, WRITTEN_DYNAMIC = _collect()


def _texts() -> list[tuple[str, str, str]]:
    def text(prefix: str, unit: str, tail: str, length: int) -> str:
        return prefix + (unit * (length // len(unit) + 1))[:length] + tail

    return [
        (
            f"{prefix!r}+{unit!r}*+{tail!r}",
            text(prefix, unit, tail, SMALL),
            text(prefix, unit, tail, LARGE),
        )
        for prefix in PREFIXES
        for unit in UNITS
        for tail in TAILS
    ]


TEXTS = _texts()


def _scan(pattern: AnyPattern, text: str | bytes) -> None:
    for _ in pattern.finditer(text):  # type: ignore[arg-type]
        pass
    pattern.fullmatch(text)  # type: ignore[arg-type]


def _slow(pattern: AnyPattern) -> str | None:
    """The first hostile text on which `pattern`'s time grows faster than its input, or `None`."""
    for label, small, large in TEXTS:
        s: str | bytes = small
        big: str | bytes = large
        if isinstance(pattern.pattern, bytes):
            s, big = small.encode(), large.encode()
        ok, ratio = linear(lambda: _scan(pattern, s), lambda: _scan(pattern, big))  # noqa: B023
        if not ok:
            return f"{label}: x{ratio:.0f} for 10x the input"
    return None


def test_the_readers_patterns_are_found() -> None:
    assert len(PATTERNS) > 200
    names = " ".join(PATTERNS)
    for module in ("documents.refstring", "documents.people", "names.", "tex_source", "markdown"):
        assert f"auditor.load.{module}" in names or f"auditor.{module}" in names, module
    assert any(":" in name for name in PATTERNS)  # the patterns written into calls, too


def test_every_pattern_built_at_run_time_is_reviewed() -> None:
    assert set(DYNAMIC) == WRITTEN_DYNAMIC, "say in DYNAMIC why a new one is linear"


def test_the_measure_tells_a_quadratic_pattern_from_a_linear_one() -> None:
    # `\s*\(` tries each space of a run of them anew; from the run's start only, it is linear
    assert _slow(re.compile(r"\s*\(")) is not None
    assert _slow(re.compile(r"(?<!\s)\s*\(")) is None


@pytest.mark.parametrize("name", PATTERNS)
def test_pattern_is_linear_on_hostile_input(name: str) -> None:
    pattern = PATTERNS[name]
    slow = _slow(pattern)
    assert slow is None, f"{name} ({pattern.pattern!r}) grows faster than its input: {slow}"
