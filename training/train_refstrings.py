"""Rebuild the reference-string model `auditor/load/documents/refstring.crfsuite` (#35 item 2).

One command, from the repository root:

    PYTHONPATH=$PWD python training/train_refstrings.py

Trains a linear-chain CRF (python-crfsuite, L-BFGS with L1 and L2 penalties) on the labelled
strings under `training/refstrings/`: AnyStyle's `core.xml` (BSD-2-Clause) and our own rendered
styles (`rendered-hallmark.xml`, written by `training/render_hallmark.py`); see the README
there. AnyStyle's `gold.xml` and GROBID's citation corpus are never learned from: they measure
the model (`benchmarks/refstrings.py`). `core.xml` and `gold.xml` share some references (209
identical strings), so every training string whose text or title is also in the held-out set
(`HELD_OUT`; titles alike at fuzzy ratio >= 90) is left out here, or the benchmark would
score the model on strings it learned. The features are `auditor.load.documents.crf_features`,
the ones the tagger computes. Training is deterministic for a given crfsuite version, so the
file changes only when the data, the features or these parameters do.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pycrfsuite
from rapidfuzz import fuzz, process

from auditor.load.documents.crf_features import features
from training.labelled import Sequence, read_sequences

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "training" / "refstrings"
MODEL = ROOT / "auditor" / "load" / "documents" / "refstring.crfsuite"
HELD_OUT = [ROOT / "benchmarks" / "corpora" / "anystyle-gold.xml"]

# c1 (L1) keeps the file small by zeroing most weights; c2 (L2) smooths the rest. On five-fold
# cross-validation of core.xml alone (never the benchmark's set), c1 0.01-0.2 and
# c2 0.01-0.05 all gave token accuracy 0.917-0.920; 0.05 is the best of them.
PARAMS = {
    "c1": 0.05,
    "c2": 0.01,
    "max_iterations": 200,
    "feature.possible_transitions": True,
}


def training_files() -> list[Path]:
    """The labelled files the model learns from: every `*.xml` under `training/refstrings/`."""
    return sorted(DATA.glob("*.xml"))


def _title(seq: Sequence) -> str:
    return " ".join(next((t for tag, t in seq.fields if tag == "title"), "").lower().split())


def held_out(files: list[Path], held: list[Path]) -> tuple[list[Sequence], int]:
    """The training sequences of `files` that share no text or title with `held`, and how
    many were left out."""
    test = [s for p in held if p.exists() for s in read_sequences(p)]
    texts = {s.text for s in test}
    titles = [t for s in test if (t := _title(s))]
    kept: list[Sequence] = []
    dropped = 0
    for seq in (s for p in files for s in read_sequences(p)):
        title = _title(seq)
        if seq.text in texts or (
            title and process.extractOne(title, titles, scorer=fuzz.ratio, score_cutoff=90)
        ):
            dropped += 1
        else:
            kept.append(seq)
    return kept, dropped


def train(seqs: list[Sequence], model: Path, params: dict[str, object] = PARAMS) -> None:
    """Train on `seqs` and write the model to `model` (atomically)."""
    trainer = pycrfsuite.Trainer(verbose=False)
    for seq in seqs:
        trainer.append(features(seq.tokens), seq.labels)
    trainer.set_params(params)
    tmp = model.with_suffix(".tmp")
    trainer.train(str(tmp))
    tmp.replace(model)


def main(argv: list[str] | None = None) -> int:
    """Train and report what was written."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=MODEL, help="where to write the model")
    args = ap.parse_args(argv)
    files = training_files()
    seqs, dropped = held_out(files, HELD_OUT)
    train(seqs, args.out)
    size = args.out.stat().st_size
    names = ", ".join(p.name for p in files)
    print(f"{len(seqs)} strings from {names} ({dropped} left out: in the held-out set)")
    print(f"-> {args.out} ({size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
