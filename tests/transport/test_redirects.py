from __future__ import annotations

import pytest

from auditor.errors import Reason, UnsafeRedirect
from auditor.transport.redirects import RedirectPolicy

POLICY = RedirectPolicy(["http://127.0.0.1:8123/doi", "https://api.crossref.org"])


@pytest.mark.parametrize(
    "url",
    [
        "https://doi.org/10.1000/x",
        "https://hdl.handle.net/api/handles/10.1000/x",
        "http://127.0.0.1:8123/csl/10.1000/x",  # same origin as a configured base URL
        "https://api.crossref.org/works/10.1000/x",
    ],
)
def test_allowed(url):
    assert POLICY.is_safe(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://doi.org/10.1000/x",
        "https://127.0.0.1/x",
        "https://user@doi.org/x",
        "https://doi.org:443/x",
        "https://api.crossref.org:443/works/x",  # configured without a port: trust is as written
        "https://doi.org.evil.invalid/x",
        "http://122.115.55.36:8000/doi/x",
        "http://127.0.0.1:8124/csl/x",  # another port than the configured one
        "https://[::1]/x",
        "ftp://doi.org/x",
        "not a url",
    ],
)
def test_refused(url):
    assert not POLICY.is_safe(url)
    with pytest.raises(UnsafeRedirect) as info:
        POLICY.check(url)
    assert info.value.reason is Reason.UNSAFE_REDIRECT


def test_next_hop_resolves_relative_and_requires_location():
    assert POLICY.next_hop("https://doi.org/a/b", "/c") == "https://doi.org/c"
    with pytest.raises(UnsafeRedirect):
        POLICY.next_hop("https://doi.org/a", None)
    with pytest.raises(UnsafeRedirect):
        POLICY.next_hop("https://doi.org/a", "http://122.115.55.36:8000/x")
