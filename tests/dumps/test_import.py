"""Dump imports in each register's real shape: records, resume, safety, the title index."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pandas as pd
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.dumps import KINDS
from auditor.dumps.importer import import_dump
from auditor.dumps.interface import DumpReader, Skipped
from auditor.dumps.title_index import title_candidates
from auditor.registers import registry
from auditor.registers.interface import RecordRow
from auditor.tables import RECORDS
from auditor.transport.snapshot import lookup_snapshots
from tests.report.golden import check_golden

CROSSREF_WORK = {
    "DOI": "10.1038/nature14539", "type": "journal-article", "title": ["Deep learning"],
    "author": [{"given": "Yann", "family": "LeCun", "sequence": "first"},
               {"given": "Yoshua", "family": "Bengio", "sequence": "additional"}],
    "container-title": ["Nature"], "volume": "521", "issue": "7553", "page": "436-444",
    "published": {"date-parts": [[2015, 5, 27]]}, "issued": {"date-parts": [[2015, 5, 27]]},
    "updated-by": [{"DOI": "10.1038/retraction1", "type": "retraction", "label": "Retraction",
                    "updated": {"date-parts": [[2020, 1, 2]]}}],
}  # fmt: skip

PUBMED_XML = b"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">
<PubmedArticleSet>
<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">26017442</PMID>
<Article PubModel="Print"><Journal><ISSN IssnType="Electronic">1476-4687</ISSN>
<JournalIssue CitedMedium="Internet"><Volume>521</Volume><Issue>7553</Issue>
<PubDate><Year>2015</Year><Month>May</Month><Day>28</Day></PubDate></JournalIssue>
<Title>Nature</Title><ISOAbbreviation>Nature</ISOAbbreviation></Journal>
<ArticleTitle>Deep <i>learning</i>.</ArticleTitle><Pagination><MedlinePgn>436-44</MedlinePgn>
</Pagination>
<AuthorList CompleteYN="Y"><Author ValidYN="Y"><LastName>LeCun</LastName><ForeName>Yann</ForeName>
<Initials>Y</Initials></Author>
<Author ValidYN="Y"><LastName>Bengio</LastName><ForeName>Yoshua</ForeName><Initials>Y</Initials>
</Author></AuthorList>
<Language>eng</Language><PublicationTypeList>
<PublicationType UI="D016428">Journal Article</PublicationType>
<PublicationType UI="D016441">Retracted Publication</PublicationType></PublicationTypeList>
</Article>
<MedlineJournalInfo><MedlineTA>Nature</MedlineTA></MedlineJournalInfo>
<CommentsCorrectionsList><CommentsCorrections RefType="RetractionIn">
<RefSource>Nature. 2020 Jan;1:1</RefSource><PMID Version="1">99999999</PMID></CommentsCorrections>
</CommentsCorrectionsList>
</MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">26017442</ArticleId>
<ArticleId IdType="doi">10.1038/nature14539</ArticleId></ArticleIdList></PubmedData>
</PubmedArticle>
<PubmedArticle><MedlineCitation><PMID Version="1">1</PMID><Article><Journal><JournalIssue>
<PubDate><MedlineDate>1975 Jun-Jul</MedlineDate></PubDate></JournalIssue></Journal>
<ArticleTitle>Formate assay in body fluids.</ArticleTitle><AuthorList><Author>
<CollectiveName>Study Group</CollectiveName></Author></AuthorList>
</Article></MedlineCitation></PubmedArticle>
</PubmedArticleSet>
"""

ARXIV_LINES = [
    {"id": "1706.03762", "submitter": "Ashish Vaswani", "authors": "Ashish Vaswani, Noam Shazeer",
     "title": "Attention Is All You\n  Need", "journal-ref": None, "doi": None,
     "versions": [{"version": "v1", "created": "Mon, 12 Jun 2017 17:57:34 GMT"},
                  {"version": "v7", "created": "Wed, 2 Aug 2023 00:41:18 GMT"}],
     "update_date": "2023-08-03",
     "authors_parsed": [["Vaswani", "Ashish", ""], ["Shazeer", "Noam", ""]]},
    {"id": "hep-th/9901001", "title": "Old style", "authors_parsed": [["Doe", "J.", ""]],
     "versions": [{"version": "v1", "created": "Fri, 1 Jan 1999 00:00:00 GMT"}]},
]  # fmt: skip

