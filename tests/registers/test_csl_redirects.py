"""doi.org hands a CSL request to the agency's own metadata host: the hop is followed for the
hosts mEDRA, JaLC, KISTI and OP really use, and refused for anything else.

The resolver is a loopback server answering as doi.org does (a 302 "Handle Redirect"). A
followed hop to a real agency host is seen at its name lookup, which this test answers with an
error itself (and the suite's guard would refuse anyway): nothing leaves the machine.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from auditor.registers import registry
from auditor.registers.csl import CslRegister
from auditor.registers.doi import AGENCY_METADATA_HOSTS
from auditor.transport.net import allowed_hosts, open_net, trusted_bases
from auditor.transport.redirects import RedirectPolicy

DOI = "10.1400/145060"

#: Where doi.org sends each agency's CSL request (see `auditor.registers.doi`).
AGENCY_HOPS = {
    "medra": f"https://data.medra.org/{DOI}",
    "jalc": f"https://japanlinkcenter.org/data/{DOI}",
    "kisti": f"https://data.doi.or.kr/{DOI}",
    "op": f"https://ra.publications.europa.eu/{DOI}",
}


@pytest.fixture
async def resolver() -> AsyncIterator[tuple[str, dict[str, str]]]:
    """A doi.org stand-in: `/{doi}` answers 302 to `locations["next"]`."""
    locations: dict[str, str] = {}

    async def handle(request: web.Request) -> web.Response:
        html = f"<html><head><title>Handle Redirect</title></head><body>{locations['next']}</body>"
        return web.Response(status=302, text=html, headers={"Location": locations["next"]})

    app = web.Application()
    app.router.add_get("/{tail:.*}", handle)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    yield f"http://127.0.0.1:{port}", locations
    await runner.cleanup()


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names the transport tried to resolve beyond loopback (each refused at once)."""
    asked: list[str] = []
    guarded = socket.getaddrinfo

    def record(host: object, *args: object, **kwargs: object) -> object:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if name != "localhost" and not name.startswith("127."):
            asked.append(name)
            raise OSError(f"{name}: not resolved in tests")
        return guarded(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", record)
    return asked


async def _ask(base: str, tmp_path: Path) -> dict[str, object]:
    s = registry.settings(doi_url=base, cache_dir=str(tmp_path), max_retries=0, timeout=2.0)
    async with open_net(s, registry.hosts()) as net:
        rows = await CslRegister().fetch([DOI], net)
    return rows[DOI]


@pytest.mark.parametrize("agency", sorted(AGENCY_HOPS))
async def test_a_hop_to_the_agency_metadata_host_is_followed(
    agency: str, resolver: tuple[str, dict[str, str]], lookups: list[str], tmp_path: Path
) -> None:
    base, locations = resolver
    locations["next"] = AGENCY_HOPS[agency]
    row = await _ask(base, tmp_path)
    host = AGENCY_HOPS[agency].split("/")[2]
    assert lookups == [host]  # followed: the next request was on its way
    assert row["status"] == "unreachable" and row["reason"] != "unsafe_redirect"


@pytest.mark.parametrize(
    "location",
    [
        f"http://data.medra.org/{DOI}",  # plain HTTP
        f"https://data.medra.org:8443/{DOI}",  # an explicit port
        f"https://data.medra.org.evil.invalid/{DOI}",  # a look-alike
        f"https://evil.data.doi.or.kr/{DOI}",  # hosts are exact, not suffixes
        f"https://www.airiti.com/{DOI}",  # Airiti: no HTTPS metadata host verified
    ],
)
async def test_anything_else_is_refused_before_it_is_asked(
    location: str, resolver: tuple[str, dict[str, str]], lookups: list[str], tmp_path: Path
) -> None:
    base, locations = resolver
    locations["next"] = location
    row = await _ask(base, tmp_path)
    assert (row["status"], row["reason"]) == ("unreachable", "unsafe_redirect")
    assert lookups == []


def test_the_run_policy_allows_exactly_the_declared_agency_hosts() -> None:
    policy = RedirectPolicy(
        trusted_bases(registry.settings(cache_dir="/nonexistent"), registry.hosts()),
        allowed_hosts(registry.hosts()),
    )
    for host in AGENCY_METADATA_HOSTS:
        assert policy.is_safe(f"https://{host}/{DOI}")
        assert not policy.is_safe(f"http://{host}/{DOI}")
    assert allowed_hosts(registry.hosts()) >= AGENCY_METADATA_HOSTS
