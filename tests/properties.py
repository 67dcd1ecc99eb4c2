"""How many examples a property test (hypothesis) runs: a few by default, all when asked.

The default profile keeps the README's test command fast on a small machine; the `thorough`
profile runs every property test at its full count (`HYPOTHESIS_PROFILE=thorough python -m
pytest -m property`, as a nightly job would). Profiles are registered in `tests/conftest.py`;
every property test is marked `property` there.
"""

from __future__ import annotations

import os

__all__ = ["PROFILE", "examples"]

#: The hypothesis profile of this run: `default` or `thorough`.
PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "default")


def examples(full: int) -> int:
    """`full` in the thorough profile; a tenth of it (at least 10) by default."""
    return full if PROFILE == "thorough" else max(10, full // 10)
