"""Terminal-safe text: no control sequence from a key, title or register reaches a terminal."""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from auditor.report.terminal import json_for_terminal, one_line, printable

_ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def test_escape_sequences_become_visible_text() -> None:
    assert printable("a\x1b]0;owned\x07b") == "a\\x1b]0;owned\\x07b"
    assert printable("tab\tand\nnewline") == "tab\tand\nnewline"
    assert one_line("tab\tand\nnewline") == "tab\\x09and\\x0anewline"
    assert printable("\u202eevil") == "\\u202eevil"


@given(st.text())
def test_nothing_active_survives(text: str) -> None:
    assert not _ACTIVE.search(printable(text))
    assert not re.search("[\t\n]", one_line(text)) and not _ACTIVE.search(one_line(text))


@given(st.dictionaries(st.text(max_size=5), st.text(max_size=10), max_size=3))
def test_json_for_terminal_is_the_same_data(data: dict[str, str]) -> None:
    text = json_for_terminal(json.dumps(data, ensure_ascii=False))
    assert json.loads(text) == data
    assert not _ACTIVE.search(text)
