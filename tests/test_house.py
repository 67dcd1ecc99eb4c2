"""The house's size rules (#23): no module of `auditor/` over 400 lines, at most ten functions
over 50 lines. A change that passes either names what to split."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "auditor"
MAX_MODULE_LINES = 400
LONG_FUNCTION = 50
MAX_LONG_FUNCTIONS = 10


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def module_lengths() -> dict[str, int]:
    """Lines of each module, by its path under the repository."""
    return {
        str(p.relative_to(PACKAGE.parent)): len(p.read_text(encoding="utf-8").splitlines())
        for p in _modules()
    }


def long_functions(source: str, name: str) -> list[tuple[str, int]]:
    """`(where, lines)` of every function or method (nested ones too) of `source` longer than
    `LONG_FUNCTION` lines, from its `def` line to its last line."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if lines > LONG_FUNCTION:
                out.append((f"{name}:{node.lineno} {node.name}", lines))
    return out


def test_no_module_passes_400_lines() -> None:
    over = {p: n for p, n in module_lengths().items() if n > MAX_MODULE_LINES}
    assert not over, f"split by job: {over}"


def test_at_most_ten_functions_pass_50_lines() -> None:
    found = [
        hit
        for p in _modules()
        for hit in long_functions(p.read_text(encoding="utf-8"), str(p.relative_to(PACKAGE.parent)))
    ]
    assert len(found) <= MAX_LONG_FUNCTIONS, sorted(found, key=lambda h: -h[1])


def test_the_counter_counts_def_to_last_line_and_nested_functions() -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(50))
    source = f"def long():\n{body}\n\n\ndef short():\n    return 1\n"
    assert long_functions(source, "m") == [("m:1 long", 51)]
    nested = f"def outer():\n    def inner():\n    {body.replace(chr(10), chr(10) + '    ')}\n"
    assert [w for w, _ in long_functions(nested, "m")] == ["m:1 outer", "m:2 inner"]
    assert long_functions("def f():\n    return 1\n", "m") == []