DATACITE_LINE = {
    "id": "10.5281/zenodo.1234", "type": "dois",
    "attributes": {"doi": "10.5281/zenodo.1234", "titles": [{"title": "A dataset of things"}],
                   "creators": [{"name": "Roe, Rita", "familyName": "Roe", "givenName": "Rita"}],
                   "publicationYear": 2021, "publisher": "Zenodo",
                   "types": {"resourceTypeGeneral": "Dataset"}, "relatedIdentifiers": []},
}  # fmt: skip

DBLP_XML = b"""<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE dblp SYSTEM "dblp.dtd">
<dblp>
<article mdate="2020-01-01" key="journals/cacm/Knuth74">
<author>Donald E. Knuth</author><author>J&ouml;rg M&uuml;ller 0001</author>
<title>Computer Programming as an Art &amp; a Craft.</title>
<pages>667-673</pages><year>1974</year><volume>17</volume><journal>Commun. ACM</journal>
<number>12</number><ee>https://doi.org/10.1145/361604.361612</ee></article>
<inproceedings key="conf/x/Y20"><author>Ana Garc&iacute;a</author>
<title>Sub<sub>2</sub> titles</title>
<year>2020</year><booktitle>X</booktitle></inproceedings>
</dblp>
"""


def _write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    return str(path)


def _rows(out: Path) -> dict[str, dict]:
    table = ds.dataset(str(out / "records"), format="parquet").to_table()
    assert table.schema == RECORDS
    return {r["identifier"]: r for r in table.to_pylist()}


def test_crossref_items_file_and_json_lines(tmp_path: Path) -> None:
    items = _write(tmp_path, "0.json.gz", json.dumps({"items": [CROSSREF_WORK]}).encode())
    other = {**CROSSREF_WORK, "DOI": "10.1000/Second", "title": ["Second"]}
    lines = _write(tmp_path, "works.jsonl", (json.dumps(other) + "\n{broken\n").encode())
    summary = import_dump(KINDS["crossref"](), [items, lines], str(tmp_path / "snap"))
    assert summary.records == 2 and summary.skipped_count == 1
    rows = _rows(tmp_path / "snap")
    work = rows["10.1038/nature14539"]
    assert (work["register"], work["title"], work["year"]) == ("crossref", "Deep learning", 2015)
    assert work["surnames"] == ["LeCun", "Bengio"] and work["tier"] == "snapshot"
    assert work["updates"][0]["type"] == "retraction"
    assert "10.1000/second" in rows


def test_pubmed_baseline_xml_reads_like_esummary(tmp_path: Path) -> None:
    path = _write(tmp_path, "pubmed25n0001.xml.gz", PUBMED_XML)
    import_dump(KINDS["pubmed"](), [path], str(tmp_path / "snap"))
    rows = _rows(tmp_path / "snap")
    deep = rows["26017442"]
    assert deep["title"] == "Deep learning." and deep["surnames"] == ["LeCun", "Bengio"]
    assert (deep["year"], deep["doi"], deep["pages"]) == (2015, "10.1038/nature14539", "436-44")
    assert {u["type"] for u in deep["updates"]} == {"retraction"}
    assert rows["1"]["year"] == 1975 and rows["1"]["surnames"] == ["Study"]


def test_arxiv_and_datacite_json_lines(tmp_path: Path) -> None:
    arxiv = _write(tmp_path, "arxiv.json", "\n".join(map(json.dumps, ARXIV_LINES)).encode())
    import_dump(KINDS["arxiv"](), [arxiv], str(tmp_path / "a"))
    rows = _rows(tmp_path / "a")
    att = rows["1706.03762"]
    assert (att["title"], att["year"], att["version"]) == ("Attention Is All You Need", 2017, 7)
    assert att["surnames"] == ["Vaswani", "Shazeer"] and "hep-th/9901001" in rows
    datacite = _write(tmp_path, "datacite.jsonl.gz", json.dumps(DATACITE_LINE).encode())
    import_dump(KINDS["datacite"](), [datacite], str(tmp_path / "d"))
    row = _rows(tmp_path / "d")["10.5281/zenodo.1234"]
    assert (row["register"], row["surnames"], row["year"]) == ("datacite", ["Roe"], 2021)


