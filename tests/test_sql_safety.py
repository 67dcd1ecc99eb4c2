"""No SQL in `auditor/` is built by string formatting from a path or a value (#26, 19).

Every `.execute(`, `.sql(`, `.query(` and `.from_query(` call's statement must be a string
literal or the name of a module-level constant; values and paths go as parameters. A
module-level constant may be assembled from other constants (at import, when no path or value
exists yet), but never from a function's argument.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "auditor"
_CALLS = {"execute", "sql", "query", "from_query", "executemany"}


def _module_constants(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def _sql_calls(tree: ast.Module) -> list[ast.Call]:
    """Calls of a database method (only modules that use a database are scanned)."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _CALLS
        and node.args
    ]


def _is_db(path: Path) -> bool:
    return "duckdb" in path.read_text(encoding="utf-8") or "sqlite" in path.read_text(
        encoding="utf-8"
    )


def _constant_text(node: ast.expr, constants: set[str]) -> bool:
    """Whether `node` can only be one of the module's constant texts: a literal, a constant's
    name, a constant table indexed by anything, or a choice between two such."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Name):
        return node.id in constants
    if isinstance(node, ast.Subscript):
        return _constant_text(node.value, constants)
    if isinstance(node, ast.IfExp):
        return _constant_text(node.body, constants) and _constant_text(node.orelse, constants)
    return False


def _bad_statement(arg: ast.expr, constants: set[str]) -> str | None:
    return None if _constant_text(arg, constants) else ast.unparse(arg)[:80]


def _locals_from_constants(function: ast.AST, constants: set[str]) -> set[str]:
    """Local names only ever bound to a module constant (`rows_of = _A if many else _B`)."""
    bound: dict[str, bool] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            ok = _constant_text(node.value, constants)
            for target in node.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = bound.get(target.id, True) and ok
    return {name for name, ok in bound.items() if ok}


def _database_modules() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py") if _is_db(p))


def test_there_are_sql_sites_to_check() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in _database_modules()}
    assert {"transport/snapshot.py", "dumps/title_index.py"} <= names


@pytest.mark.parametrize("path", _database_modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_statement_is_formatted_at_run_time(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = _module_constants(tree)
    bad = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        params = {a.arg for a in function.args.args + function.args.kwonlyargs}
        known = constants - params
        local = _locals_from_constants(function, known) - params
        for call in _sql_calls(function):  # type: ignore[arg-type]
            shown = _bad_statement(call.args[0], known | local)
            if shown is not None:
                bad.append(f"{path.name}:{call.lineno}: {shown}")
    assert not bad, "SQL built at run time:\n" + "\n".join(bad)


def test_the_scan_catches_each_kind_of_formatting() -> None:
    source = """
Q = "SELECT 1"
def f(con, path, value):
    con.execute(f"SELECT * FROM read_parquet('{path}')")
    con.sql("SELECT %s" % value)
    con.execute("SELECT {}".format(value))
    con.execute("SELECT " + value)
    q = "SELECT " + value
    con.execute(q)
    con.execute(Q)
    con.execute("SELECT $v", {"v": value})
    con.execute(Q if value else "SELECT 2")
    con.execute(Q if value else path)
"""
    tree = ast.parse(source)
    constants = _module_constants(tree)
    function = tree.body[1]
    local = _locals_from_constants(function, constants)
    flagged = [
        call.lineno
        for call in _sql_calls(tree)
        if _bad_statement(call.args[0], constants | local) is not None
    ]
    assert flagged == [4, 5, 6, 7, 9, 13]
