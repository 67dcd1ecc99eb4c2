"""Shared fixtures of the overlap tests: the contract's examples and its schemas."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tests.missing_fixtures import SHARED

SPEC = SHARED / "spec" / "citation-overlap-openapi.json"
FIXTURES = Path(__file__).parent / "fixtures"


def contract_schemas() -> dict[str, Any]:
    """Request and response schemas as shipped in the package (`contract_schema.json`)."""
    text = resources.files("auditor.overlap").joinpath("contract_schema.json").read_text("utf-8")
    return json.loads(text)


def contract_examples() -> list[dict[str, Any]]:
    """The contract's request/response example pairs (checked-in copy of the spec's)."""
    return json.loads((FIXTURES / "contract_examples.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def response_schema() -> dict[str, Any]:
    """The 200-response schema of the contract."""
    return contract_schemas()["response"]


@pytest.fixture(scope="session")
def request_schema() -> dict[str, Any]:
    """The request-body schema of the contract."""
    return contract_schemas()["request"]
