"""A fake of the `Net` seam for register and resolve tests: routes requests to a handler.

Network behaviour itself (throttles, retries, timeouts) is tested over real loopback traffic in
`tests/transport/`; this fake lets the batching, splitting and tier logic be tested exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from auditor.errors import Reason, Unreachable
from auditor.settings import Settings
from auditor.transport.cache import RecordCache
from auditor.transport.net import Response


@dataclass
class Call:
    register: str
    url: str
    params: dict[str, str]
    data: dict[str, str] | None
    method: str


Handler = Callable[[Call], Response]


@dataclass
class FakeNet:
    settings: Settings
    handler: Handler
    cache: RecordCache | None = None
    calls: list[Call] = field(default_factory=list)
    progress: list[tuple[str, int, int]] = field(default_factory=list)
    lookups: Any = None
    """`Net.lookups`: no cluster lookup service here, so the resolve stage asks itself."""

    def report(self, register: str, done: int, total: int) -> None:
        self.progress.append((register, done, total))

    @contextmanager
    def retry_batch(self) -> Iterator[None]:
        """`Net.retry_batch`: the fake never retries, so a batch changes nothing here."""
        yield

    async def get(
        self, register: str, url: str, *, params: Mapping[str, str] | None = None, **_: Any
    ) -> Response:
        return self._send(Call(register, url, dict(params or {}), None, "GET"))

    async def post(self, register: str, url: str, *, form: Mapping[str, str], **_: Any) -> Response:
        return self._send(Call(register, url, {}, dict(form), "POST"))

    def _send(self, call: Call) -> Response:
        if self.settings.offline:
            raise Unreachable("offline", Reason.OFFLINE)
        self.calls.append(call)
        return self.handler(call)

    def count(self, register: str) -> int:
        return sum(1 for c in self.calls if c.register == register)


def reply(payload: Any, status: int = 200) -> Response:
    import json

    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return Response(status=status, headers={}, body=body, url="http://127.0.0.1/x")
