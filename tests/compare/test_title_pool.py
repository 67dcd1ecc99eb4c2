"""Title rules decided in worker processes equal those decided here, whatever the workers do."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from auditor.compare import plain_titles, title_pool
from auditor.compare.title_pool import TitlePool
from auditor.compare.v2 import Field, title_rule
from auditor.pipeline import run_audit
from auditor.registers import registry

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import scaledata  # noqa: E402

_TITLES = [
    ("Attention is all you need", "Attention Is All You Need"),
    ("Attention is all we need", "Attention Is All You Need"),
    ("Deep residual learning: for image recognition", "Deep Residual Learning"),
    ("The colour of modelling", "The color of modeling"),
    ("Pre-training of deep bidirectional transformers", "Pretraining of deep transformers"),
    (None, "A register title"),
    ("", None),
    ("A claimed title", None),
    ("基于深度学习的图像识别研究", "基于深度学习的图像识别研究"),
    ("基于深度学习的图像识别", "基于深度学习的图像识别研究"),
    (r"On \emph{graphs} and $\alpha$-stability", "On graphs and α-stability"),
    ("<i>Escherichia coli</i> in soil", "Escherichia coli in soil"),
    ("RETRACTED: A study of things", "A study of things"),
    ("Something else entirely", "A study of things"),
]


def _pairs(n: int) -> tuple[list[str | None], list[str | None]]:
    """`n` distinct pairs: the cases above, each made distinct by a numbered suffix."""
    claimed: list[str | None] = []
    register: list[str | None] = []
    for k in range(n):
        c, r = _TITLES[k % len(_TITLES)]
        tag = f" {k // len(_TITLES)}" if k >= len(_TITLES) else ""
        claimed.append(None if c is None else c + tag)
        register.append(None if r is None else r + tag)
    return claimed, register


def _here(claimed: list[str | None], register: list[str | None]) -> list[Field]:
    return [title_rule(c, r) for c, r in zip(claimed, register, strict=True)]


@pytest.fixture
def few_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(title_pool, "MIN_PAIRS", 10)


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each worker's answer was used, in order."""
    seen: list[bool] = []
    real = title_pool._answer

    def spy(*args: object) -> list[Field] | None:
        got = real(*args)  # type: ignore[arg-type]
        seen.append(got is not None)
        return got

    monkeypatch.setattr(title_pool, "_answer", spy)
    return seen


def test_workers_decide_as_the_rule_does(few_pairs: None, answered: list[bool]) -> None:
    claimed, register = _pairs(90)
    with TitlePool(2) as pool:
        got = pool.decide(claimed, register)
    assert answered == [True, True]
    assert got == _here(claimed, register)


