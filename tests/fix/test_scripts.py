"""`auditor fix` never writes an author's name in another script than the entry's (a register's
unromanized CJK family name over a romanized one, or the reverse); other fields are still fixed."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from auditor import tables
from auditor.cli import app
from auditor.fix.bibtex_spans import scan
from auditor.fix.changes import _other_script

_FOUND = {"status": "found", "tier": "snapshot", "retrieved_at": "2026-11-30T00:00:00+00:00"}

BIB = """@article{romanized2019,
  title   = {Spatial heterogeneity of soil moisture in karst catchments},
  author  = {Zhang, Wei and Li, Hua and Smith, John},
  journal = {Journal of Hydrology},
  year    = {2017},
  doi     = {10.5555/hydro.2019.1},
}

@article{han2020,
  title   = {Deep learning for rainfall nowcasting},
  author  = {张伟 and 李华 and Smith, John},
  journal = {Water Research},
  year    = {2018},
  doi     = {10.5555/water.2020.2},
}

@article{latin2021,
  title   = {Sediment transport in braided rivers},
  author  = {Smith, John and Brown, Anne},
  journal = {Geomorphology},
  year    = {2021},
  doi     = {10.5555/geo.2021.3},
}
"""

RECORDS = [
    {  # the register writes the Chinese authors unromanized (CSL from a Chinese agency's shape)
        **_FOUND,
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.5555/hydro.2019.1",
        "title": "Spatial heterogeneity of soil moisture in karst catchments",
        "authors": ["张伟", "李华", "John Smith"],
        "surnames": ["张", "李", "Smith"],
        "year": 2019,
        "container_title": "Journal of Hydrology",
        "doi": "10.5555/hydro.2019.1",
    },
    {  # the register romanizes them (Crossref's usual shape), the entry does not
        **_FOUND,
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.5555/water.2020.2",
        "title": "Deep learning for rainfall nowcasting",
        "authors": ["Wei Zhang", "Hua Li", "John Smith"],
        "surnames": ["Zhang", "Li", "Smith"],
        "year": 2020,
        "container_title": "Water Research",
        "doi": "10.5555/water.2020.2",
    },
    {  # one script on both sides: the author order is corrected as before
        **_FOUND,
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.5555/geo.2021.3",
        "title": "Sediment transport in braided rivers",
        "authors": ["Anne Brown", "John Smith"],
        "surnames": ["Brown", "Smith"],
        "year": 2021,
        "container_title": "Geomorphology",
        "doi": "10.5555/geo.2021.3",
    },
]


@pytest.fixture
def workdir(isolated: Path, tmp_path: Path) -> Path:
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    pq.write_table(tables.from_rows(RECORDS, tables.RECORDS), tmp_path / "snap.parquet")
    return tmp_path


def _fixed(workdir: Path) -> tuple[str, dict[str, str]]:
    result = CliRunner().invoke(
        app, ["fix", "refs.bib", "--offline", "--snapshot", "snap.parquet", "--out", "fixed.bib"]
    )
    assert result.exit_code == 0, result.output
    text = (workdir / "fixed.bib").read_text(encoding="utf-8")
    return text, {e.key: text[e.start : e.closer + 1] for e in scan(text)}


def test_romanized_authors_are_not_replaced_by_han_names(workdir: Path) -> None:
    text, entries = _fixed(workdir)
    entry = entries["romanized2019"]
    assert "author  = {Zhang, Wei and Li, Hua and Smith, John}," in entry
    assert "张" not in entry and "李" not in entry
    assert "year    = {2019}," in entry  # the year is still certain, and corrected
    assert "% auditor: authors left as written" in text and "another script" in text


def test_han_authors_are_not_replaced_by_romanized_names(workdir: Path) -> None:
    text, entries = _fixed(workdir)
    entry = entries["han2020"]
    assert "author  = {张伟 and 李华 and Smith, John}," in entry
    assert "Zhang" not in entry
    assert "year    = {2020}," in entry


def test_one_script_on_both_sides_is_still_corrected(workdir: Path) -> None:
    _, entries = _fixed(workdir)
    assert "author  = {Brown, Anne and Smith, John}," in entries["latin2021"]


@pytest.mark.parametrize(
    ("cited", "register", "crosses"),
    [
        (["Zhang, Wei"], ["张伟"], True),
        (["张伟"], ["Wei Zhang"], True),
        (["昂温, S."], ["Unwin, S."], True),  # GB/T 7714: a transliterated name, Latin initials
        (["Müller, Jörg", "Smith, J."], ["Jörg Müller", "John Smith"], False),
        (["张伟", "Smith, John"], ["张伟", "John Smith"], False),
        (["佐藤, 健"], ["さとう けん"], True),  # kanji and kana are other scripts
        (["Zhang, Wei"], ["Wei Zhang", "张华"], True),  # lengths differ, two scripts
        (["Zhang, Wei"], ["Wei Zhang", "Hua Li"], False),  # lengths differ, one script
        ([], ["张伟"], False),  # nothing cited to keep
    ],
)
def test_which_lists_cross_scripts(cited: list[str], register: list[str], crosses: bool) -> None:
    assert _other_script(cited, register) is crosses
