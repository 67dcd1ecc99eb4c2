"""The whole waterfall over loopback HTTP: every outcome, verdict and priority of the cases."""

from __future__ import annotations

from typing import Any

import pytest

from auditor.chinese.waterfall import WaterfallResult
from auditor.registers import registry
from tests.chinese.conftest import ChineseRegisters, waterfall
from tests.chinese.helpers import (
    FULLWIDTH,
    JOURNAL,
    OTHER_TITLE,
    TA,
    TITLE,
    csl,
    pubmed_doc,
    refs,
    verdicts_for,
)

D = "10.5555/cma.j.cn112137-20231008-00670"
CN = "10.13209/j.0479-8023.2020.001"


async def run(regs: ChineseRegisters, *rows: dict[str, Any], **settings: Any) -> WaterfallResult:
    references = refs(*rows)
    return await waterfall(regs.settings(**settings), references, verdicts_for(references), None)


def _records():
    from auditor import tables

    return tables.empty(tables.RECORDS)


def one(result: WaterfallResult, row_id: int = 0) -> dict[str, Any]:
    """Outcome row, verdict row and items of `row_id`."""
    out = [r for r in result.outcomes.to_pylist() if r["row_id"] == row_id][0]
    verdict = [r for r in result.verdicts.to_pylist() if r["row_id"] == row_id][0]
    items = [r for r in result.items.to_pylist() if r["row_id"] == row_id]
    return {"outcome": out, "verdict": verdict, "items": items}


async def test_english_row_makes_no_request_and_no_item(registers):
    result = await run(registers, {"title": "A study of mice", "doi": "10.5555/x1"})
    assert sum(registers.counts.values()) == 0
    assert result.outcomes.num_rows == 0 and result.items.num_rows == 0
    assert result.verdicts.to_pylist()[0]["verdict"] == "NOT COVERED"


@pytest.mark.parametrize(
    "cited", [TITLE, FULLWIDTH, f"《{TITLE}》", "宫颈腺癌中 ProEXC 和 PRMT5 的表达及其临床意义"]
)
async def test_istic_title_verified(registers, corpus, cited):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = csl(D)
    r = one(await run(registers, {"title": cited, "doi": D}))
    assert r["outcome"]["reason_code"] == "DOI_TITLE_VERIFIED"
    assert (r["outcome"]["status"], r["outcome"]["queried_by"]) == ("matched", "id")
    assert r["verdict"]["verdict"] == "RESOLVES-AND-MATCHES"
    assert r["verdict"]["title_register"] == TITLE
    assert r["items"] == []


async def test_istic_title_mismatch_is_p0(registers, corpus):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = csl(D)
    r = one(await run(registers, {"title": OTHER_TITLE, "doi": D}))
    assert r["outcome"]["reason_code"] == "DOI_TITLE_MISMATCH"
    assert r["verdict"]["verdict"] == "RESOLVES-BUT-DIFFERS"
    assert r["verdict"]["reason"] == "DOI_TITLE_MISMATCH"
    [item] = r["items"]
    assert item["priority"] == "P0" and item["human_result"] is None
    assert item["links"][0] == "https://doi.org/" + D


@pytest.mark.parametrize(
    ("csl_title", "cited"),
    [("Expression of ProEXC and PRMT5", TITLE), (None, TITLE), ("", TITLE), (TITLE, "   ")],
)
async def test_istic_unverifiable_is_p2_not_mismatch(registers, corpus, csl_title, cited):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = csl(D, title=csl_title) if csl_title is not None else {"DOI": D}
    r = one(await run(registers, {"title": cited, "container_title": JOURNAL, "doi": D}))
    assert r["outcome"]["reason_code"] == "DOI_EXISTS_TITLE_UNVERIFIABLE"
    assert r["verdict"]["verdict"] == "NOT COVERED"
    assert r["items"][0]["priority"] == "P2"
    assert "pending human check" in r["items"][0]["text"].lower()
    assert "fabricat" not in r["items"][0]["text"].lower()


