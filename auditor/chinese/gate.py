"""Stage 0: which rows the Chinese waterfall applies to, from local signals only (no requests).

A row is admitted when its title or journal name carries a Han ideograph, when its language field
is one of zh / zh-cn / zh-tw / chi / chinese, or when the caller already knows its DOI is
registered with a Chinese agency (ISTIC, CNKI). Rows the input stage marked INVALID are left out,
and so are rows whose checked identifier is a PMID or arXiv id: their own registers decide
them, and a DOI-side outcome must not overwrite what PubMed or arXiv already said.
"""

from __future__ import annotations

from collections.abc import Mapping

import pyarrow as pa
import pyarrow.compute as pc

from auditor.compare.text_columns import han_mask
from auditor.tables import RowState

LANGUAGES = ("zh", "zh-cn", "zh-tw", "zh-hans", "zh-hant", "chi", "zho", "chinese")
CHINESE_AGENCIES = frozenset({"istic", "cnki"})


def _han(column: pa.ChunkedArray) -> pa.Array:
    # Only a non-ASCII title can hold an ideograph: `han_mask` runs its regex on those alone.
    return pa.array(han_mask(column))


def chinese_signal(
    references: pa.Table, known_agencies: Mapping[int, str] | None = None
) -> pa.ChunkedArray:
    """Boolean column: the row shows a Chinese-literature signal (title, journal, language, RA)."""
    lang = pc.utf8_lower(pc.utf8_trim_whitespace(references["language"]))
    signal = pc.or_(
        pc.or_(_han(references["title"]), _han(references["container_title"])),
        pc.fill_null(pc.is_in(lang, value_set=pa.array(LANGUAGES)), False),
    )
    if known_agencies:
        chinese_ids = [
            rid for rid, ra in known_agencies.items() if ra.strip().lower() in CHINESE_AGENCIES
        ]
        by_ra = pc.is_in(references["row_id"], value_set=pa.array(chinese_ids, pa.int64()))
        signal = pc.or_(signal, by_ra)
    return signal


def gate(references: pa.Table, known_agencies: Mapping[int, str] | None = None) -> pa.ChunkedArray:
    """Boolean column: the waterfall runs for this row (signal, usable, not a PMID/arXiv row)."""
    signal = chinese_signal(references, known_agencies)
    invalid = pc.fill_null(pc.equal(references["row_state"], RowState.INVALID.value), False)
    other_id = pc.fill_null(pc.is_in(references["id_type"], pa.array(["pmid", "arxiv"])), False)
    return pc.and_(signal, pc.invert(pc.or_(invalid, other_id)))