def test_dblp_entities_are_mapped_and_nothing_is_expanded(tmp_path: Path) -> None:
    path = _write(tmp_path, "dblp.xml.gz", DBLP_XML)
    import_dump(KINDS["dblp"](), [path], str(tmp_path / "snap"))
    rows = _rows(tmp_path / "snap")
    knuth = rows["journals/cacm/Knuth74"]
    assert knuth["authors"] == ["Donald E. Knuth", "Jörg Müller 0001"]
    assert knuth["surnames"] == ["Knuth", "Müller"]
    assert knuth["title"] == "Computer Programming as an Art & a Craft"
    assert knuth["doi"] == "10.1145/361604.361612" and knuth["id_type"] == "dblp"
    assert rows["conf/x/Y20"]["title"] == "Sub2 titles"
    bomb = b'<?xml version="1.0"?><!DOCTYPE dblp [<!ENTITY a "aaaaaaaaaa">'
    bomb += b'<!ENTITY b "&a;&a;&a;">]>'
    bomb += b'<dblp><article key="k"><title>&b;</title></article></dblp>'
    evil = _write(tmp_path, "evil.xml", bomb)
    summary = import_dump(KINDS["dblp"](), [evil], str(tmp_path / "evil"))
    assert summary.records == 0 and summary.skipped_count == 1
    assert "unreadable XML" in summary.skipped[0].why


class _Dying(DumpReader):
    """A reader that stops the run (like Ctrl-C) after `after` records."""

    kind = "crossref"

    def __init__(self, after: int) -> None:
        self.after = after

    def records(self, stream: BinaryIO, path: str) -> Iterator[RecordRow | Skipped]:
        for n, item in enumerate(KINDS["crossref"]().records(stream, path)):
            if n == self.after:
                raise KeyboardInterrupt
            yield item


def test_an_interrupted_import_resumes_to_the_same_dataset(tmp_path: Path) -> None:
    works = [{**CROSSREF_WORK, "DOI": f"10.5555/w{i}", "title": [f"Work {i}"]} for i in range(7)]
    path = _write(tmp_path, "works.jsonl", "\n".join(map(json.dumps, works)).encode())
    clean = tmp_path / "clean"
    import_dump(KINDS["crossref"](), [path], str(clean), part_rows=2)
    resumed = tmp_path / "resumed"
    with pytest.raises(KeyboardInterrupt):
        import_dump(_Dying(5), [path], str(resumed), part_rows=2)
    assert len(list((resumed / ".import").glob("*.parquet"))) == 2  # two full parts kept aside
    assert not list((resumed / "records").iterdir())  # none published before the import ends
    again = import_dump(KINDS["crossref"](), [path], str(resumed), part_rows=2)
    assert again.records == 3  # only what the first run had not written
    assert _rows(resumed) == _rows(clean)
    assert import_dump(KINDS["crossref"](), [path], str(resumed)).resumed_inputs == 1


def test_title_index_finds_candidates_and_the_dataset_is_a_snapshot(tmp_path: Path) -> None:
    works = [
        CROSSREF_WORK,
        {**CROSSREF_WORK, "DOI": "10.5555/other", "title": ["Shallow learning of the deep"]},
        {**CROSSREF_WORK, "DOI": "10.5555/far", "title": ["Unrelated botany"]},
    ]
    path = _write(tmp_path, "works.jsonl", "\n".join(map(json.dumps, works)).encode())
    out = tmp_path / "snap"
    result = CliRunner().invoke(app, ["snapshot", "import", "crossref", path, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / "title_index").iterdir()) == ["tokens.parquet"]  # no spill
    found = title_candidates(str(out), "Deep Learning")
    assert [c["identifier"] for c in found][:2] == ["10.1038/nature14539", "10.5555/other"]
    assert found[0]["shared_tokens"] == 2 and found[0]["title"] == "Deep learning"
    assert title_candidates(str(out), "zzz qqq") == []
    # The import folder itself is a snapshot: the title index inside it is not read as records.
    hit = lookup_snapshots([str(out)], [("doi", "10.1038/nature14539")])
    assert hit[("doi", "10.1038/nature14539")]["title"] == "Deep learning"


