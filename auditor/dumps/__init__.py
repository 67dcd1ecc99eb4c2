"""Register dumps into snapshot datasets: `auditor snapshot import KIND PATH... --out DIR`.

One reader module per dump format behind `auditor.dumps.interface.DumpReader`; `KINDS` is the
one place they are registered. `auditor.dumps.importer` streams a dump into Parquet parts and
`auditor.dumps.title_index` builds and asks the title index beside them.
"""

from __future__ import annotations

from auditor.dumps.arxiv import ArxivDump
from auditor.dumps.crossref import CrossrefDump
from auditor.dumps.datacite import DataciteDump
from auditor.dumps.dblp import DblpDump
from auditor.dumps.interface import DumpReader, Skipped
from auditor.dumps.openalex import OpenalexDump
from auditor.dumps.pubmed import PubmedDump

__all__ = ["KINDS", "DumpReader", "Skipped"]

#: `KIND` → its reader. A new dump format is one module plus one line here.
KINDS: dict[str, type[DumpReader]] = {
    reader.kind: reader
    for reader in (
        CrossrefDump,
        PubmedDump,
        ArxivDump,
        DataciteDump,
        DblpDump,
        OpenalexDump,
    )
}