async def test_editorial_matches_after_doi_lookup(registers, corpus):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = csl(D, title="Editorial")
    r = one(await run(registers, {"title": "Editorial", "language": "zh", "doi": D}))
    assert r["outcome"]["reason_code"] == "DOI_TITLE_VERIFIED"


async def test_istic_404_then_handle_absent_is_refuted(registers, corpus):
    corpus.agencies["10.5555"] = "ISTIC"
    r = one(await run(registers, {"title": TITLE, "doi": D}))
    assert r["outcome"]["reason_code"] == "DOI_REFUTED"
    assert r["verdict"]["verdict"] == "DOES-NOT-RESOLVE"
    assert r["items"][0]["priority"] == "P0"
    assert registers.counts["handle"] == 1


async def test_istic_404_then_handle_exists_is_p2(registers, corpus):
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.handles.add(D)
    r = one(await run(registers, {"title": TITLE, "doi": D}))
    assert r["outcome"]["reason_code"] == "DOI_EXISTS_TITLE_UNVERIFIABLE"
    assert r["outcome"]["queried_by"] == "title"
    assert r["items"][0]["priority"] == "P2"


async def test_cnki_exists_never_matches(registers, corpus):
    corpus.agencies["10.13209"] = "CNKI"
    corpus.handles.add(CN)
    r = one(await run(registers, {"title": TITLE, "doi": CN}))
    assert r["outcome"]["reason_code"] == "DOI_EXISTS_TITLE_UNVERIFIABLE"
    assert r["verdict"]["verdict"] == "NOT COVERED"
    assert registers.counts["doi_csl"] == 0  # CNKI pages are never fetched


async def test_cnki_absent_is_refuted(registers, corpus):
    corpus.agencies["10.13209"] = "CNKI"
    r = one(await run(registers, {"title": TITLE, "doi": CN}))
    assert r["outcome"]["reason_code"] == "DOI_REFUTED"
    assert r["outcome"]["queried_by"] == "id"


async def test_crossref_chinese_doi_is_out_of_scope_and_keeps_its_verdict(registers, corpus):
    corpus.agencies["10.1360"] = "Crossref"
    references = refs({"title": TITLE, "doi": "10.1360/abc"})

    before = verdicts_for(references, "RESOLVES-AND-MATCHES")
    result = await waterfall(registers.settings(), references, before, None)
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_RA_OUT_OF_SCOPE"]
    assert result.verdicts.equals(before)
    assert result.items.num_rows == 0  # its own leg matched it
    assert registers.counts["doi_csl"] == 0


async def test_crossref_out_of_scope_not_covered_gets_p3(registers, corpus):
    corpus.agencies["10.1360"] = "Crossref"
    r = one(await run(registers, {"title": TITLE, "doi": "10.1360/abc"}))
    assert r["verdict"]["verdict"] == "NOT COVERED"
    assert r["verdict"]["reason"] == "DOI_RA_OUT_OF_SCOPE"
    assert r["items"][0]["priority"] == "P3"


@pytest.mark.parametrize("kept", ["RESOLVES-BUT-DIFFERS", "UNCHECKED", "DOES-NOT-RESOLVE"])
async def test_crossref_out_of_scope_keeps_its_legs_verdict_and_item(registers, corpus, kept):
    corpus.agencies["10.1360"] = "Crossref"
    references = refs({"title": TITLE, "doi": "10.1360/abc"})
    before = verdicts_for(references, kept)
    result = await waterfall(registers.settings(), references, before, None)
    assert result.verdicts.equals(before)
    assert result.items.num_rows == 0  # the ordinary checklist words this row


async def test_unknown_agency_is_ra_unresolved_never_coordinates(registers, corpus):
    row = {
        "title": TITLE,
        "doi": "10.99999/zzz",
        "container_title": JOURNAL,
        "volume": "103",
        "pages": "3967",
    }
    r = one(await run(registers, row))
    assert r["outcome"]["reason_code"] == "DOI_RA_UNRESOLVED"
    assert r["outcome"]["status"] == "skipped"
    assert r["items"][0]["priority"] == "P2"
    assert registers.counts["esearch"] == 0


