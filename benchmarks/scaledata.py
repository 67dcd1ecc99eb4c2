"""Generated data for the scale benchmarks: a register snapshot and a references table.

`python benchmarks/scaledata.py --records 10000000 --references 1000000 --out /tmp/auditor-scale`
writes `snapshot.parquet` (the `RECORDS` schema: Crossref DOIs `10.5555/s<n>`, titles of 6-12
words from a 20,000-word synthetic vocabulary, 1-6 authors, a year) and `refs.parquet` (columns
`key`, `doi`, `title`, `authors`, `year`: what a pipeline holds) in which, deterministically for
a seed, 85% of references cite their record exactly, 5% change one title word, 4% cite another
year, 3% cite an unrelated title, 3% name a DOI the snapshot lacks. Everything is built with
NumPy and Arrow kernels (10,000,000 records in about a minute), never row by row.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from auditor.tables import RECORDS

VOCAB = 20_000


def _vocabulary(rng: np.random.Generator) -> pa.Array:
    letters = np.frombuffer(b"abcdefghijklmnopqrstuvwxyz", dtype=np.uint8)
    lengths = rng.integers(3, 11, VOCAB)
    words = [bytes(rng.choice(letters, n)).decode() for n in lengths]
    return pa.array(words, pa.string())


def _titles(rng: np.random.Generator, n: int, vocab: pa.Array) -> pa.Array:
    """`n` titles of 6-12 words: columns of words joined, then the unused tail trimmed."""
    lengths = rng.integers(6, 13, n)
    columns = []
    for slot in range(12):
        words = vocab.take(pa.array(rng.integers(0, VOCAB, n)))
        columns.append(pc.if_else(pa.array(lengths > slot), words, pa.scalar(None, pa.string())))
    first = pc.utf8_capitalize(columns[0])
    joined = pc.binary_join_element_wise(first, *columns[1:], " ", null_handling="skip")
    return joined


def _authors(rng: np.random.Generator, n: int, vocab: pa.Array) -> tuple[pa.Array, pa.Array]:
    """Register surnames and the references' "Surname, G." forms, as list arrays."""
    counts = rng.integers(1, 7, n)
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int32)
    total = int(offsets[-1])
    surnames = pc.utf8_capitalize(vocab.take(pa.array(rng.integers(0, VOCAB, total))))
    initials = pc.utf8_upper(
        pc.utf8_slice_codeunits(vocab.take(pa.array(rng.integers(0, VOCAB, total))), 0, 1)
    )
    given = pc.binary_join_element_wise(initials, pa.scalar("."), "")
    full = pc.binary_join_element_wise(given, surnames, " ")
    cited = pc.binary_join_element_wise(surnames, given, ", ")
    off = pa.array(offsets)
    return (
        pa.ListArray.from_arrays(off, surnames),
        pa.ListArray.from_arrays(off, full),
        pa.ListArray.from_arrays(off, cited),
    )


def snapshot(records: int, seed: int) -> tuple[pa.Table, pa.Array]:
    """The snapshot table and the vocabulary it was drawn from."""
    rng = np.random.default_rng(seed)
    vocab = _vocabulary(rng)
    ids = pc.binary_join_element_wise(
        pa.scalar("10.5555/s"),
        pc.utf8_lpad(pa.array(np.arange(records)).cast(pa.string()), 9, "0"),
        "",
    )
    surnames, full, _ = _authors(rng, records, vocab)
    n = records

    def const(value: str) -> pa.Array:
        return pa.array(np.full(n, value, dtype=object), pa.string())

    columns = {
        "register": const("crossref"),
        "id_type": const("doi"),
        "identifier": ids,
        "status": const("found"),
        "reason": pa.nulls(n, pa.string()),
        "retrieved_at": const("2026-11-01T00:00:00+00:00"),
        "tier": const("snapshot"),
        "title": _titles(rng, n, vocab),
        "authors": full,
        "surnames": surnames,
        "year": pa.array(rng.integers(1950, 2026, n).astype(np.int32)),
        "container_title": const("Journal of Generated Results"),
        "doi": ids,
    }
    arrays = [columns.get(f.name, pa.nulls(n, f.type)) for f in RECORDS]
    return pa.Table.from_arrays(arrays, schema=RECORDS), vocab


def references(snap: pa.Table, count: int, seed: int, vocab: pa.Array) -> pa.Table:
    """`count` references citing records of `snap` with the mix in the module docstring."""
    rng = np.random.default_rng(seed + 1)
    picks = pa.array(rng.integers(0, snap.num_rows, count))
    cited = snap.take(picks)
    kind = rng.random(count)
    title = cited["title"].combine_chunks()
    year = cited["year"].combine_chunks()
    doi = cited["identifier"].combine_chunks()
    one_word = pa.array((kind >= 0.85) & (kind < 0.90))
    other_year = pa.array((kind >= 0.90) & (kind < 0.94))
    unrelated = pa.array((kind >= 0.94) & (kind < 0.97))
    absent = pa.array(kind >= 0.97)
    swapped = pc.replace_substring_regex(title, r"^\S+", "Different")
    title = pc.if_else(one_word, swapped, title)
    title = pc.if_else(unrelated, _titles(rng, count, vocab), title)
    year = pc.if_else(other_year, pc.add(year, pa.scalar(3, pa.int32())), year)
    gone = pc.binary_join_element_wise(pa.scalar("10.5555/absent"), doi, "")
    doi = pc.if_else(absent, gone, doi)
    # The references cite authors as "Surname, G." from the record's own surnames.
    surnames = cited["surnames"].combine_chunks()
    initials = pc.utf8_upper(
        pc.utf8_slice_codeunits(pc.list_flatten(cited["authors"].combine_chunks()), 0, 1)
    )
    cited_names = pc.binary_join_element_wise(pc.list_flatten(surnames), initials, ", ")
    authors = pa.ListArray.from_arrays(
        surnames.offsets, pc.binary_join_element_wise(cited_names, pa.scalar("."), "")
    )
    keys = pc.binary_join_element_wise(
        pa.scalar("ref"), pa.array(np.arange(count)).cast(pa.string()), ""
    )
    return pa.table({"key": keys, "doi": doi, "title": title, "authors": authors, "year": year})


def main() -> None:
    """Write `snapshot.parquet` and `refs.parquet` into `--out`."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=10_000_000)
    parser.add_argument("--references", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--out", default="/tmp/auditor-scale")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    snap, vocab = snapshot(args.records, args.seed)
    refs = references(snap, args.references, args.seed, vocab)
    pq.write_table(snap, out / "snapshot.parquet", row_group_size=1_000_000)
    pq.write_table(refs, out / "refs.parquet")
    took = time.perf_counter() - started
    print(f"{snap.num_rows:,} records, {refs.num_rows:,} references in {out} ({took:.1f} s)")


if __name__ == "__main__":
    main()
