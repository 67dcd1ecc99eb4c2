"""Ed25519 signatures over the RFC 8785 canonical form: keys, signing, verification, CLI."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from auditor.cli import app
from auditor.signing import (
    SigningError,
    canonical_bytes,
    load_or_create_key,
    load_public_key,
    public_key_text,
    sign_report,
    verify_report,
)
from tests.properties import examples

REPORT = {"verdict": "RESOLVES-AND-MATCHES", "fields": [{"field": "title", "score": 0.9}]}


def test_the_key_is_made_once_with_owner_only_permissions(tmp_path: Path) -> None:
    path = tmp_path / "cfg" / "signing_key.pem"
    key = load_or_create_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    again = load_or_create_key(path)
    assert public_key_text(again.public_key()) == public_key_text(key.public_key())


def test_a_bad_key_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.pem"
    path.write_text("not a key")
    with pytest.raises(SigningError, match="junk.pem"):
        load_or_create_key(path)
    with pytest.raises(SigningError, match="junk.pem"):
        load_public_key(path)


def test_canonical_form_is_rfc8785() -> None:
    data = {"b": [1, 1.5, "é"], "a": None, "signature": {"x": 1}, "c": 1e21}
    assert canonical_bytes(data) == '{"a":null,"b":[1,1.5,"é"],"c":1e+21}'.encode()


def test_layout_does_not_matter_but_content_does(tmp_path: Path) -> None:
    key = load_or_create_key(tmp_path / "k.pem")
    signed = sign_report(REPORT, key)
    reparsed = json.loads(json.dumps(signed, indent=4, sort_keys=True))
    assert verify_report(reparsed, key.public_key()).valid
    changed = json.loads(json.dumps(signed))
    changed["fields"][0]["score"] = 0.91
    outcome = verify_report(changed, key.public_key())
    assert not outcome.valid and "changed" in outcome.reason
    other = load_or_create_key(tmp_path / "other.pem")
    assert "another key" in verify_report(signed, other.public_key()).reason
    assert not verify_report({"verdict": "x"}, key.public_key()).valid
    assert not verify_report([], key.public_key()).valid


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(deadline=None, max_examples=examples(60))  # a shared machine: no per-example deadline
@given(st.dictionaries(st.text(max_size=5), json_values, max_size=5))
def test_any_report_round_trips_through_json(report: dict[str, object]) -> None:
    signed = sign_report(report, _KEY)
    assert verify_report(json.loads(json.dumps(signed)), _KEY.public_key()).valid


_KEY = Ed25519PrivateKey.generate()


def test_verify_command_with_pem_and_text_keys(tmp_path: Path) -> None:
    key = load_or_create_key(tmp_path / "k.pem")
    report = tmp_path / "r.json"
    report.write_text(json.dumps(sign_report(REPORT, key)), encoding="utf-8")
    text_key = tmp_path / "pub.txt"
    text_key.write_text(public_key_text(key.public_key()) + "\n")
    for key_file in (text_key, tmp_path / "k.pem"):
        result = CliRunner().invoke(app, ["verify", str(report), "--key", str(key_file)])
        assert result.exit_code == 0, result.output
    report.write_text(report.read_text().replace("MATCHES", "MATCHEZ"), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(report), "--key", str(text_key)])
    assert result.exit_code == 1
    report.write_text("{not json", encoding="utf-8")
    assert CliRunner().invoke(app, ["verify", str(report), "--key", str(text_key)]).exit_code == 2
    missing = {"AUDITOR_SIGNING_KEY": str(tmp_path / "absent.pem")}
    assert CliRunner().invoke(app, ["verify", str(report)], env=missing).exit_code == 2
    assert not (tmp_path / "absent.pem").exists()


def test_audit_sign_signs_report_json(isolated: Path, tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[1]
    key_path = tmp_path / "key.pem"
    out = tmp_path / "out"
    args = ["audit", str(root / "sample_bibs" / "thesis.bib"), "--offline", "--quiet"]
    result = CliRunner().invoke(
        app, [*args, "--out", str(out), "--sign", "--signing-key", str(key_path)]
    )
    assert result.exit_code == 0, result.output
    report = out / "report.json"
    assert '"signature": {' in report.read_text(encoding="utf-8")
    env = {"AUDITOR_SIGNING_KEY": str(key_path)}
    assert CliRunner().invoke(app, ["verify", str(report)], env=env).exit_code == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    data["verdicts"][0]["title_claimed"] += " (edited)"
    report.write_text(json.dumps(data), encoding="utf-8")
    assert CliRunner().invoke(app, ["verify", str(report)], env=env).exit_code == 1


def test_a_saved_criteria_answer_is_a_key_file(tmp_path: Path) -> None:
    key = load_or_create_key(tmp_path / "k.pem")
    text = public_key_text(key.public_key())
    for doc in ({"signing_key": {"public_key": text}}, {"public_key": text}):
        path = tmp_path / "criteria.json"
        path.write_text(json.dumps(doc))
        assert public_key_text(load_public_key(path)) == text
    path.write_text('{"nothing": 1}')
    with pytest.raises(SigningError, match="public_key"):
        load_public_key(path)
