"""Every reason code a row can carry reads as words on the terminal, never as the bare code."""

from __future__ import annotations

from auditor.errors import Reason
from auditor.report.words import reason_text


def test_every_reason_code_has_a_phrase() -> None:
    bare = [r.value for r in Reason if reason_text(r.value) == r.value]
    assert bare == []
    assert "no bibliography holds" in reason_text("missing_entry")
