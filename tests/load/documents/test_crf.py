"""The reference-string model: its features, the shipped model's reading, and its rebuild (#35)."""

from __future__ import annotations

from pathlib import Path

import pycrfsuite
import pytest

from auditor.load.documents import crf
from auditor.load.documents.crf_features import features, tokens
from training.labelled import read_sequences
from training.train_refstrings import held_out, train

ROOT = Path(__file__).resolve().parents[3]


def _feature(feats: list[str], name: str) -> str:
    return next(f.split("=", 1)[1] for f in feats if f.startswith(f"{name}="))


def test_features_mark_years_initials_ranges_and_quotes() -> None:
    toks = tokens('J. Smith, "Deep nets for all," Proc. NeurIPS, pp. 12–19, 2020.')
    feats = features(toks)
    assert len(feats) == len(toks)
    assert _feature(feats[0], "init") == "1"
    assert _feature(feats[2], "quote") == "open"
    assert _feature(feats[3], "quote") == "1"  # inside the quotes
    assert _feature(feats[6], "quote") == "0"  # after `all,"` closed them
    assert _feature(feats[6], "lex") == "proc"
    assert _feature(feats[9], "num") == "range"
    assert _feature(feats[10], "num") == "year"
    assert _feature(feats[10], "pos") == "9"
    assert "p=edge" in feats[0] and "n=edge" in feats[-1]


def test_features_count_full_stops_but_not_initials() -> None:
    feats = features(tokens("A. B. Jones. Title words here. Journal"))
    assert [_feature(f, "stops") for f in feats] == ["0", "0", "0", "1", "1", "1", "2"]


@pytest.mark.parametrize(
    ("text", "title", "author", "year"),
    [
        (
            "Smith, J., & Lee, K. (2019). Learning to read references. "
            "Journal of Documentation, 75(2), 123-145.",
            "Learning to read references.",
            "Smith, J., & Lee, K.",
            2019,
        ),
        (
            'A. Kumar and B. Chen, "Sparse attention for long documents," in Proc. ACL, '
            "2021, pp. 10-20.",
            '"Sparse attention for long documents,"',
            "A. Kumar and B. Chen,",
            2021,
        ),
    ],
)
def test_the_shipped_model_reads_fields_with_confidences(
    text: str, title: str, author: str, year: int
) -> None:
    got = crf.read(text)
    assert got is not None
    assert got.spans["title"] == title
    assert got.spans["author"] == author
    assert got.year == year
    assert len(got.labels) == len(got.tokens) == len(text.split())
    assert all(0.0 <= c <= 1.0 for c in got.confidence.values())
    assert got.confidence["title"] > 0.5


def test_a_doubtful_edge_makes_a_doubtful_field() -> None:
    # the model is unsure whether `Power up!` ends the names or opens the title: every title
    # token is sure, the token before it is not, so the title is not
    text = (
        "Jin, M., Chang, H., Zhu, W. & Sojoudi, S. Power up! Robust graph convolutional "
        "network via graph powering. in AAAI (2021)."
    )
    got = crf.read(text)
    assert got is not None
    assert got.confidence["title"] < 0.9
    assert got.confidence["container"] > 0.9


def test_a_broken_model_file_leaves_the_rules_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    crf._tagger.cache_clear()
    monkeypatch.setattr(crf, "_MODEL", "no-such-model.crfsuite")
    try:
        assert crf.read("Smith, J. (2019). Title. Journal.") is None
    finally:
        crf._tagger.cache_clear()


_TINY = """<?xml version="1.0" encoding="UTF-8"?>
<dataset>
  <sequence><author>Smith, J.</author><date>(2019).</date><title>Alpha beta.</title>
    <journal>Nature,</journal><pages>1-2.</pages></sequence>
  <sequence><author>Lee, K.</author><date>(2020).</date><title>Gamma delta.</title>
    <journal>Science,</journal><pages>3-4.</pages></sequence>
  <sequence><author>Wu, H.</author><date>(2021).</date><title>Held out.</title>
    <journal>Cell,</journal></sequence>
</dataset>
"""


def test_training_leaves_out_the_held_out_strings_and_writes_a_model(tmp_path: Path) -> None:
    data, held = tmp_path / "core.xml", tmp_path / "gold.xml"
    data.write_text(_TINY, encoding="utf-8")
    held.write_text(
        "<dataset><sequence><author>Other, A.</author><title>Held out</title></sequence></dataset>",
        encoding="utf-8",
    )
    seqs, dropped = held_out([data], [held])
    assert dropped == 1 and [s.tokens[0] for s in seqs] == ["Smith,", "Lee,"]
    model = tmp_path / "m.crfsuite"
    train(seqs, model, {"c1": 0.0, "c2": 0.01, "max_iterations": 50})
    tagger = pycrfsuite.Tagger()
    tagger.open(str(model))
    assert set(tagger.labels()) == {"author", "date", "title", "container", "pages"}


def test_the_labelled_reader_folds_anystyle_fields_and_refuses_entities(tmp_path: Path) -> None:
    seqs = read_sequences(_write(tmp_path, _TINY))
    assert seqs[0].labels == ["author", "author", "date", "title", "title", "container", "pages"]
    assert seqs[0].fields[0] == ("author", "Smith, J.")
    bomb = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa">]><dataset>&a;</dataset>'
    with pytest.raises(Exception, match="(?i)entit"):
        read_sequences(_write(tmp_path, bomb))


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "x.xml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_model_is_small_and_knows_the_fields() -> None:
    """The model file beside `crf.py` (written by `training/train_refstrings.py`) is small
    enough to ship and labels every field the reader takes."""
    model = ROOT / "auditor" / "load" / "documents" / "refstring.crfsuite"
    assert model.stat().st_size < 2_000_000
    tagger = pycrfsuite.Tagger()
    tagger.open(str(model))
    assert {"author", "title", "date", "container", "volume", "pages"} <= set(tagger.labels())
