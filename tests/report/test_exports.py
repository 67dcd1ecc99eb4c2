"""Each report module's `__all__` names exactly its public, defined names."""

from __future__ import annotations

import importlib
import inspect

import pytest

MODULES = [
    "auditor.report",
    "auditor.report.interface",
    "auditor.report.rows",
    "auditor.report.parquet",
    "auditor.report.csv",
    "auditor.report.json",
    "auditor.report.html",
    "auditor.report.console",
    "auditor.report.annotations",
    "auditor.report.junit",
    "auditor.report.words",
    "auditor.checklist",
    "auditor.policy",
]


@pytest.mark.parametrize("name", MODULES)
def test_all_is_the_public_surface(name: str) -> None:
    module = importlib.import_module(name)
    exported = set(module.__all__)
    defined = {
        attr
        for attr, value in vars(module).items()
        if not attr.startswith("_")
        and not inspect.ismodule(value)
        and getattr(value, "__module__", name) == name
        and (inspect.isfunction(value) or inspect.isclass(value))
    }
    assert defined <= exported, f"public but not exported: {sorted(defined - exported)}"
    for attr in exported:
        assert hasattr(module, attr), f"{name}.__all__ names missing {attr}"
        assert getattr(module, attr).__doc__ or not callable(getattr(module, attr))
