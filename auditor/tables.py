"""The Arrow schemas of the tables that pass between stages, defined once.

The values their columns hold (verdicts, states, tiers, …) are defined in `auditor.vocabulary`
and re-exported here.

Every stage takes one of these tables and returns one; the Parquet outputs use the same schemas
and column names, so a user reading `verdicts.parquet` sees exactly what is documented here.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from auditor.vocabulary import (
    CRITERIA_IDS,
    CRITERIA_V1,
    CRITERIA_V2,
    DEFAULT_CRITERIA,
    OUTCOMES,
    PREFIX_ID_TYPE,
    REGISTER_FOR_ID_TYPE,
    IdType,
    RecordStatus,
    RowState,
    Tier,
    UpdateRelation,
    Verdict,
)

__all__ = [
    "CHECKLIST",
    "CRITERIA_IDS",
    "CRITERIA_V1",
    "CRITERIA_V2",
    "DEFAULT_CRITERIA",
    "DUPLICATES",
    "IdType",
    "OUTCOMES",
    "PREFIX_ID_TYPE",
    "RECORDS",
    "REFERENCES",
    "REGISTER_FOR_ID_TYPE",
    "RecordStatus",
    "RowState",
    "Tier",
    "UPDATE",
    "UpdateRelation",
    "VERDICTS",
    "Verdict",
    "empty",
    "from_rows",
]

_str = pa.string()
_strs = pa.list_(pa.string())


#: One update of a record (Crossref `updated-by`/`update-to`, PubMed `pubtype`/`references`,
#: DataCite `relatedIdentifiers`), read from the record already fetched.
UPDATE = pa.struct(
    [
        pa.field("type", _str),  # retraction, withdrawal, removal, expression_of_concern, …
        pa.field("relation", _str),  # see `UpdateRelation`
        pa.field("date", _str),  # ISO date of the update when the register gives one
        pa.field("doi", _str),  # the other record's DOI: the notice, or the work it updates
        pa.field("pmid", _str),  # the other record's PMID (PubMed references)
        pa.field("source", _str),  # publisher | retraction-watch | pubmed | datacite …
    ]
)
_updates = pa.list_(UPDATE)

#: One author name as parsed (`auditor.names.ParsedName`), where the source gives structure:
#: BibTeX's own name grammar, CSL `family`/`given`, `Family, Given` of RIS/MEDLINE/WoS/EndNote.
#: The whole family name is `particle` + `family`.
AUTHOR_NAME = pa.struct(
    [
        pa.field("family", _str),  # family name without its particle; a corporate name whole
        pa.field("given", _str),  # given names or initials as written
        pa.field("particle", _str),  # `de`, `van der`, `da` (BibTeX von, CSL particles)
        pa.field("suffix", _str),  # `Jr.`, `III` (BibTeX Jr, CSL suffix)
    ]
)

#: Where a reference read from a document (PDF, Word, text) was printed, and the string itself;
#: null for bibliography files. Carried into `verdicts` and `checklist` so people can compare.
DOCUMENT_FIELDS = (
    pa.field("reference_text", _str),  # the reference as printed, whitespace collapsed
    pa.field("source_page", pa.int32()),  # 1-based PDF page it starts on
    pa.field("source_label", _str),  # its printed number or label (`12`, `Agarwal et al., 2021e`)
)

#: How sure the reading of a document's reference string is of each field, 0..1 (the model's
#: marginal probability, or a rule's fixed certainty); null for bibliography files, whose fields
#: are not guessed. A weak field may not make a row a suspect (`Reason.UNREADABLE_REFERENCE`).
FIELD_CONFIDENCE = pa.struct(
    [
        pa.field("title", pa.float32()),
        pa.field("authors", pa.float32()),
        pa.field("year", pa.float32()),
        pa.field("container_title", pa.float32()),
    ]
)

REFERENCES = pa.schema(
    [
        pa.field("row_id", pa.int64(), nullable=False),  # position in the whole run, 0-based
        pa.field("source_path", _str, nullable=False),  # file as the user named it
        pa.field("source_line", pa.int32()),  # 1-based line where the entry starts
        pa.field("source_format", _str),  # bibtex | ris | wos | medline | endnote | csv
        pa.field("key", _str),  # citation key (BibTeX key, RIS ID, CSV key column)
        pa.field("entry_type", _str),  # article, inproceedings, JOUR, …
        pa.field("declared_type", _str),  # an explicit identifier type the user gave
        pa.field("id_raw", _str),  # identifier as written (with arXiv version), for display
        pa.field("id_type", _str),  # doi | pmid | arxiv | null (see `IdType`)
        pa.field("identifier", _str),  # normalized as the criteria's input_contract says
        pa.field("doi", _str),  # every identifier found on the entry, normalized
        pa.field("pmid", _str),
        pa.field("arxiv", _str),
        pa.field("title", _str),  # plain Unicode, LaTeX decoded, protective braces gone
        pa.field("authors", _strs),  # as written, one string per author
        pa.field("authors_et_al", pa.bool_()),  # `and others` / `et al.` was in the list
        # `authors` as parsed, one per name, where the source has structure; null otherwise (a
        # null entry: that name had none). v1 never reads it.
        pa.field("author_names", pa.list_(AUTHOR_NAME)),
        pa.field("year", pa.int32()),
        pa.field("container_title", _str),
        pa.field("volume", _str),
        pa.field("issue", _str),
        pa.field("pages", _str),
        pa.field("issn", _str),
        pa.field("language", _str),
        pa.field("url", _str),
        pa.field("row_state", _str),  # INVALID / NOT COVERED decided before any lookup, else null
        pa.field("row_reason", _str),  # `Reason` code for `row_state`
        pa.field("parse_error", _str),  # what was wrong with the entry, for the user
        pa.field("warnings", _strs),  # non-fatal problems (duplicate key, unknown field, …)
        pa.field("cited_at", _str),  # `paper.tex:12`: first citation, when a manuscript is input
        # the `title` field alone, as written (decoded), when `title` joins a biblatex subtitle
        pa.field("title_as_written", _str),
        pa.field("howpublished", _str),  # BibTeX `howpublished`, decoded: what kind of work
        pa.field("note", _str),  # BibTeX `note`, decoded
        pa.field("publisher", _str),  # BibTeX `publisher` (else institution, school), decoded
        *DOCUMENT_FIELDS,
        pa.field("field_confidence", FIELD_CONFIDENCE),  # document rows: see `FIELD_CONFIDENCE`
    ]
)

RECORDS = pa.schema(
    [
        pa.field("register", _str, nullable=False),  # crossref | pubmed | arxiv | doi | handle …
        pa.field("id_type", _str, nullable=False),
        pa.field("identifier", _str, nullable=False),
        pa.field("status", _str, nullable=False),  # see `RecordStatus`
        pa.field("reason", _str),  # `Reason` code when status is not `found`
        pa.field("retrieved_at", _str),  # ISO 8601 UTC: the as-of time of this answer
        pa.field("tier", _str),  # see `Tier`
        pa.field("title", _str),
        pa.field("authors", _strs),  # full names as the register gives them
        pa.field("surnames", _strs),  # per register rule of the criteria (Crossref family, …)
        pa.field("year", pa.int32()),  # by the criteria's date precedence
        pa.field("container_title", _str),
        pa.field("volume", _str),
        pa.field("issue", _str),
        pa.field("pages", _str),
        pa.field("doi", _str),  # a DOI the record names (arXiv journal_ref DOI, PubMed doi)
        pa.field("language", _str),
        pa.field("agency", _str),  # DOI registration agency when known
        pa.field("updates", _updates),  # retractions, corrections … (see `UPDATE`)
        pa.field("years", pa.list_(pa.int32())),  # every year the record's dates hold (v2 rule)
        pa.field("version", pa.int32()),  # latest version number (arXiv)
        pa.field("work_type", _str),  # Crossref `type` (posted-content = preprint), `preprint` …
        pa.field("body_digest", _str),  # sha256 of the raw body the record was read from
    ]
)

VERDICTS = pa.schema(
    [
        pa.field("row_id", pa.int64(), nullable=False),
        pa.field("source_path", _str, nullable=False),
        pa.field("source_line", pa.int32()),
        pa.field("key", _str),
        pa.field("verdict", _str, nullable=False),  # one of `OUTCOMES`
        pa.field("reason", _str),
        pa.field("id_type", _str),
        pa.field("identifier", _str),
        pa.field("register", _str),
        pa.field("tier", _str),
        pa.field("retrieved_at", _str),
        pa.field("criteria_id", _str, nullable=False),
        pa.field("title_claimed", _str),
        pa.field("title_register", _str),
        pa.field("title_match", pa.bool_()),  # null when not compared
        pa.field("title_score", pa.float64()),  # Jaccard of the token sets
        pa.field("authors_claimed", _strs),
        pa.field("authors_register", _strs),
        pa.field("authors_match", pa.bool_()),
        pa.field("year_claimed", pa.int32()),
        pa.field("year_register", pa.int32()),
        pa.field("year_match", pa.bool_()),
        pa.field("updates", _updates),  # of the record relied on (see `UPDATE`)
        pa.field("venue_claimed", _str),  # journal / booktitle as cited (auditor/v2)
        pa.field("venue_register", _str),
        pa.field("venue_match", pa.bool_()),  # null when not compared
        pa.field("findings", _strs),  # every rule that differs, as reason codes, in rule order
        pa.field("group_id", pa.int32()),  # duplicate group (same work under several keys)
        pa.field("cited_at", _str),  # `paper.tex:12`: first citation, when a manuscript is input
        pa.field("queried_by", _str),  # `id` | `title` (a title search) | null: not looked up
        pa.field("searched", _strs),  # title search: the indexes asked, in order
        pa.field("nearest", _strs),  # NOT FOUND: the nearest candidates, one line each
        *DOCUMENT_FIELDS,
        # The record relied on: `register \x1f id_type \x1f identifier` of a `RECORDS` row
        # (`patches.record_keys`), null when none was; the report joins records on it alone. Kept
        # in memory: `verdicts.parquet` (`report.rows.REPORT_VERDICTS`) does not carry it.
        pa.field("record_key", _str),
    ]
)

CHECKLIST = pa.schema(
    [
        pa.field("row_id", pa.int64(), nullable=False),
        pa.field("source_path", _str),
        pa.field("source_line", pa.int32()),
        pa.field("key", _str),
        pa.field("priority", _str, nullable=False),  # P0 … P3: orders work, never a score
        pa.field("reason_code", _str, nullable=False),
        pa.field("outcome", _str),  # the verdict or state behind the item
        pa.field("cited_title", _str),
        pa.field("cited_authors", _strs),
        pa.field("cited_year", pa.int32()),
        pa.field("cited_id", _str),
        pa.field("sources_tried", _strs),
        pa.field("text", _str, nullable=False),  # "pending human check" wording
        pa.field("links", _strs),  # doi.org, PubMed and arXiv pages to click
        pa.field("human_result", _str),  # always empty: for the person to fill
        *DOCUMENT_FIELDS,
    ]
)

DUPLICATES = pa.schema(
    [
        pa.field("group_id", pa.int32(), nullable=False),
        pa.field("row_id", pa.int64(), nullable=False),
        pa.field("key", _str),
        pa.field("basis", _str, nullable=False),  # doi | pmid | arxiv | url | published_version
        pa.field("value", _str),  # the shared normalized value
    ]
)


def empty(schema: pa.Schema) -> pa.Table:
    """An empty table of `schema`."""
    return schema.empty_table()


def from_rows(rows: list[dict[str, Any]], schema: pa.Schema) -> pa.Table:
    """Build a table of `schema` from dicts; missing keys become nulls, extra keys are an error."""
    names = set(schema.names)
    for row in rows:
        extra = set(row) - names
        if extra:
            raise KeyError(f"columns not in schema: {sorted(extra)}")
    return pa.Table.from_pylist(rows, schema=schema)
