"""`same_surname_sequences` decides each row on its own: in slices of rows as over the whole."""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

from auditor.compare import criteria

_NAMES = ["Smith, J.", "Smith J", "smith", "Müller, H.", "et al.", "", " ", "Doe", "Doe, J.",
          "O'Brien, K.", "Li, X.", "others", "Zhang Wei", None]  # fmt: skip
_SURNAMES = ["Smith", "Müller", "Doe", "O'Brien", "Li", "Zhang", "", None, "al"]


def _lists(rng: random.Random, pool: list[str | None], n: int) -> list[list[str | None] | None]:
    return [
        None if rng.random() < 0.1 else [rng.choice(pool) for _ in range(rng.randint(0, 4))]
        for _ in range(n)
    ]


def test_slices_of_rows_decide_as_the_whole_column(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(17)
    claimed = pa.array(_lists(rng, _NAMES, 600), pa.list_(pa.string()))
    register = pa.array(_lists(rng, _SURNAMES, 600), pa.list_(pa.string()))
    # Rows that agree, so that both answers occur.
    claimed = pa.concat_arrays([claimed, pa.array([["Smith, J.", "Doe, J."]] * 50, claimed.type)])
    register = pa.concat_arrays([register, pa.array([["Smith", "Doe"]] * 50, register.type)])
    whole = criteria.same_surname_sequences(claimed.slice(7), register.slice(7))
    assert whole.any() and not whole.all()
    monkeypatch.setattr(criteria, "SURNAME_ROWS", 16)
    sliced = criteria.same_surname_sequences(claimed.slice(7), register.slice(7))
    assert np.array_equal(sliced, whole)
