"""The comparison core of reference-resolution/v1: field rules over whole columns, and verdicts.

`compare(references, records)` is the stage the pipeline calls; `auditor.compare.text` holds the
text forms (`normalize_text`, the Chinese-aware title form) that other stages reuse.
"""

from __future__ import annotations

from auditor.compare.verdicts import compare

__all__ = ["compare"]
