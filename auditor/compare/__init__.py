"""The comparison core of reference-resolution/v1: field rules over whole columns, and verdicts.

`compare(references, records)` is the stage the pipeline calls; `auditor.text` holds the
text forms (`normalize_text`, the Chinese-aware title form) that other stages reuse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from auditor.compare.verdicts import compare

__all__ = ["compare"]


def __getattr__(name: str) -> Any:
    # Imported on first use, so `auditor.names` (which the stage imports) can use
    # `auditor.text` without importing the whole stage first.
    if name == "compare":
        from auditor.compare.verdicts import compare

        return compare
    raise AttributeError(name)