def test_few_pairs_are_decided_here(answered: list[bool]) -> None:
    claimed, register = _pairs(30)
    with TitlePool(1) as pool:
        assert pool.decide(claimed, register) == _here(claimed, register)
    assert answered == []


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(["/nonexistent/python"], id="cannot-start"),
        pytest.param([sys.executable, "-c", "import sys; sys.exit(3)"], id="fails"),
        pytest.param(
            [
                sys.executable,
                "-c",
                "import sys; sys.stdin.readline(); open(sys.stdin.readline().strip(), 'wb')"
                ".write(b'not arrow')",
            ],
            id="malformed-answer",
        ),
        pytest.param(
            [sys.executable, "-m", "auditor.compare.title_worker_missing"], id="no-such-module"
        ),
    ],
)
def test_a_failing_worker_is_no_answer(
    command: list[str], few_pairs: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(title_pool, "_command", lambda: command)
    claimed, register = _pairs(60)
    with TitlePool(2) as pool:
        assert pool.decide(claimed, register) == _here(claimed, register)


def test_a_short_answer_is_no_answer(few_pairs: None, monkeypatch: pytest.MonkeyPatch) -> None:
    # A worker that decides only the first half of its share.
    short = (
        "import sys, pyarrow as pa\n"
        "from auditor.compare.title_pool import PAIRS, DECISIONS, decide_table\n"
        "given, answer = sys.stdin.readline().strip(), sys.stdin.readline().strip()\n"
        "pairs = pa.ipc.open_file(pa.memory_map(given)).read_all()\n"
        "out = decide_table(pairs.slice(0, pairs.num_rows // 2))\n"
        "with pa.OSFile(answer, 'wb') as s, pa.ipc.new_file(s, DECISIONS) as w:\n"
        "    w.write_table(out)\n"
    )
    monkeypatch.setattr(title_pool, "_command", lambda: [sys.executable, "-c", short])
    claimed, register = _pairs(60)
    with TitlePool(1) as pool:
        assert pool.decide(claimed, register) == _here(claimed, register)


def test_unused_workers_end() -> None:
    pool = TitlePool(2)
    procs = list(pool._procs)
    pool.close()
    # Ended, not "exited 0": a worker still importing on a busy machine is killed after its grace
    # period, and that is the behaviour wanted; what must never happen is one left running.
    assert all(p.poll() is not None for p in procs)


@pytest.mark.parametrize(
    "not_plain",
    [
        pytest.param(".", id="all-pairs-to-the-workers"),
        pytest.param(plain_titles._NOT_PLAIN + "|q[aeiou]", id="some-pairs-to-the-workers"),
    ],
)
def test_verdicts_with_and_without_workers_are_equal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answered: list[bool], not_plain: str
) -> None:
    snapshot, vocab = scaledata.snapshot(900, seed=11)
    refs = scaledata.references(snapshot, 800, seed=11, vocab=vocab)
    snap_path, refs_path = tmp_path / "snap.parquet", tmp_path / "refs.parquet"
    pq.write_table(snapshot, snap_path)
    pq.write_table(refs, refs_path)
    settings = registry.settings(
        offline=True,
        cache_dir=str(tmp_path / "cache"),
        snapshots=(str(snap_path),),
        fail_on=("none",),
    )

    def verdicts(workers: bool) -> list[dict[str, object]]:
        run = dataclasses.replace(settings, title_workers=workers)
        result = asyncio.run(run_audit([str(refs_path)], run))
        return [
            {k: v for k, v in row.items() if k != "retrieved_at"}
            for row in result.verdicts.to_pylist()
        ]

    monkeypatch.setattr(title_pool, "MIN_ROWS", 1)
    monkeypatch.setattr(title_pool, "MIN_PAIRS", 1)
    alone = verdicts(workers=False)
    assert answered == []  # opt-in: large enough, but not asked for
    # The column form decides the plain pairs before the pool sees any: with all or some taken
    # for not plain, the workers decide those, and the verdicts are still the column form's.
    monkeypatch.setattr(plain_titles, "_NOT_PLAIN", not_plain)
    shared = verdicts(workers=True)
    assert answered and all(answered)
    assert shared == alone
    assert any(row["verdict"] == "RESOLVES-BUT-DIFFERS" for row in alone)


def test_no_executable_means_no_workers(monkeypatch: pytest.MonkeyPatch, few_pairs: None) -> None:
    monkeypatch.setattr(title_pool.sys, "executable", "")
    claimed, register = _pairs(40)
    with TitlePool(2) as pool:
        assert pool._procs == []
        assert pool.decide(claimed, register) == _here(claimed, register)


def test_no_temporary_folder_means_all_decided_here(
    monkeypatch: pytest.MonkeyPatch, few_pairs: None, answered: list[bool]
) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(title_pool.tempfile, "TemporaryDirectory", refuse)
    claimed, register = _pairs(60)
    with TitlePool(2) as pool:
        procs = list(pool._procs)
        assert pool.decide(claimed, register) == _here(claimed, register)
    assert answered == []
    assert all(p.returncode is not None for p in procs)


def test_pairs_that_cannot_be_written_are_decided_here(
    monkeypatch: pytest.MonkeyPatch, few_pairs: None, answered: list[bool]
) -> None:
    monkeypatch.setattr(title_pool, "_hand_over", lambda *args: False)
    claimed, register = _pairs(60)
    with TitlePool(2) as pool:
        assert pool.decide(claimed, register) == _here(claimed, register)
    assert answered == [False, False]


def test_a_hung_worker_is_stopped_and_its_pairs_decided_here(
    monkeypatch: pytest.MonkeyPatch, few_pairs: None
) -> None:
    import time

    monkeypatch.setattr(title_pool, "WAIT_SECONDS", 0.5)
    hang = [sys.executable, "-c", "import time; time.sleep(120)"]
    monkeypatch.setattr(title_pool, "_command", lambda: hang)
    claimed, register = _pairs(60)
    started = time.monotonic()
    with TitlePool(1) as pool:
        procs = list(pool._procs)
        assert pool.decide(claimed, register) == _here(claimed, register)
    assert time.monotonic() - started < 30
    assert all(p.returncode is not None and p.returncode != 0 for p in procs)
