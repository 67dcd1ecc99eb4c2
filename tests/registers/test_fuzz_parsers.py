"""Fuzzing every register parser (lookups and title searches) with hostile answers (hypothesis).

Whatever a register answers (random bytes, any JSON, near-valid bodies with one field of the
wrong type, deep nesting, lone surrogates, huge numbers, odd statuses), `fetch`:
no exception escapes, every asked id gets exactly one row, each row fits the `RECORDS` schema
(Arrow accepts the table), and every failure to look carries a reason code.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from auditor.errors import Reason
from auditor.record_check import check_row
from auditor.registers import registry
from auditor.registers.interface import TitleQuery
from auditor.registers.registry import REGISTERS, SEARCH_REGISTERS
from auditor.tables import RECORDS, RecordStatus, from_rows
from auditor.transport.net import Response
from tests.properties import examples

from .fakenet import Call, FakeNet

IDS = {
    "arxiv": ["1706.03762", "hep-th/9901001"],
    "crossref": ["10.5555/a", "10.5555/b"],
    "pubmed": ["123", "456"],
    "doi": ["10.5555/a", "10.5555/b"],
    "handle": ["10.5555/a"],
    "csl": ["10.5555/a"],
    "datacite": ["10.5281/zenodo.1", "10.5281/zenodo.2"],
    "openalex": ["10.1016/j.x.2021.1", "10.1016/j.x.2021.2"],
}
REASONS = frozenset(r.value for r in Reason)
STATUSES = frozenset(s.value for s in RecordStatus)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


def _templates(ids: list[str]) -> list[Any]:
    """Near-valid bodies of every register, to be mutated."""
    work = {
        "DOI": ids[0],
        "title": ["T"],
        "author": [{"family": "Doe"}],
        "issued": {"date-parts": [[2020]]},
    }
    doc = {"uid": ids[0], "title": "T", "authors": [{"name": "Doe J"}], "pubdate": "2020"}
    return [
        {"status": "ok", "message-type": "work", "message": work},
        {"status": "ok", "message-type": "work-list", "message": {"items": [work]}},
        # a copy: `mutated` writes into the template, and must never write into `IDS`
        {"result": {"uids": list(ids), **{i: {**doc, "uid": i} for i in ids}}},
        [{"DOI": i, "RA": "DataCite"} for i in ids],
        {"responseCode": 1, "handle": ids[0]},
        {
            "data": [
                {
                    "id": i,
                    "type": "dois",
                    "attributes": {
                        "doi": i,
                        "titles": [{"title": "T"}],
                        "creators": [{"name": "Doe, J", "familyName": "Doe"}],
                        "publicationYear": 2020,
                        "relatedIdentifiers": [
                            {
                                "relationType": "IsObsoletedBy",
                                "relatedIdentifier": "10.5281/zenodo.9",
                                "relatedIdentifierType": "DOI",
                            }
                        ],
                    },
                }
                for i in ids
            ]
        },
        {
            "DOI": ids[0],
            "title": "T",
            "author": [{"family": "Doe"}],
            "issued": {"date-parts": [[2020]]},
        },
    ]


@st.composite
def mutated(draw: st.DrawFn, ids: list[str]) -> bytes:
    body = draw(st.sampled_from(_templates(ids)))
    # Replace one value somewhere in the template by an arbitrary JSON value.
    path: list[Any] = []
    node: Any = body
    while isinstance(node, dict | list) and node and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        path.append(key)
        node = node[key]
    if path:
        parent: Any = body
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = draw(json_values)
    return json.dumps(body).encode()


HOSTILE_BYTES = [
    b"[" * 5000 + b"]" * 5000,
    b'{"title": "\\ud800", "DOI": "10.5555/a"}',
    b'{"status": "ok", "message-type": "work", "message": {"DOI": "10.5555/a",'
    b' "issued": {"date-parts": [[99999999999]]}}}',
    b'{"data": [{"paperId": "x", "title": "T", "year": 99999999999, "authors": "A"}]}',
    b'{"result": {"hits": {"hit": [{"info": {"title": {"x": 1}, "year": "99999999999"}}]}}}',
    b"NaN",
    b"1" * 5000,
    b"<feed xmlns='http://www.w3.org/2005/Atom'><entry><id>http://arxiv.org/abs/1706.03762</id>"
    b"<published>99999-01-01</published></entry></feed>",
    b"<?xml version='1.0'?><!DOCTYPE x [<!ENTITY a 'b'>]><feed>&a;</feed>",
    b"\xff\xfe\x00",
    b"",
]


def bodies(ids: list[str]) -> st.SearchStrategy[bytes]:
    return (
        st.binary(max_size=64)
        | json_values.map(lambda v: json.dumps(v).encode())
        | mutated(ids)
        | st.sampled_from(HOSTILE_BYTES)
    )


def answers(ids: list[str]) -> st.SearchStrategy[list[tuple[int, bytes]]]:
    status = st.sampled_from([200, 200, 200, 404, 400, 500, 301, 429])
    return st.lists(st.tuples(status, bodies(ids)), min_size=1, max_size=6)


def _run(name: str, script: list[tuple[int, bytes]], tmp: str) -> dict[str, Any]:
    register = next(r for r in REGISTERS if r.name == name)
    calls = iter(range(10_000))

    def handle(call: Call) -> Response:
        status, body = script[next(calls) % len(script)]
        return Response(status=status, headers={}, body=body, url=call.url)

    net = FakeNet(registry.settings(cache_dir=tmp), handle)
    return asyncio.run(register().fetch(list(IDS[name]), net))  # type: ignore[arg-type]


def _check(name: str, rows: dict[str, Any]) -> None:
    assert set(rows) == set(IDS[name])
    for row in rows.values():
        check_row(row)
        assert row["status"] in STATUSES
        if row["status"] == RecordStatus.UNREACHABLE:
            assert row["reason"] in REASONS, row
    from_rows(list(rows.values()), RECORDS)


FUZZED: set[str] = set()


def _fuzz(name: str) -> Any:
    FUZZED.add(name)

    # database=None: the six tests share one source, hence one example-database key; replaying
    # one register's saved example against another's strategy would be reported as flaky.
    @settings(
        max_examples=examples(40),
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(script=answers(list(IDS[name])))
    def test(tmp_path_factory: Any, script: list[tuple[int, bytes]]) -> None:
        _check(name, _run(name, script, str(tmp_path_factory.getbasetemp())))

    return test


test_fuzz_arxiv = _fuzz("arxiv")
test_fuzz_crossref = _fuzz("crossref")
test_fuzz_pubmed = _fuzz("pubmed")
test_fuzz_doi_system = _fuzz("doi")
test_fuzz_handle = _fuzz("handle")
test_fuzz_csl = _fuzz("csl")
test_fuzz_datacite = _fuzz("datacite")
test_fuzz_openalex = _fuzz("openalex")


def test_every_lookup_register_is_fuzzed() -> None:
    assert {r.name for r in REGISTERS} == set(IDS) == FUZZED


QUERIES = [TitleQuery("Deep learning", "LeCun", 2015), TitleQuery("Attention is all you need")]


def _search(name: str, script: list[tuple[int, bytes]], tmp: str) -> dict[Any, Any]:
    register = next(r for r in SEARCH_REGISTERS if r.name == name)
    calls = iter(range(10_000))

    def handle(call: Call) -> Response:
        status, body = script[next(calls) % len(script)]
        return Response(status=status, headers={}, body=body, url=call.url)

    net = FakeNet(registry.settings(cache_dir=tmp), handle)
    return asyncio.run(register().search(list(QUERIES), net))  # type: ignore[arg-type]


@settings(
    max_examples=examples(60), deadline=None, database=None, suppress_health_check=list(HealthCheck)
)
@given(
    name=st.sampled_from(sorted(r.name for r in SEARCH_REGISTERS)),
    script=answers(["10.5555/a", "1706.03762"]),
)
def test_fuzz_title_search_registers(
    tmp_path_factory: Any, name: str, script: list[tuple[int, bytes]]
) -> None:
    answers_ = _search(name, script, str(tmp_path_factory.getbasetemp()))
    assert set(answers_) == set(QUERIES)
    for answer in answers_.values():
        if answer.reason is not None:
            assert answer.reason in REASONS and not answer.candidates
        for candidate in answer.candidates:
            check_row(candidate)
        from_rows(list(answer.candidates), RECORDS)
