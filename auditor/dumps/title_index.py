"""The title index beside a snapshot dataset: token → record, for title search offline.

`build_title_index(DIR)` reads the titles of `DIR/records/*.parquet` in DuckDB and writes
`DIR/title_index/tokens.parquet`: one row per distinct (token, record), a token being a run of
letters or digits of the lowercased title, three characters or more, stop words left out.
`title_candidates(DIR, title)` answers "which records could this title be": the records sharing
the most tokens with `title`, best first, as `RECORDS` rows with `shared_tokens`, so an id-less
reference can be searched with no network (`--offline`). Both run in DuckDB, streaming: the
index is never loaded into Python, and a query reads the token column only.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb
import pyarrow as pa

from auditor.duckdb_connect import connect
from auditor.errors import InputError
from auditor.files import atomic_write_parquet

__all__ = [
    "INDEX",
    "SEARCH_KINDS",
    "build_title_index",
    "index_candidates",
    "title_candidates",
    "title_candidates_many",
    "title_tokens",
]

#: Where the index lives inside a snapshot dataset (`transport/snapshot.py` skips this folder).
INDEX = "title_index"
#: Words too common to tell two titles apart.
STOP_WORDS = (
    "the", "and", "for", "with", "from", "into", "onto", "via", "its", "are", "was", "were",
    "der", "die", "das", "und", "les", "des", "une", "pour", "del", "los", "las",
)  # fmt: skip
_TOKENS = (
    "list_distinct(list_filter(regexp_split_to_array(lower({col}), '[^\\p{{L}}\\p{{N}}]+'), "
    "lambda t: length(t) >= 3 AND NOT list_contains($stop, t)))"
)


#: DuckDB's memory for building the index. At 1 GB the index of a 1 GB dump (20 million token
#: rows) peaked at 1.2 GB resident, three times the reading of the dump; at 256 MB DuckDB spills
#: the sort to disk (1.2 GB, beside the dataset) and peaks at 450 MB, 100 s -> 128 s on the busy
#: 2-core machine here (`benchmarks/RESULTS.md`, "Dump imports").
BUILD_MEMORY = "256MB"


def _connect(memory: str = "1GB") -> duckdb.DuckDBPyConnection:
    return connect(memory)


#: Index rows per Parquet row group (and per batch streamed out of DuckDB).
_ROW_GROUP = 500_000

#: The index: every (token, record) of the found records' titles, by token. Paths and values
#: are parameters (`$records`, `$stop`), never pasted into the text (`tests/test_sql_safety.py`).
_INDEX_QUERY = f"""
    SELECT DISTINCT unnest({_TOKENS.format(col="title")}) AS token, id_type, identifier
    FROM read_parquet($records, union_by_name = true)
    WHERE title IS NOT NULL AND status = 'found'
    ORDER BY token
"""


def _write_index(con: duckdb.DuckDBPyConnection, records: list[str], tmp: Path) -> None:
    """Stream the index query's rows into the Parquet file `tmp`."""
    import pyarrow.parquet as pq

    params = {"records": records, "stop": list(STOP_WORDS)}
    relation = con.sql(_INDEX_QUERY, params=params)
    # `to_arrow_reader` in DuckDB 1.4 and later; `fetch_record_batch` before (now deprecated).
    batches = getattr(relation, "to_arrow_reader", None) or relation.fetch_record_batch
    reader = batches(_ROW_GROUP)
    with pq.ParquetWriter(tmp, reader.schema) as writer:
        for batch in reader:
            writer.write_batch(batch, row_group_size=_ROW_GROUP)


def build_title_index(folder: Path) -> Path:
    """Write `folder/title_index/tokens.parquet` from `folder/records/*.parquet`; its path.

    Any folder name works (`O'Brien lab`, `runs[2024]`): the record files are listed here and
    passed to DuckDB as a parameter, each with its glob characters escaped (`literal_path`).
    """
    from auditor.transport.snapshot import literal_path

    out = folder / INDEX / "tokens.parquet"
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(".tokens.parquet.tmp")
    records = sorted(str(p) for p in (folder / "records").glob("*.parquet") if p.is_file())
    if not records:
        empty = pa.schema(
            [("token", pa.string()), ("id_type", pa.string()), ("identifier", pa.string())]
        )
        atomic_write_parquet(out, empty.empty_table())
        return out
    spill = out.parent / ".spill"  # beside the dataset (never the working directory)
    con = _connect(BUILD_MEMORY)
    try:
        con.execute("SET temp_directory = $spill", {"spill": str(spill)})
        _write_index(con, [literal_path(r) for r in records], tmp)
    except (duckdb.Error, OSError, pa.ArrowException) as exc:
        tmp.unlink(missing_ok=True)
        raise InputError(f"{folder}: cannot index titles ({exc})") from None
    finally:
        con.close()
        shutil.rmtree(spill, ignore_errors=True)
    tmp.replace(out)
    return out


_TOKENS_QUERY = f"SELECT {_TOKENS.format(col='$title')}"


def title_tokens(title: str) -> list[str]:
    """The tokens of `title` exactly as the index made them."""
    con = _connect()
    try:
        found = con.execute(_TOKENS_QUERY, {"title": title, "stop": list(STOP_WORDS)}).fetchone()
    finally:
        con.close()
    return list(found[0]) if found and found[0] else []