def test_titles_asked_together_get_what_each_gets_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from auditor.dumps import title_index

    words = ["deep", "learning", "graph", "neural", "protein", "folding", "quantum", "network"]
    works = [
        {**CROSSREF_WORK, "DOI": f"10.5555/w{k}", "title": [" ".join(words[k % 5 : k % 5 + 3])]}
        for k in range(12)
    ]
    path = _write(tmp_path, "works.jsonl", "\n".join(map(json.dumps, works)).encode())
    out = tmp_path / "snap"
    import_dump(KINDS["crossref"](), [path], str(out))
    titles = ["Deep learning", "graph neural network", "zzz", "", "protein folding", "the and"]
    # The oracle: each title's tokens counted against the index rows, in Python.
    index = pq.read_table(out / "title_index" / "tokens.parquet").to_pylist()
    expected = {}
    for title in titles:
        tokens = set(title_index.title_tokens(title))
        shared: dict[str, int] = {}
        for row in index:
            if row["token"] in tokens:
                shared[row["identifier"]] = shared.get(row["identifier"], 0) + 1
        best = sorted(shared.items(), key=lambda kv: (-kv[1], kv[0]))[:3]
        if best:
            expected[title] = [(ident, n, len(tokens)) for ident, n in best]
    monkeypatch.setattr(title_index, "TITLES_PER_QUERY", 2)  # several queries, one answer
    got = title_index.title_candidates_many(str(out), titles, limit=3)
    assert {
        t: [(c["identifier"], c["shared_tokens"], c["title_tokens"]) for c in found]
        for t, found in got.items()
    } == expected
    for title in titles:
        assert title_index.title_candidates(str(out), title, limit=3) == got.get(title, [])


