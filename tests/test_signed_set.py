"""`audit --sign` signs the manifest; `verify` checks every file of the set (#26, 13)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from auditor.cli import app

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def signed(isolated: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    key_path = tmp_path / "key.pem"
    out = tmp_path / "out"
    args = ["audit", str(ROOT / "sample_bibs" / "thesis.bib"), "--offline", "--quiet"]
    result = CliRunner().invoke(
        app, [*args, "--out", str(out), "--sign", "--signing-key", str(key_path)]
    )
    assert result.exit_code == 0, result.output
    return out, {"AUDITOR_SIGNING_KEY": str(key_path)}


def _verify(target: Path, env: dict[str, str]) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["verify", str(target)], env=env)
    return result.exit_code, result.output


def _rehash(out: Path, name: str) -> None:
    """What an attacker does: update the file's size and hash in the manifest to match."""
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    data = (out / name).read_bytes()
    for entry in manifest["files"]:
        if entry["name"] == name:
            entry["bytes"], entry["sha256"] = len(data), hashlib.sha256(data).hexdigest()
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def test_the_untouched_set_verifies_as_folder_manifest_and_report(
    signed: tuple[Path, dict[str, str]],
) -> None:
    out, env = signed
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["signature"]["alg"] == "Ed25519"
    names = {f["name"] for f in manifest["files"]}
    assert {"verdicts.csv", "report.json", "verdicts.parquet"} <= names
    for target in (out, out / "manifest.json", out / "report.json"):
        assert _verify(target, env)[0] == 0, target


def test_a_changed_csv_with_its_hash_updated_in_the_manifest_fails(
    signed: tuple[Path, dict[str, str]],
) -> None:
    out, env = signed
    csv = out / "verdicts.csv"
    csv.write_text(
        csv.read_text(encoding="utf-8-sig").replace("DOES-NOT-RESOLVE", "RESOLVES-AND-MATCHES"),
        encoding="utf-8-sig",
    )
    _rehash(out, "verdicts.csv")
    for target in (out, out / "report.json", out / "manifest.json"):
        code, output = _verify(target, env)
        assert code == 1, (target, output)
        assert "manifest.json" in output and "signature mismatch" in output


def test_a_changed_file_with_the_manifest_left_alone_fails(
    signed: tuple[Path, dict[str, str]],
) -> None:
    out, env = signed
    (out / "checklist.csv").write_bytes((out / "checklist.csv").read_bytes() + b"x,y\n")
    code, output = _verify(out / "report.json", env)
    assert code == 1
    assert "checklist.csv: changed after signing" in output


def test_an_added_or_a_missing_file_fails(signed: tuple[Path, dict[str, str]]) -> None:
    out, env = signed
    (out / "extra.csv").write_text("key,verdict\nx,RESOLVES-AND-MATCHES\n", encoding="utf-8")
    code, output = _verify(out, env)
    assert code == 1 and "extra.csv: not listed" in output
    (out / "extra.csv").unlink()
    (out / "verdicts.parquet").unlink()
    code, output = _verify(out, env)
    assert code == 1 and "verdicts.parquet: listed in the manifest but missing" in output


def test_a_set_report_without_its_manifest_does_not_verify_alone(
    signed: tuple[Path, dict[str, str]],
) -> None:
    out, env = signed
    (out / "manifest.json").unlink()
    code, output = _verify(out / "report.json", env)
    assert code == 1
    assert "manifest.json" in output