def title_candidates(folder: str, title: str, *, limit: int = 5) -> list[dict[str, Any]]:
    """The records of the dataset at `folder` sharing the most title tokens with `title`.

    Best first (most shared tokens, then identifier); each a `RECORDS` row (tier `snapshot`)
    plus `shared_tokens` and `title_tokens` (how many the query has). `[]` when no token is
    shared. Raises `InputError` when `folder` has no title index.
    """
    return title_candidates_many(folder, [title], limit=limit).get(title, [])


#: The best `$limit` records per asked title (table `asked`) by title tokens shared.
_CANDIDATES_QUERY = f"""
    WITH tokens AS (
        SELECT asked_at, unnest(toks) AS token, len(toks) AS title_tokens
        FROM (SELECT asked_at, {_TOKENS.format(col="title")} AS toks FROM asked)
    ), counted AS (
        SELECT t.asked_at, i.id_type, i.identifier, count(*) AS shared_tokens,
               any_value(t.title_tokens) AS title_tokens
        FROM read_parquet($index) AS i JOIN tokens AS t USING (token)
        GROUP BY t.asked_at, i.id_type, i.identifier
    )
    SELECT asked_at, id_type, identifier, shared_tokens, title_tokens FROM counted
    QUALIFY row_number() OVER (
        PARTITION BY asked_at ORDER BY shared_tokens DESC, identifier
    ) <= $limit
    ORDER BY asked_at, shared_tokens DESC, identifier
"""

#: Titles asked of the index in one query: their (title, record) pairs are counted together.
TITLES_PER_QUERY = 2_000


def title_candidates_many(
    folder: str, titles: Sequence[str], *, limit: int = 5
) -> dict[str, list[dict[str, Any]]]:
    """`title_candidates` of each of `titles`, asked together: one index query per
    `TITLES_PER_QUERY` titles and one snapshot join for all their candidates; titles without a
    candidate are absent."""
    from auditor.transport.snapshot import literal_path

    index = Path(folder) / INDEX / "tokens.parquet"
    if not index.is_file():
        raise InputError(f"{folder}: no title index (run auditor snapshot import)")
    asked = list(dict.fromkeys(titles))
    hits: list[tuple[int, str, str, int, int]] = []
    con = _connect()
    try:
        for lo in range(0, len(asked), TITLES_PER_QUERY):
            part = asked[lo : lo + TITLES_PER_QUERY]
            numbers = pa.array(range(lo, lo + len(part)), pa.int64())
            con.register("asked", pa.table({"asked_at": numbers, "title": part}))
            hits += con.execute(
                _CANDIDATES_QUERY,
                {"index": literal_path(str(index)), "limit": limit, "stop": list(STOP_WORDS)},
            ).fetchall()
            con.unregister("asked")
    except duckdb.Error as exc:
        raise InputError(f"{index}: {exc}") from None
    finally:
        con.close()
    if not hits:
        return {}
    from auditor.transport.snapshot import lookup_snapshots

    records = lookup_snapshots(
        [str(Path(folder) / "records")], dict.fromkeys((h[1], h[2]) for h in hits)
    )
    out: dict[str, list[dict[str, Any]]] = {}
    for at, id_type, identifier, shared, count in hits:
        record = records.get((id_type, identifier))
        # The index was made from found rows; a later row (a PubMed deletion) may say otherwise.
        if record is not None and record["status"] == "found":
            out.setdefault(asked[at], []).append(
                {**record, "shared_tokens": int(shared), "title_tokens": int(count)}
            )
    return out


#: Which imported dump answers which title-search register.
SEARCH_KINDS: dict[str, str] = {
    "crossref_search": "crossref",
    "pubmed_search": "pubmed",
    "arxiv_search": "arxiv",
    "dblp": "dblp",
    "openalex_search": "openalex",
}


def _datasets(snapshots: Sequence[str], kind: str) -> list[str]:
    """The snapshot folders that are imports of `kind` (their `import-state.json` says so)."""
    out = []
    for path in snapshots:
        state = Path(path) / "import-state.json"
        try:
            found = json.loads(state.read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError, AttributeError):
            continue
        if found == kind and (Path(path) / INDEX / "tokens.parquet").is_file():
            out.append(path)
    return out


def index_candidates(
    snapshots: Sequence[str], register: str, titles: Sequence[str], *, limit: int = 5
) -> dict[str, list[dict[str, Any]]]:
    """Candidates per title from the title indexes of the imported dumps that stand for the
    search `register` (`SEARCH_KINDS`); titles with none are absent. `{}` when no such dump."""
    kind = SEARCH_KINDS.get(register)
    folders = _datasets(snapshots, kind) if kind else []
    out: dict[str, list[dict[str, Any]]] = {}
    for folder in folders:
        for title, found in title_candidates_many(folder, titles, limit=limit).items():
            out.setdefault(title, []).extend(found)
    return {
        title: sorted(out[title], key=lambda c: -int(c["shared_tokens"]))[:limit]
        for title in dict.fromkeys(titles)
        if out.get(title)
    }