def test_unknown_kind_and_missing_file_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["snapshot", "import", "nope", "x", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and "unknown dump kind" in bad.output
    gone = runner.invoke(
        app, ["snapshot", "import", "arxiv", str(tmp_path / "absent.json"), "--out", str(tmp_path)]
    )
    assert gone.exit_code == 2 and "no such file" in " ".join(gone.output.split())


async def test_the_title_index_is_the_search_stages_snapshot_tier(tmp_path: Path) -> None:
    from auditor.registers.dblp import DblpRegister
    from auditor.registers.interface import TitleQuery
    from auditor.search.tiers import Tiers as _Tiers
    from auditor.transport.cache import RecordCache

    out = tmp_path / "dblp"
    import_dump(KINDS["dblp"](), [_write(tmp_path, "dblp.xml", DBLP_XML)], str(out))
    settings = registry.settings(offline=True, snapshots=(str(out),), cache_dir=str(tmp_path / "c"))
    cache = RecordCache.open(settings.cache_dir, ttl_days=30)
    try:
        known = TitleQuery("Computer programming as an art and a craft", "Knuth", 1974)
        unknown = TitleQuery("Nothing like it anywhere", None, None)
        got = await _Tiers(settings, None, cache).ask(DblpRegister(), [known, unknown])
    finally:
        cache.close()
    answer, tier = got[known]
    assert tier == "snapshot" and answer.candidates[0]["identifier"] == "journals/cacm/Knuth74"
    # No candidate in a dump is not "no such work" (a dump may be partial): offline, unchecked.
    assert got[unknown][0].reason == "offline" and got[unknown][1] is None


def test_each_format_imports_to_its_golden_records_and_title_index(
    tmp_path: Path, update_golden: bool
) -> None:
    """Every column of every record and every index row, pinned: a faster reader is the same."""
    dumps = {
        "crossref": ("works.jsonl", "\n".join(json.dumps(w) for w in (
            CROSSREF_WORK, {**CROSSREF_WORK, "DOI": "10.1000/X", "title": ["Ünïcode ☃ title"]}
        )).encode()),
        "pubmed": ("pubmed25n0001.xml.gz", PUBMED_XML),
        "arxiv": ("arxiv.json", "\n".join(map(json.dumps, ARXIV_LINES)).encode()),
        "datacite": ("datacite.jsonl", json.dumps(DATACITE_LINE).encode()),
        "dblp": ("dblp.xml", DBLP_XML),
    }  # fmt: skip
    found: dict[str, object] = {}
    for kind, (name, data) in dumps.items():
        path = _write(tmp_path, name, data)
        os.utime(path, (1_767_225_600, 1_767_225_600))  # the as-of: 2026-01-01
        out = tmp_path / kind
        import_dump(KINDS[kind](), [path], str(out))
        records = ds.dataset(str(out / "records"), format="parquet").to_table()
        index = pq.read_table(out / "title_index" / "tokens.parquet")
        found[kind] = {
            "records": sorted(records.to_pylist(), key=lambda r: r["identifier"]),
            "title_index": sorted(index.to_pylist(), key=lambda r: (r["token"], r["identifier"])),
        }
    text = json.dumps(found, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    check_golden("dump-imports.json", text, update_golden)


def test_an_import_of_each_format_gives_records_the_offline_audit_matches(
    tmp_path: Path, isolated: Path
) -> None:
    """A bibliography citing one record of each dump, audited from the imports alone."""
    dumps = {
        "crossref": ("works.jsonl.gz", json.dumps(CROSSREF_WORK).encode()),
        "pubmed": ("pubmed25n0001.xml.gz", PUBMED_XML),
        "arxiv": ("arxiv.json", "\n".join(map(json.dumps, ARXIV_LINES)).encode()),
        "datacite": ("datacite.jsonl.gz", json.dumps(DATACITE_LINE).encode()),
        "dblp": ("dblp.xml.gz", DBLP_XML),
    }
    snapshots: list[str] = []
    for kind, (name, data) in dumps.items():
        out = tmp_path / kind
        result = CliRunner().invoke(
            app, ["snapshot", "import", kind, _write(tmp_path, name, data), "--out", str(out)]
        )
        assert result.exit_code == 0, result.output
        snapshots += ["--snapshot", str(out)]
    bib = tmp_path / "refs.bib"
    bib.write_text(
        """
@article{lecun, title = {Deep learning}, author = {LeCun, Yann and Bengio, Yoshua},
  journal = {Nature}, year = {2015}, doi = {10.1038/nature14539}}
@article{formate, title = {Formate assay in body fluids}, author = {{Study Group}},
  year = {1975}, pmid = {1}}
@misc{vaswani, title = {Attention Is All You Need}, author = {Vaswani, Ashish and Shazeer, Noam},
  year = {2017}, eprint = {1706.03762}, archivePrefix = {arXiv}}
@misc{roe, title = {A dataset of things}, author = {Roe, Rita}, year = {2021},
  doi = {10.5281/zenodo.1234}}
@article{knuth, title = {Computer Programming as an Art and a Craft},
  author = {Knuth, Donald E.}, journal = {Commun. ACM}, year = {1974}}
""",
        encoding="utf-8",
    )
    report = tmp_path / "report"
    args = ["audit", str(bib), "--offline", *snapshots, "--out", str(report), "--quiet"]
    args += ["--cache-dir", str(tmp_path / "empty-cache"), "--fail-on", "none"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    verdicts = pd.read_parquet(report / "verdicts.parquet").set_index("key")
    assert dict(verdicts["verdict"]) == dict.fromkeys(
        ["lecun", "formate", "vaswani", "roe", "knuth"], "RESOLVES-AND-MATCHES"
    ), verdicts[["verdict", "reason"]]
    assert set(verdicts["tier"]) == {"snapshot"}
    found = verdicts[["register", "queried_by", "identifier"]].to_dict("index")
    assert found == {
        "lecun": {"register": "crossref", "queried_by": "id", "identifier": "10.1038/nature14539"},
        "formate": {"register": "pubmed", "queried_by": "id", "identifier": "1"},
        "vaswani": {"register": "arxiv", "queried_by": "id", "identifier": "1706.03762"},
        "roe": {"register": "datacite", "queried_by": "id", "identifier": "10.5281/zenodo.1234"},
        # No identifier cited: found through the DBLP import's title index, offline.
        "knuth": {"register": "dblp", "queried_by": "title", "identifier": "journals/cacm/Knuth74"},
    }


_KILLED_CHILD = """
import os, signal, sys
from auditor.dumps import KINDS, importer
path, out, where = sys.argv[1:4]
reader = KINDS["crossref"]()
if where == "reading":
    records = reader.records
    def dying(stream, name):
        for n, item in enumerate(records(stream, name)):
            if n == 5:
                os.kill(os.getpid(), signal.SIGKILL)  # no unwinding, no cleanup
            yield item
    reader.records = dying
else:  # killed after a part is written, before the state says so
    save = importer._save_state
    calls = []
    def dying_save(target, state):
        calls.append(1)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        save(target, state)
    importer._save_state = dying_save
importer.import_dump(reader, [path], out, part_rows=2)
"""


@pytest.mark.parametrize("where", ["reading", "between_part_and_state"])
def test_an_import_killed_mid_way_resumes_to_the_same_dataset(tmp_path: Path, where: str) -> None:
    import subprocess
    import sys

    works = [{**CROSSREF_WORK, "DOI": f"10.5555/k{i}", "title": [f"Killed {i}"]} for i in range(7)]
    path = _write(tmp_path, "works.jsonl.gz", "\n".join(map(json.dumps, works)).encode())
    clean = tmp_path / "clean"
    import_dump(KINDS["crossref"](), [path], str(clean), part_rows=2)
    resumed = tmp_path / "resumed"
    child = subprocess.run(
        [sys.executable, "-c", _KILLED_CHILD, path, str(resumed), where], capture_output=True
    )
    assert child.returncode == -9, child.stderr.decode()
    assert not (resumed / "title_index").exists()
    parts = sorted(p.name for p in (resumed / ".import").glob("*.parquet"))
    assert len(parts) == 2 and not list((resumed / ".import").glob(".*"))  # no half-written part
    assert not list((resumed / "records").iterdir())
    again = import_dump(KINDS["crossref"](), [path], str(resumed), part_rows=2)
    assert again.records == (3 if where == "reading" else 5)
    assert _rows(resumed) == _rows(clean)
    order = [("token", "ascending"), ("identifier", "ascending")]
    index = pq.read_table(resumed / "title_index" / "tokens.parquet").sort_by(order)
    assert index.equals(pq.read_table(clean / "title_index" / "tokens.parquet").sort_by(order))


def test_an_update_file_s_deleted_citations_do_not_resolve(tmp_path: Path) -> None:
    baseline = _write(tmp_path, "pubmed25n0001.xml.gz", PUBMED_XML)
    update = _write(
        tmp_path,
        "pubmed25n1275.xml.gz",
        b"""<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2025//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_250101.dtd">
<PubmedArticleSet>
<PubmedBookArticle><BookDocument><PMID Version="1">20301295</PMID></BookDocument>
</PubmedBookArticle>
<DeleteCitation>
<PMID Version="1">1</PMID>
<PMID Version="1">not-a-pmid</PMID>
</DeleteCitation>
</PubmedArticleSet>
""",
    )
    summary = import_dump(KINDS["pubmed"](), [baseline, update], str(tmp_path / "snap"))
    assert summary.skipped_count == 2
    assert "Bookshelf" in summary.skipped[0].why
    assert "deleted citation 2" in summary.skipped[1].where
    rows = lookup_snapshots(
        [str(tmp_path / "snap" / "records")], [("pmid", "1"), ("pmid", "26017442")]
    )
    assert rows[("pmid", "1")]["status"] == "not_found"
    assert rows[("pmid", "1")]["reason"] == "not_found"
    assert rows[("pmid", "26017442")]["status"] == "found"
    # Given before the baseline, the deletion is older than the record: the record stands.
    again = import_dump(KINDS["pubmed"](), [update, baseline], str(tmp_path / "other"))
    assert again.records == summary.records
    rows = lookup_snapshots([str(tmp_path / "other" / "records")], [("pmid", "1")])
    assert rows[("pmid", "1")]["status"] == "found"
    # The title index holds found records only.
    assert title_candidates(str(tmp_path / "snap"), "Formate assay in body fluids") == []


def test_a_citation_of_a_deleted_pmid_does_not_resolve_offline(
    tmp_path: Path, isolated: Path
) -> None:
    baseline = _write(tmp_path, "pubmed25n0001.xml.gz", PUBMED_XML)
    update = _write(
        tmp_path,
        "pubmed25n1275.xml",
        b"<PubmedArticleSet><DeleteCitation><PMID Version='1'>1</PMID></DeleteCitation>"
        b"</PubmedArticleSet>",
    )
    out = tmp_path / "snap"
    result = CliRunner().invoke(
        app, ["snapshot", "import", "pubmed", baseline, update, "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{formate, title = {Formate assay in body fluids}, author = {{Study Group}},\n"
        "  year = {1975}, pmid = {1}}\n",
        encoding="utf-8",
    )
    report = tmp_path / "report"
    args = ["audit", str(bib), "--offline", "--snapshot", str(out), "--out", str(report)]
    args += ["--quiet", "--cache-dir", str(tmp_path / "cache"), "--fail-on", "none"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    verdicts = pd.read_parquet(report / "verdicts.parquet")
    assert verdicts["verdict"].tolist() == ["DOES-NOT-RESOLVE"]
