"""Fixture bodies (written here, in the shapes of real register answers) as `Response`s."""

from __future__ import annotations

from pathlib import Path

from auditor.transport.net import Response

FIXTURES = Path(__file__).parent / "fixtures"


def body(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def response(name: str | bytes, status: int = 200, url: str = "http://127.0.0.1/x") -> Response:
    data = body(name) if isinstance(name, str) else name
    return Response(status=status, headers={}, body=data, url=url)
