"""Content negotiation under the redirect policy, through the real transport on loopback."""

from __future__ import annotations

import pytest

from auditor.registers import registry
from auditor.transport.net import trusted_bases
from auditor.transport.redirects import RedirectPolicy
from tests.chinese.conftest import waterfall
from tests.chinese.helpers import TITLE, csl, refs, verdicts_for

D = "10.5555/cma.j.cn112137-20231008-00670"


async def _csl_via(registers, corpus, status: int, **headers: str):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = csl(D)
    registers.override(f"/doi/{D}", status, "<html>Handle Redirect</html>", **headers)
    references = refs({"title": TITLE, "doi": D})
    return await waterfall(registers.settings(), references, verdicts_for(references))


@pytest.mark.parametrize(
    "location",
    [
        "http://122.115.55.36:8000/doi/x",
        "http://doi.org/x",
        "https://127.0.0.1/x",
        "https://user@doi.org/x",
        "https://doi.org.evil.invalid/x",
    ],
)
async def test_unsafe_hop_is_unchecked_never_a_verdict(registers, corpus, location):
    result = await _csl_via(registers, corpus, 302, Location=location)
    out = result.outcomes.to_pylist()[0]
    assert (out["status"], out["reason_code"]) == ("unchecked", "unsafe_redirect")
    assert result.verdicts["verdict"].to_pylist() == ["UNCHECKED"]
    assert result.items.num_rows == 0
    assert registers.counts["csl"] == 0  # the refused hop was never requested


async def test_redirect_without_location_is_refused(registers, corpus):
    result = await _csl_via(registers, corpus, 302)
    assert result.outcomes["reason_code"].to_pylist() == ["unsafe_redirect"]


async def test_relative_location_resolves_against_current_url(registers, corpus):
    result = await _csl_via(registers, corpus, 302, Location=f"/csl/{D}")
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_TITLE_VERIFIED"]


async def test_bad_content_length_is_rejected_before_reading(registers, corpus):
    corpus.agencies["10.13209"] = "CNKI"
    registers.override("/handle/api/handles/10.13209/x", 200, b'{"responseCode":1}')
    registers.overrides["/handle/api/handles/10.13209/x"] = (
        200,
        b'{"responseCode":1}',
        {"Content-Length": "abc"},
    )
    references = refs({"title": TITLE, "doi": "10.13209/x"})
    result = await waterfall(registers.settings(), references, verdicts_for(references))
    assert result.outcomes["status"].to_pylist() == ["unchecked"]


POLICY = RedirectPolicy(
    trusted_bases(registry.settings(cache_dir="/nonexistent"), registry.hosts())
)


@pytest.mark.parametrize(
    "url",
    [
        "http://doi.org/10.5555/x",
        "https://127.0.0.1/10.5555/x",
        "https://user@doi.org/10.5555/x",
        "https://doi.org.evil.invalid/10.5555/x",
        "http://122.115.55.36:8000/doi/10.5555/x",
    ],
)
def test_policy_refuses_the_cases_urls(url):
    assert not POLICY.is_safe(url)


def test_policy_refuses_explicit_default_port_on_a_configured_host():
    # https://doi.org is a configured base by default; an explicit :443 is still refused.
    assert not POLICY.is_safe("https://doi.org:443/10.5555/x")


@pytest.mark.parametrize(
    "url", ["https://doi.org/10.5555/x", "https://hdl.handle.net/api/handles/10.5555/x"]
)
def test_policy_allows_allowlisted_https(url):
    assert POLICY.is_safe(url)
