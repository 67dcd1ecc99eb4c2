"""`auditor overlap`: bundle files, stdin, exit codes, and the batch form over a bibliography."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from auditor.commands.overlap import register

from .conftest import contract_examples

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.callback()
    def _root() -> None:
        """Root, so `overlap` stays a sub-command."""

    return app


def invoke(app: typer.Typer, args: list[str], stdin: str | None = None) -> Any:
    return CliRunner(env={}).invoke(app, ["overlap", *args], input=stdin)


@pytest.mark.parametrize("example", contract_examples(), ids=lambda e: e["name"])
def test_bundle_file_prints_the_contract_result(
    app: typer.Typer, tmp_path: Path, example: dict[str, Any]
) -> None:
    path = tmp_path / "bundle.json"
    path.write_text(json.dumps(example["request"]), encoding="utf-8")
    result = invoke(app, [str(path)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == json.dumps(example["response"], indent=4) + "\n"
    compact = invoke(app, [str(path), "--compact"])
    assert compact.stdout == json.dumps(example["response"], separators=(",", ":")) + "\n"


def test_stdin_bundle(app: typer.Typer) -> None:
    example = contract_examples()[0]
    result = invoke(app, ["-"], stdin=json.dumps(example["request"]))
    assert result.exit_code == 0
    assert json.loads(result.stdout) == example["response"]


@pytest.mark.parametrize(
    ("bundle", "field"),
    [
        ({"claim": "x", "citations": [{"id": "a", "url": "https://a.test"}]}, "citations"),
        ({"claim": "", "citations": []}, "claim"),
        (
            {"claim": "x", "citations": [{"id": "a", "url": "https://a.test"},
                                         {"id": "b", "url": "https://u:p@b.test"}]},
            "citations[1].url",
        ),
    ],
)  # fmt: skip
def test_invalid_bundle_exits_2_naming_the_field(
    app: typer.Typer, tmp_path: Path, bundle: dict[str, Any], field: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bundle), encoding="utf-8")
    result = invoke(app, [str(path)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert f"{field}:" in result.stderr


def test_oversized_and_missing_files(app: typer.Typer, tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 300_000 + b"{}")
    result = invoke(app, [str(big)])
    assert result.exit_code == 2 and "request:" in result.stderr
    missing = invoke(app, [str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.stderr


def test_argument_combinations(app: typer.Typer, tmp_path: Path) -> None:
    assert invoke(app, []).exit_code == 2
    assert invoke(app, ["b.json", "--bib", "x.bib"]).exit_code == 2
    assert invoke(app, ["b.json", "--claim", "x"]).exit_code == 2
    bib = FIXTURES / "overlap.bib"
    assert invoke(app, ["--bib", str(bib), "--html-dir", str(tmp_path / "none")]).exit_code == 2


def _pages(tmp_path: Path) -> Path:
    pages = tmp_path / "html"
    pages.mkdir()
    (pages / "news2021.html").write_text(
        "<p>Reported by</p>\n<p><a href='https://press.example/release'>the release</a>, see "
        "<a href='https://doi.org/10.1000/trial.1'>the trial</a></p>",
        encoding="utf-8",
    )
    (pages / "blog2021.html").write_text(
        "<a href='https://press.example/release#top'>press</a>", encoding="utf-8"
    )
    (tmp_path / "secret.html").write_text("<a href='https://leak.example/'>x</a>")
    return pages


def test_batch_form_finds_shared_links_and_links_to_other_citations(
    app: typer.Typer, tmp_path: Path
) -> None:
    pages = _pages(tmp_path)
    result = invoke(app, ["--bib", str(FIXTURES / "overlap.bib"), "--html-dir", str(pages)])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["coverage"] == {"citation_count": 5, "html_document_count": 2}
    (shared,) = out["shared_link_candidates"]
    assert shared["linked_url"] == "https://press.example/release"
    assert [d["id"] for d in shared["documents"]] == ["news2021", "blog2021"]
    links = out["citation_link_candidates"]
    assert [(c["from_id"], c["to_id"]) for c in links] == [
        ("news2021", "trial2020"),  # through the DOI's landing URL
        ("news2021", "release2020"),
        ("blog2021", "release2020"),
    ]
    assert links[0]["locations"][0]["target_url"] == "https://doi.org/10.1000/trial.1"
    assert links[0]["locations"][0]["line"] == 2
    # The key with a path in it is a citation id, never a path out of the HTML folder.
    ids = out["unresolved_citation_ids"]
    assert ".._secret" in ids and "leak" not in result.stdout
    assert "nourl: no HTTPS URL or identifier" in result.stderr
    claim_default = invoke(app, ["--bib", str(FIXTURES / "overlap.bib"), "--claim", "Lbl"])
    assert claim_default.exit_code == 0


def test_batch_form_goes_on_past_an_oversized_page(app: typer.Typer, tmp_path: Path) -> None:
    # One saved page over the contract's HTML bound must not stop the batch: that citation is
    # checked by URL alone, the user is told which key, and the others keep their links.
    pages = _pages(tmp_path)
    (pages / "blog2021.html").write_text("x" * 131_073, encoding="utf-8")
    result = invoke(app, ["--bib", str(FIXTURES / "overlap.bib"), "--html-dir", str(pages)])
    assert result.exit_code == 0, result.stderr
    assert "blog2021: saved page is over the contract's 131,072-byte HTML bound" in result.stderr
    out = json.loads(result.stdout)
    assert out["coverage"]["html_document_count"] == 1  # news2021 still read, blog2021 not
