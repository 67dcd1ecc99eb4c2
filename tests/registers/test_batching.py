"""Register `fetch`: batching, splitting a failing batch, confirming absences, faults as rows."""

from __future__ import annotations

from auditor.errors import Reason, Unreachable
from auditor.registers.arxiv import ArxivRegister
from auditor.registers.crossref import CrossrefRegister
from auditor.registers.doi import DoiSystemRegister
from auditor.registers.pubmed import POST_ABOVE, PubmedRegister
from auditor.settings import Settings

from .fakenet import Call, FakeNet, reply


def _work(doi: str) -> dict:
    return {
        "DOI": doi,
        "title": [f"Title of {doi}"],
        "author": [{"family": "Doe"}],
        "issued": {"date-parts": [[2020]]},
    }


def crossref_handler(known: set[str], poison: frozenset[str] = frozenset()):
    def handle(call: Call):
        if call.url.endswith("/works"):
            dois = [p.removeprefix("doi:") for p in call.params["filter"].split(",")]
            if poison & set(dois):
                return reply(b"<html>oops", 200)
            items = [_work(d) for d in dois if d in known]
            return reply({"status": "ok", "message-type": "work-list", "message": {"items": items}})
        doi = call.url.split("/works/", 1)[1]
        if doi in poison:
            return reply(b"<html>oops", 200)
        if doi in known:
            return reply({"status": "ok", "message-type": "work", "message": _work(doi)})
        return reply(b"Resource not found.", 404)

    return handle


async def test_crossref_batches_and_confirms_absences(tmp_path):
    dois = [f"10.5555/n{i}" for i in range(45)]
    known = set(dois) - {"10.5555/n3"}
    net = FakeNet(Settings(cache_dir=str(tmp_path)), crossref_handler(known))
    rows = await CrossrefRegister().fetch(dois, net)
    assert len(rows) == 45
    assert rows["10.5555/n3"]["status"] == "not_found"
    assert rows["10.5555/n3"]["reason"] == "not_in_crossref"
    filters = [c for c in net.calls if c.url.endswith("/works")]
    singles = [c for c in net.calls if "/works/" in c.url]
    assert len(filters) == 3  # 20 + 20 + 5
    assert net.progress[-1] == ("crossref", 45, 45)
    assert [c.url.rsplit("/works/", 1)[1] for c in singles] == ["10.5555/n3"]


async def test_crossref_poisoned_batch_costs_only_its_row(tmp_path):
    dois = [f"10.5555/n{i}" for i in range(8)]
    net = FakeNet(
        Settings(cache_dir=str(tmp_path)),
        crossref_handler(set(dois), poison=frozenset({"10.5555/n5"})),
    )
    rows = await CrossrefRegister().fetch(dois, net)
    assert rows["10.5555/n5"]["status"] == "unreachable"
    assert rows["10.5555/n5"]["reason"] == "malformed_body"
    assert all(rows[d]["status"] == "found" for d in dois if d != "10.5555/n5")


async def test_crossref_without_batching_is_one_request_per_doi(tmp_path):
    dois = [f"10.5555/n{i}" for i in range(5)]
    net = FakeNet(Settings(cache_dir=str(tmp_path), batching=False), crossref_handler(set(dois)))
    await CrossrefRegister().fetch(dois, net)
    assert len(net.calls) == 5 and all("/works/" in c.url for c in net.calls)


async def test_register_down_every_row_unreachable_and_bounded(tmp_path):
    def down(call: Call):
        raise Unreachable("503", Reason.HTTP_5XX)

    pmids = [str(10000 + i) for i in range(150)]
    net = FakeNet(Settings(cache_dir=str(tmp_path)), down)
    rows = await PubmedRegister().fetch(pmids, net)
    assert {r["status"] for r in rows.values()} == {"unreachable"}
    assert {r["reason"] for r in rows.values()} == {"http_5xx"}
    # six failed requests in a row open the breaker: the split tree is not walked
    assert len(net.calls) <= 12


def esummary_handler(known: set[str]):
    def handle(call: Call):
        ids = (call.data or call.params)["id"].split(",")
        result: dict = {"uids": ids}
        for pmid in ids:
            if pmid in known:
                result[pmid] = {
                    "uid": pmid,
                    "title": f"T{pmid}",
                    "pubdate": "2001 Jan",
                    "authors": [{"name": "Smith J"}],
                }
            else:
                result[pmid] = {"uid": pmid, "error": "cannot get document summary"}
        return reply({"header": {"type": "esummary"}, "result": result})

    return handle


