"""Every package the code imports is one `pip install .` brings (README's first command).

`import click` in the help module worked only where the test extras had installed dask (which
needs click): Typer 0.27+ ships its own copy of click, so a plain install failed at start-up.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _names(requirements: list[str]) -> set[str]:
    """Distribution names, with each extra (`dask[distributed]` brings distributed too)."""
    out: set[str] = set()
    for requirement in requirements:
        name, _, rest = requirement.partition("[")
        extras = rest.split("]", 1)[0].split(",") if rest else []
        for n in (re.split(r"[\s<>=!~;]", name, maxsplit=1)[0], *extras):
            out.add(n.strip().lower().replace("_", "-"))
    return out


def _imports(tree: ast.Module, *, top_level: bool) -> set[str]:
    """Top-level module names imported: at module level (`top_level`) or anywhere."""
    nodes = tree.body if top_level else list(ast.walk(tree))
    typing_only = {
        id(n)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and ast.unparse(block.test).endswith("TYPE_CHECKING")
        for n in ast.walk(block)
    }  # stubs and types for mypy, never imported when the code runs
    nodes = [n for n in nodes if id(n) not in typing_only]
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module.split(".")[0])
    return out


_INSTALLED = packages_distributions()


def _distributions(module: str) -> set[str]:
    return {d.lower().replace("_", "-") for d in _INSTALLED.get(module, [])}


def test_module_level_imports_are_stdlib_or_required_dependencies() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    required = _names(project["dependencies"])
    missing = []
    for path in sorted((ROOT / "auditor").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module in _imports(tree, top_level=True):
            if module in sys.stdlib_module_names or module in ("auditor", "__future__"):
                continue
            if not _distributions(module) & required:
                missing.append(f"{path.relative_to(ROOT)}: {module}")
    assert not missing, missing


def test_lazy_imports_are_dependencies_or_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    known = _names(project["dependencies"]) | _names(project["optional-dependencies"]["cluster"])
    missing = []
    for path in sorted((ROOT / "auditor").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for module in _imports(tree, top_level=False):
            if module in sys.stdlib_module_names or module in ("auditor", "__future__"):
                continue
            if not _distributions(module) & known:
                missing.append(f"{path.relative_to(ROOT)}: {module}")
    assert not missing, missing
