"""Builders of REFERENCES / VERDICTS tables for the waterfall tests."""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from auditor import tables

TITLE = "宫颈腺癌中ProEXC和PRMT5的表达及其临床意义"
FULLWIDTH = "宫颈腺癌中ＰｒｏＥＸＣ和ＰＲＭＴ５的表达及其临床意义。"
OTHER_TITLE = "宫颈癌及癌前病变组织hTERC基因表达及其临床意义"
JOURNAL = "中华医学杂志"
TA = "Zhonghua Yi Xue Za Zhi"


def refs(*rows: dict[str, Any]) -> pa.Table:
    """A REFERENCES table; each row gets a row_id, source and key unless given."""
    out = []
    for i, row in enumerate(rows):
        full = {"row_id": i, "source_path": "refs.bib", "source_line": 1 + 10 * i, "key": f"r{i}"}
        full.update(row)
        if full.get("doi") and "id_type" not in row:
            full["id_type"], full["identifier"] = "doi", full["doi"]
        out.append(full)
    return tables.from_rows(out, tables.REFERENCES)


def verdicts_for(references: pa.Table, verdict: str = "NOT COVERED") -> pa.Table:
    """A VERDICTS table as compare would leave it before the waterfall."""
    rows = [
        {
            "row_id": r["row_id"],
            "source_path": r["source_path"],
            "source_line": r["source_line"],
            "key": r["key"],
            "verdict": verdict,
            "reason": "no_identifier" if not r["doi"] else "not_in_crossref",
            "criteria_id": tables.CRITERIA_V1,
        }
        for r in references.to_pylist()
    ]
    return tables.from_rows(rows, tables.VERDICTS)


def csl(doi: str, title: Any = TITLE, **extra: Any) -> dict[str, Any]:
    """A CSL-JSON record in the shape doi.org content negotiation serves for ISTIC."""
    body = {
        "DOI": doi,
        "title": title,
        "container-title": JOURNAL,
        "volume": "103",
        "issue": "48",
        "page": "3967",
        "type": "article-journal",
        "author": [{"given": "Cui Hongxia"}],
    }
    body.update(extra)
    return body


def pubmed_doc(pmid: str, doi: str | None = None, **extra: Any) -> dict[str, Any]:
    """An esummary document of a Chinese-language article (English shadow title)."""
    doc: dict[str, Any] = {
        "uid": pmid,
        "pubdate": "2023 Dec 26",
        "source": TA,
        "title": "[Expression of ProEXC and PRMT5 in cervical adenocarcinoma].",
        "volume": "103",
        "issue": "48",
        "pages": "3967-3971",
        "lang": ["chi"],
        "issn": "0376-2491",
        "essn": "",
        "articleids": [{"idtype": "pubmed", "idtypen": 1, "value": pmid}],
    }
    if doi:
        doc["articleids"].append({"idtype": "doi", "idtypen": 3, "value": doi})
    doc.update(extra)
    return doc
