"""`auditor audit` on bad settings and unwritable outputs: exit 2 naming the setting or path,
never a traceback; reports written as a set, special files written to, never replaced."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.exitcodes import ExitCode
from auditor.files import MANIFEST

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bibs"
BIB = """@article{lecun2015deep,
  author = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  title = {Deep learning}, journal = {Nature}, year = {2015}, doi = {10.1038/nature14539},
}
"""


@pytest.fixture
def bib(tmp_path: Path) -> Path:
    path = tmp_path / "refs.bib"
    path.write_text(BIB, encoding="utf-8")
    return path


def _audit(bib: Path, tmp_path: Path, *args: str, env: dict[str, str] | None = None):
    base = [
        "audit",
        str(bib),
        "--offline",
        "--snapshot",
        str(SAMPLES / "snapshot.parquet"),
        "--cache-dir",
        str(tmp_path / "cache"),
        "--quiet",
    ]
    return CliRunner(env=env or {}).invoke(app, [*base, *args])


@pytest.mark.parametrize(
    ("args", "env", "named"),
    [
        (["--timeout", "0"], {}, "--timeout"),
        (["--timeout", "-1"], {}, "--timeout"),
        (["--timeout", "inf"], {}, "--timeout"),
        (["--timeout", "nan"], {}, "--timeout"),
        (["--max-retries", "-3"], {}, "--max-retries"),
        (["--ncbi-rate", "0"], {}, "--ncbi-rate"),
        (["--cache-ttl-days", "-1"], {}, "--cache-ttl-days"),
        (["--crossref-batch-size", "0"], {}, "--crossref-batch-size"),
        (["--mailto", "a@b.org\r\nX-Evil: 1"], {}, "--mailto"),
        (["--crossref-url", "not a url"], {}, "--crossref-url"),
        (["--crossref-url", "ftp://example.org"], {}, "--crossref-url"),
        (["--encoding", "rot13"], {}, "--encoding"),
        (["--encoding", "no-such-codec"], {}, "--encoding"),
        ([], {"AUDITOR_TIMEOUT": "0"}, "AUDITOR_TIMEOUT"),
        ([], {"AUDITOR_DOI_RATE": "-2"}, "AUDITOR_DOI_RATE"),
    ],
)
def test_bad_setting_is_exit_2_naming_it(bib, tmp_path, args, env, named):
    result = _audit(bib, tmp_path, "--out", str(tmp_path / "out"), *args, env=env)
    assert result.exit_code == ExitCode.USAGE, result.output
    assert named in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "out").exists()  # rejected before any work


def test_bad_setting_in_a_config_file_names_the_file(bib, tmp_path):
    config = tmp_path / "auditor.toml"
    config.write_text("max_retries = -1\n", encoding="utf-8")
    result = _audit(bib, tmp_path, "--config", str(config))
    assert result.exit_code == ExitCode.USAGE
    assert str(config) in result.output.replace("\n", "") and "max_retries" in result.output


def test_a_key_in_the_wrong_section_is_exit_2_naming_it(bib, tmp_path):
    config = tmp_path / "auditor.toml"
    config.write_text("[legs]\ntimeout = 3\n", encoding="utf-8")
    result = _audit(bib, tmp_path, "--config", str(config), "--out", str(tmp_path / "out"))
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "timeout" in result.output and "[legs]" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "out").exists()


def test_out_naming_a_file_is_exit_2(bib, tmp_path):
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    result = _audit(bib, tmp_path, "--out", str(target))
    assert result.exit_code == ExitCode.USAGE
    assert "--out" in result.output


def test_unwritable_junit_is_exit_2_naming_the_path(bib, tmp_path):
    # Under a regular file: unwritable even for root (who ignores folder modes).
    blocker = tmp_path / "blocker"
    blocker.write_text("x", encoding="utf-8")
    result = _audit(
        bib, tmp_path, "--out", str(tmp_path / "out"), "--junit", str(blocker / "j.xml")
    )
    assert result.exit_code == ExitCode.USAGE, result.output
    assert "j.xml" in result.output


def test_junit_naming_a_folder_is_exit_2(bib, tmp_path):
    result = _audit(bib, tmp_path, "--out", str(tmp_path / "out"), "--junit", str(tmp_path))
    assert result.exit_code == ExitCode.USAGE, result.output
    assert str(tmp_path.name) in result.output


def test_markup_in_the_out_path_is_printed_not_parsed(bib, tmp_path):
    out = tmp_path / "reports" / "[/tmp]"
    result = CliRunner(env={}).invoke(
        app,
        [
            "audit",
            str(bib),
            "--offline",
            "--snapshot",
            str(SAMPLES / "snapshot.parquet"),
            "--cache-dir",
            str(tmp_path / "cache"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code in (ExitCode.OK, ExitCode.FINDINGS), result.output
    assert "[/tmp]" in result.output
    assert (out / "report.json").is_file()


def test_reports_are_a_set_with_a_manifest_and_readable_modes(bib, tmp_path):
    out = tmp_path / "out"
    old = os.umask(0o022)
    try:
        result = _audit(bib, tmp_path, "--out", str(out))
    finally:
        os.umask(old)
    assert result.exit_code in (ExitCode.OK, ExitCode.FINDINGS), result.output
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    names = {f["name"] for f in manifest["files"]}
    assert {"report.json", "report.html", "verdicts.csv", "verdicts.parquet"} <= names
    assert {p.name for p in out.iterdir()} == names | {MANIFEST}
    for path in out.iterdir():
        assert stat.S_IMODE(path.stat().st_mode) == 0o644, path
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]  # staging removed


def test_a_second_run_cannot_interleave_while_one_holds_the_folder(bib, tmp_path):
    from auditor.files import report_set

    out = tmp_path / "out"
    with report_set(out):
        result = _audit(bib, tmp_path, "--out", str(out))
    assert result.exit_code == ExitCode.USAGE
    assert "another auditor run" in result.output


def test_a_failed_set_leaves_the_previous_one_whole(tmp_path):
    from auditor.files import report_set

    out = tmp_path / "out"
    with report_set(out) as staging:
        (staging / "a.txt").write_text("1", encoding="utf-8")
        (staging / "b.txt").write_text("1", encoding="utf-8")
    with pytest.raises(RuntimeError), report_set(out) as staging:
        (staging / "a.txt").write_text("2", encoding="utf-8")
        raise RuntimeError("killed half-way")
    assert (out / "a.txt").read_text(encoding="utf-8") == "1"
    assert (out / MANIFEST).is_file()
    with report_set(out) as staging:
        (staging / "a.txt").write_text("3", encoding="utf-8")
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", MANIFEST]  # b.txt was the old set's


def test_junit_into_a_fifo_writes_and_keeps_the_fifo(bib, tmp_path):
    fifo = tmp_path / "junit.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    result = _audit(bib, tmp_path, "--out", str(tmp_path / "out"), "--junit", str(fifo))
    reader.join(timeout=30)
    assert result.exit_code in (ExitCode.OK, ExitCode.FINDINGS), result.output
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got and got[0].startswith(b"<?xml")


def test_no_traceback_reaches_the_user_unless_debug(tmp_path):
    """The console script: an unexpected error is one line and exit 4; `--debug` shows it."""
    code = (
        "import sys; from auditor.transport.cache import RecordCache\n"
        "def boom(*a, **k): raise RuntimeError('boom')\n"
        "RecordCache.open = boom\n"
        "from auditor.cli import main; sys.argv = ['auditor', *sys.argv[1:]]; main()\n"
    )
    run = [sys.executable, "-c", code]
    env = {**os.environ, "AUDITOR_CACHE_DIR": str(tmp_path / "c")}
    plain = subprocess.run([*run, "cache", "stats"], capture_output=True, text=True, env=env)
    assert plain.returncode == ExitCode.INTERNAL
    assert "Traceback" not in plain.stderr and "boom" in plain.stderr
    debug = subprocess.run(
        [*run, "--debug", "cache", "stats"], capture_output=True, text=True, env=env
    )
    assert debug.returncode != 0 and "Traceback" in debug.stderr
