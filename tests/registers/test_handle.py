"""Handle: one set of rules for the resolve stage and the Chinese waterfall."""

from __future__ import annotations

import pytest

from auditor.errors import RegisterError
from auditor.registers.handle import handle_url, parse_handle

from .conftest import response

DOI = "10.5555/absent"


@pytest.mark.parametrize("doi", ["10.5555/a\r\nb", "10.5555/a?b", "10.5555/a#b"])
def test_handle_url_encodes_reserved(doi):
    url = handle_url("https://hdl.handle.net", doi)
    assert url.startswith("https://hdl.handle.net/api/handles/10.5555/a%")
    assert not any(c in url.split("/api/handles/", 1)[1] for c in "\r\n?#")


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b'{"responseCode":true,"handle":"10.5555/absent"}', 200),  # a bool is not the code 1
        (b'{"responseCode":1.0,"handle":"10.5555/absent"}', 200),
        (b'{"responseCode":100.0,"handle":"10.5555/absent"}', 404),
        (b'{"responseCode":1}', 200),  # existence needs the echo
        (b'{"responseCode":100,"handle":7}', 404),  # an echo that is not a string
        (b"Not Found", 404),
        (b'{"responseCode":100,"handle":"10.5555/absent"}', 403),
    ],
)
def test_only_exact_codes_with_their_status_are_answers(raw, status):
    with pytest.raises(RegisterError):
        parse_handle(DOI, response(raw, status=status))


def test_absence_needs_a_404_with_code_100_and_may_omit_nothing_else():
    row = parse_handle(DOI, response(b'{"responseCode":100,"handle":"10.5555/ABSENT"}', 404))
    assert (row["status"], row["reason"]) == ("not_found", "not_found")


def test_handle():
    found = parse_handle("10.5555/exists", response("handle_found.json"))
    assert found["status"] == "not_covered" and found["register"] == "handle"
    absent = parse_handle("10.5555/absent", response("handle_absent.json", status=404))
    assert absent["status"] == "not_found"


@pytest.mark.parametrize(
    ("raw", "status"),
    [
        (b"<html>DOI Not Found</html>", 404),  # a 404 that is not the Handle JSON
        (b'{"responseCode":100,"handle":"10.5555/absent"}', 200),
        (b'{"responseCode":2}', 500),
        (b'{"responseCode":1,"handle":"10.5555/other"}', 200),
    ],
)
def test_handle_faults_are_never_absence(raw, status):
    with pytest.raises(RegisterError):
        parse_handle("10.5555/absent", response(raw, status=status))