async def test_known_agency_skips_triage(registers, corpus):
    corpus.csl[D] = csl(D)
    references = refs({"title": "Romanized title only", "doi": D})

    result = await waterfall(
        registers.settings(),
        references,
        verdicts_for(references),
        None,
        known_agencies={0: "ISTIC"},
    )
    assert registers.counts["doira"] == 0
    # A Latin-only cited title against a CJK CSL title is unverifiable, not a mismatch.
    assert result.outcomes["reason_code"].to_pylist() == ["DOI_EXISTS_TITLE_UNVERIFIABLE"]


async def test_not_a_doi_makes_no_request(registers):
    r = one(await run(registers, {"title": TITLE, "doi": "not a doi", "id_type": "doi"}))
    assert sum(registers.counts.values()) == 0
    assert r["outcome"]["reason_code"] == "DOI_RA_UNRESOLVED"


# ---------------------------------------------------------------- no DOI: bridge and PubMed

VP = f'"{TA}"[ta] AND 103[vi] AND 3967[pg]'
COVER = f'"{TA}"[ta]'


def _cited(**extra: Any) -> dict[str, Any]:
    row = {
        "title": TITLE,
        "container_title": JOURNAL,
        "volume": "103",
        "pages": "3967-3971",
        "year": 2023,
        "authors": ["Cui Hongxia"],
    }
    row.update(extra)
    return row


async def test_unmapped_journal_is_p3_without_request(registers):
    r = one(await run(registers, _cited(container_title="某某大学学报")))
    assert r["outcome"]["reason_code"] == "NO_ISSN_MAPPING"
    assert r["items"][0]["priority"] == "P3"
    assert sum(registers.counts.values()) == 0
    # Decided from the local journal bridge: no register is named as the source.
    assert (r["verdict"]["register"], r["verdict"]["tier"]) == (None, None)


async def test_counterexample_journal_is_not_indexed_without_request(registers):
    r = one(await run(registers, _cited(container_title="中国全科医学")))
    assert r["outcome"]["reason_code"] == "JOURNAL_NOT_INDEXED"
    assert r["items"][0]["links"] == ["https://www.ncbi.nlm.nih.gov/nlmcatalog/101299195"]
    assert sum(registers.counts.values()) == 0


async def test_wrapped_journal_name_finds_the_bridge_row(registers, corpus):
    corpus.esearch[COVER] = ["1"]
    r = one(await run(registers, _cited(container_title="《中华医学杂志》")))
    assert r["outcome"]["reason_code"] == "PUBMED_INDEXED_BUT_COORDINATE_MISS"


async def test_journal_without_records_is_not_indexed(registers):
    r = one(await run(registers, _cited()))
    assert r["outcome"]["reason_code"] == "JOURNAL_NOT_INDEXED"
    assert registers.counts["esearch"] == 1


async def test_coordinate_miss_is_p1_never_does_not_resolve(registers, corpus):
    corpus.esearch[COVER] = ["38129175"]
    r = one(await run(registers, _cited(pages="9999")))
    assert r["outcome"]["reason_code"] == "PUBMED_INDEXED_BUT_COORDINATE_MISS"
    assert (r["outcome"]["status"], r["outcome"]["queried_by"]) == ("unmatched", "title")
    assert r["verdict"]["verdict"] == "NOT COVERED"
    assert r["items"][0]["priority"] == "P1"
    assert "fabricat" not in r["items"][0]["text"].lower()
    # never falls back to author/year after a zero result
    assert registers.counts["esearch"] == 2


async def test_ambiguous_attaches_no_record(registers, corpus):
    corpus.esearch[COVER] = ["1"]
    corpus.esearch[VP] = ["38129175", "38129176"]
    r = one(await run(registers, _cited()))
    assert r["outcome"]["reason_code"] == "PUBMED_COORDINATE_AMBIGUOUS"
    assert r["outcome"]["candidate_pmid"] is None
    assert r["items"][0]["priority"] == "P1"
    assert registers.counts["esummary"] == 0


