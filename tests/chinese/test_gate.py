"""Stage 0: local signals only; rows the gate leaves out cost no request and get no item."""

from __future__ import annotations

import pytest

from auditor.chinese.gate import gate
from tests.chinese.conftest import waterfall
from tests.chinese.helpers import refs, verdicts_for


@pytest.mark.parametrize(
    ("row", "admitted"),
    [
        ({"title": "宫颈癌筛查研究"}, True),
        ({"title": "Cervical screening", "container_title": "中华医学杂志"}, True),
        *[
            ({"title": "Romanized", "language": lang}, True)
            for lang in ("zh", "zh-CN", "zh-tw", "chi", "Chinese", " ZH ")
        ],
        ({"title": "Romanized", "language": "en"}, False),
        ({"title": "Gongjing ai shaicha yanjiu"}, False),
        ({"title": "ひらがなのタイトル"}, False),  # kana only, no Han ideograph
        ({"title": "宫颈癌", "row_state": "INVALID"}, False),
        ({"title": "宫颈癌", "id_type": "pmid", "identifier": "1"}, False),
        ({"title": "宫颈癌", "id_type": "pmid", "identifier": "1", "doi": "10.5555/x"}, False),
        ({"title": "宫颈癌", "id_type": "arxiv", "identifier": "2101.00001"}, False),
    ],
)
def test_gate(row, admitted):
    assert gate(refs(row)).to_pylist() == [admitted]


def test_known_agency_admits_a_romanized_row():
    table = refs({"title": "Romanized", "doi": "10.5555/x"}, {"title": "Other", "doi": "10.1/x"})
    assert gate(table, {0: "ISTIC", 1: "Crossref"}).to_pylist() == [True, False]


async def test_english_bibliography_costs_nothing(registers):
    references = refs(*({"title": f"Paper {i}", "doi": f"10.1000/{i}"} for i in range(50)))
    before = verdicts_for(references)
    result = await waterfall(registers.settings(), references, before)
    assert registers.seen == []
    assert result.verdicts.equals(before)
    assert result.items.num_rows == 0 and result.outcomes.num_rows == 0