async def test_pubmed_one_request_and_post_above_threshold(tmp_path):
    pmids = [str(20000 + i) for i in range(POST_ABOVE + 50)]
    net = FakeNet(Settings(cache_dir=str(tmp_path)), esummary_handler(set(pmids[1:])))
    rows = await PubmedRegister().fetch(pmids, net)
    assert len(net.calls) == 1 and net.calls[0].method == "POST"
    assert rows[pmids[0]]["status"] == "not_found"
    assert rows[pmids[1]]["surnames"] == ["Smith"]
    small = FakeNet(Settings(cache_dir=str(tmp_path)), esummary_handler(set(pmids)))
    await PubmedRegister().fetch(pmids[:150], small)
    assert len(small.calls) == 1 and small.calls[0].method == "GET"


async def test_arxiv_batch_split_isolates_a_malformed_id(tmp_path):
    def handle(call: Call):
        ids = call.params["id_list"].split(",")
        if "bad" in ids:
            return reply(
                b"<?xml version='1.0'?><feed xmlns='http://www.w3.org/2005/Atom'>"
                b"<entry><id>https://arxiv.org/api/errors#incorrect_id_format_for_bad</id>"
                b"<title>Error</title></entry></feed>",
                400,
            )
        entries = "".join(
            f"<entry><id>http://arxiv.org/abs/{i}v1</id><title>T {i}</title>"
            f"<published>2020-01-01T00:00:00Z</published><author><name>A B</name></author></entry>"
            for i in ids
        )
        xml = f"<feed xmlns='http://www.w3.org/2005/Atom'>{entries}</feed>"
        return reply(xml.encode())

    ids = ["2001.00001", "2001.00002", "bad", "2001.00003"]
    net = FakeNet(Settings(cache_dir=str(tmp_path)), handle)
    rows = await ArxivRegister().fetch(ids, net)
    assert rows["bad"]["status"] == "not_found"
    assert all(rows[i]["status"] == "found" for i in ids if i != "bad")


async def test_doi_system_settles_and_falls_back_to_handle(tmp_path):
    def handle(call: Call):
        if call.register == "doi":
            return reply(
                [
                    {"DOI": "10.5281/zenodo.1", "RA": "DataCite"},
                    {"DOI": "10.9999/none", "status": "DOI does not exist"},
                    {"DOI": "10.5555/ra-crossref", "RA": "Crossref"},
                ]
            )
        doi = call.url.split("/api/handles/", 1)[1]
        if doi == "10.5555/ra-crossref":
            return reply({"responseCode": 1, "handle": doi, "values": []})
        if doi == "10.5555/unlisted":
            raise Unreachable("reset", Reason.CONNECTION_ERROR)
        return reply({"responseCode": 100, "handle": doi}, 404)

    dois = ["10.5281/zenodo.1", "10.9999/none", "10.5555/ra-crossref", "10.5555/unlisted"]
    net = FakeNet(Settings(cache_dir=str(tmp_path)), handle)
    rows = await DoiSystemRegister().fetch(dois, net)
    assert rows["10.5281/zenodo.1"]["reason"] == "registered_with_datacite"
    assert rows["10.9999/none"]["status"] == "not_found"
    assert rows["10.5555/ra-crossref"]["status"] == "not_covered"
    assert rows["10.5555/ra-crossref"]["reason"] == "not_in_crossref"
    assert rows["10.5555/unlisted"]["status"] == "unreachable"
    assert net.count("doi") == 1


async def test_doira_down_handle_decides(tmp_path):
    def handle(call: Call):
        if call.register == "doi":
            raise Unreachable("503", Reason.HTTP_5XX)
        doi = call.url.split("/api/handles/", 1)[1]
        return reply({"responseCode": 100, "handle": doi}, 404)

    net = FakeNet(Settings(cache_dir=str(tmp_path)), handle)
    rows = await DoiSystemRegister().fetch(["10.9999/a"], net)
    assert rows["10.9999/a"]["status"] == "not_found"
    assert rows["10.9999/a"]["register"] == "handle"


async def test_crossref_refusing_batches_still_answers_every_doi(tmp_path):
    dois = [f"10.5555/n{i}" for i in range(45)]
    healthy = crossref_handler(set(dois))

    def no_filter(call: Call):
        if call.url.endswith("/works"):
            return reply(
                {
                    "status": "failed",
                    "message-type": "validation-failure",
                    "message": [{"type": "parameter-not-allowed"}],
                },
                400,
            )
        return healthy(call)

    net = FakeNet(Settings(cache_dir=str(tmp_path)), no_filter)
    rows = await CrossrefRegister().fetch(dois, net)
    assert {r["status"] for r in rows.values()} == {"found"}