async def test_single_hit_verified_through_istic_title(registers, corpus):
    corpus.esearch[COVER] = ["1"]
    corpus.esearch[VP] = ["38129175"]
    corpus.pubmed["38129175"] = pubmed_doc("38129175", doi=D)
    corpus.agencies["10.5555"] = "ISTIC"
    corpus.csl[D] = csl(D)
    r = one(await run(registers, _cited(title=FULLWIDTH)))
    assert r["outcome"]["reason_code"] == "PUBMED_COORDINATE_VERIFIED"
    assert (r["outcome"]["status"], r["outcome"]["queried_by"]) == ("matched", "title")
    assert r["verdict"]["verdict"] == "RESOLVES-AND-MATCHES"
    assert r["items"] == []
    params = registers.last_params["esearch"]
    assert params["email"] == "tester@example.org" and params["tool"]


@pytest.mark.parametrize(
    ("doc_extra", "agency", "csl_title", "why"),
    [
        ({"issn": "1111-1111"}, "ISTIC", TITLE, "issn"),
        ({"pubdate": "2019"}, "ISTIC", TITLE, "year"),
        ({"volume": "99"}, "ISTIC", TITLE, "volume"),
        ({}, "CNKI", TITLE, "not ISTIC"),
        ({}, "ISTIC", OTHER_TITLE, "title"),
        ({}, "ISTIC", "Expression of ProEXC", "title"),
        ({"articleids": []}, "ISTIC", TITLE, "no DOI"),
    ],
)
async def test_single_hit_candidate_unverified(
    registers, corpus, doc_extra, agency, csl_title, why
):
    corpus.esearch[COVER] = ["1"]
    corpus.esearch[VP] = ["38129175"]
    corpus.pubmed["38129175"] = pubmed_doc("38129175", doi=D, **doc_extra)
    corpus.agencies["10.5555"] = agency
    corpus.csl[D] = csl(D, title=csl_title)
    r = one(await run(registers, _cited()))
    assert r["outcome"]["reason_code"] == "PUBMED_COORDINATE_CANDIDATE_UNVERIFIED", why
    assert r["verdict"]["verdict"] == "NOT COVERED"
    assert r["items"][0]["priority"] == "P2"
    assert "https://pubmed.ncbi.nlm.nih.gov/38129175/" in r["items"][0]["links"]


async def test_author_year_only_when_volume_missing(registers, corpus):
    corpus.esearch[COVER] = ["1"]
    term = f'"{TA}"[ta] AND "Cui"[1au] AND 2023[dp]'
    corpus.esearch[term] = []
    r = one(await run(registers, _cited(volume=None)))
    assert r["outcome"]["reason_code"] == "PUBMED_INDEXED_BUT_COORDINATE_MISS"
    assert any(term in a for a in r["outcome"]["attempts"])


async def test_han_author_without_volume_is_insufficient(registers):
    r = one(await run(registers, _cited(volume=None, authors=["崔红霞"])))
    assert r["outcome"]["reason_code"] == "INSUFFICIENT_PUBMED_COORDINATES"
    assert r["items"][0]["priority"] == "P3"
    assert sum(registers.counts.values()) == 0


@pytest.mark.parametrize(
    "extra",
    [
        {"volume": "88[vi] OR 1"},
        {"pages": "8801[pg] OR 1"},
        {"pages": "1:9999"},
        {"volume": None, "authors": ['Chen" OR cancer[ti]']},
    ],
)
async def test_entrez_injection_refused_before_any_request(registers, extra):
    r = one(await run(registers, _cited(**extra)))
    assert r["outcome"]["reason_code"] == "INSUFFICIENT_PUBMED_COORDINATES"
    assert sum(registers.counts.values()) == 0


async def test_no_ncbi_email_skips_pubmed_with_reason(registers, corpus):
    corpus.esearch[COVER] = ["1"]
    r = one(await run(registers, _cited(), ncbi_email=None))
    assert registers.counts["esearch"] == 0
    assert r["outcome"]["status"] == "unchecked"
    assert r["outcome"]["reason_code"] == "ncbi_email_missing"
    assert r["verdict"]["verdict"] == "UNCHECKED"
    assert r["items"] == []


