"""auditor: an offline-first batch bibliography auditor.

It loads BibTeX, RIS and CSV bibliographies into one Arrow table, resolves every identifier
against the register that owns it, compares the claimed fields under the published criteria
`reference-resolution/v1`, and writes verdicts plus a human-confirmation checklist.
"""

from __future__ import annotations

__version__ = "0.3.0"

__all__ = ["__version__"]