async def test_journal_map_extends_the_bridge(registers, corpus, tmp_path):
    path = tmp_path / "map.csv"
    path.write_text(
        "journal,issn,nlm_ta,nlm_id\n中国实验杂志,1234-5678,Zhongguo Shi Yan,1\n", encoding="utf-8"
    )
    corpus.esearch['"Zhongguo Shi Yan"[ta]'] = []
    r = one(await run(registers, _cited(container_title="中国实验杂志"), journal_map=str(path)))
    assert r["outcome"]["reason_code"] == "JOURNAL_NOT_INDEXED"
    assert registers.counts["esearch"] == 1


async def test_closed_legs_make_no_request_and_say_not_covered(registers, corpus):
    corpus.esearch[COVER] = ["1"]
    corpus.agencies["10.5555"] = "ISTIC"
    references = refs(_cited(), {"title": TITLE, "doi": D})
    settings = registers.settings(pmid_leg=False, doi_leg=False)
    result = await waterfall(settings, references, verdicts_for(references))
    assert sum(registers.counts.values()) == 0
    assert result.outcomes["reason_code"].to_pylist() == ["leg_closed", "leg_closed"]
    assert result.verdicts["verdict"].to_pylist() == ["NOT COVERED", "NOT COVERED"]
    assert result.verdicts["reason"].to_pylist() == ["leg_closed", "leg_closed"]


async def test_batching_off_asks_one_prefix_per_request(registers, corpus):
    for p in ("10.5555", "10.5556"):
        corpus.agencies[p] = "CNKI"
    references = refs({"title": TITLE, "doi": "10.5555/a"}, {"title": TITLE, "doi": "10.5556/a"})
    await waterfall(registers.settings(batching=False), references, verdicts_for(references))
    assert registers.counts["doira"] == 2


# ------------------------------------------------- no DOI, no journal: a type no index holds


@pytest.mark.parametrize(
    "extra",
    [
        {"entry_type": "book", "container_title": None},  # GB/T 7714 [M]
        {"entry_type": "phdthesis", "container_title": None},  # [D]
        {"entry_type": "standard", "container_title": None},  # [S]
        {"entry_type": "misc", "container_title": None},  # no venue to decide by
    ],
)
async def test_a_work_no_index_holds_is_not_indexed_type(registers, extra):
    r = one(await run(registers, _cited(**extra)))
    assert r["outcome"]["reason_code"] == "not_indexed_type"
    assert r["outcome"]["status"] == "skipped"
    assert (r["verdict"]["verdict"], r["verdict"]["reason"]) == ("NOT COVERED", "not_indexed_type")
    assert r["items"] == []  # the ordinary checklist gives its P3 item (see below)
    assert sum(registers.counts.values()) == 0


async def test_typed_article_and_untyped_row_still_use_the_bridge(registers):
    rows = [_cited(entry_type="article", container_title="某某大学学报"), _cited(entry_type=None)]
    result = await run(registers, *rows)
    assert result.outcomes["reason_code"].to_pylist()[0] == "NO_ISSN_MAPPING"
    assert result.outcomes["reason_code"].to_pylist()[1] != "not_indexed_type"


GBT_BOOK = """
@book{gbt:book,
  author        = {博伯尔},
  title         = {银行业的未来与人工智能},
  translator    = {徐超},
  address       = {北京},
  publisher     = {清华大学出版社},
  year          = {2023},
  pages         = {35},
  isbn          = {978-7-302-58978-5},
  langid        = {chinese}
}
"""


@pytest.mark.parametrize("criteria", ["auditor/v2", "reference-resolution/v1"])
async def test_chinese_book_audit_is_not_indexed_type_with_p3(tmp_path, criteria):
    from auditor.pipeline import run_audit

    bib = tmp_path / "gbt.bib"
    bib.write_text(GBT_BOOK, encoding="utf-8")
    s = registry.settings(cache_dir=str(tmp_path / "cache"), offline=True, criteria=criteria)
    result = await run_audit([str(bib)], s)
    (v,) = result.verdicts.to_pylist()
    assert (v["verdict"], v["reason"]) == ("NOT COVERED", "not_indexed_type")
    (item,) = result.checklist.to_pylist()
    assert item["priority"] == "P3" and "journal bridge" not in item["text"]
    assert "held by no index" in item["text"]
