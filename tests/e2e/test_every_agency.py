"""Every DOI compared with its own agency, and updates flagged: `auditor audit` over loopback.

The emulator speaks DataCite JSON:API, CSL-JSON content negotiation for mEDRA/JaLC, Crossref
records with real `updated-by`/`update-to` shapes and PubMed `pubtype`/`references`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from auditor.cli import app
from auditor.emulator import Corpus, Emulator, EmulatorConfig, run_emulator
from auditor.emulator.config import PUBLISHED_LIMITS


def _creator(family: str, given: str) -> dict[str, Any]:
    return {
        "name": f"{family}, {given}",
        "nameType": "Personal",
        "givenName": given,
        "familyName": family,
        "affiliation": [],
        "nameIdentifiers": [],
    }


def _datacite(title: str, creators: list[dict[str, Any]], year: int, **extra: Any) -> dict:
    return {
        "identifiers": [],
        "creators": creators,
        "titles": [{"title": title}],
        "publisher": "Zenodo",
        "container": {},
        "publicationYear": year,
        "types": {"resourceTypeGeneral": "Dataset", "citeproc": "dataset", "bibtex": "misc"},
        "relatedIdentifiers": extra.pop("related", []),
        "state": "findable",
        **extra,
    }


def _work(doi: str, title: str, family: str, year: int, **extra: Any) -> dict[str, Any]:
    return {
        "DOI": doi,
        "type": "journal-article",
        "title": [title],
        "author": [{"given": "A.", "family": family, "sequence": "first"}],
        "issued": {"date-parts": [[year, 2, 1]]},
        "published": {"date-parts": [[year, 2, 1]]},
        "container-title": ["Journal of Examples"],
        **extra,
    }


def _update(doi: str, kind: str, date: tuple[int, int, int], source: str) -> dict[str, Any]:
    y, m, d = date
    return {
        "DOI": doi,
        "type": kind,
        "label": kind.replace("_", " ").capitalize(),
        "source": source,
        "updated": {"date-parts": [[y, m, d]], "date-time": f"{y:04d}-{m:02d}-{d:02d}T00:00:00Z"},
    }


SELF = "10.5555/selfversion.1"
CORPUS = Corpus(
    datacite={
        "10.5281/zenodo.1001": _datacite(
            "Global soil moisture observations 2015-2020", [_creator("Okafor", "Chidi")], 2021
        ),
        "10.5281/zenodo.1002": _datacite(
            "Coral reef survey transects", [_creator("Lindqvist", "Maja")], 2020
        ),
        # figshare: a personal creator with `name` only ("Family, Given").
        "10.6084/m9.figshare.1003": _datacite(
            "Antibiotic resistance genes in river sediment",
            [{"name": "Tanaka, Hiro", "nameType": "Personal"}],
            2019,
            publisher="figshare",
        ),
    },
    csl={
        "10.3280/ecag2022oa13000": {
            "type": "article-journal",
            "DOI": "10.3280/ECAG2022OA13000",
            "title": "Farm income resilience in the Po valley",
            "author": [{"family": "Rossi", "given": "Giulia"}],
            "issued": {"date-parts": [[2022, 6]]},
            "container-title": "Economia agro-alimentare",
        },
        "10.11367/grsj1979.36.45": {
            "type": "article-journal",
            "DOI": "10.11367/grsj1979.36.45",
            "title": "Landslide inventory of the Kii peninsula",
            "author": [{"family": "Suzuki", "given": "Taro"}],
            "issued": {"date-parts": [[1990]]},
        },
    },
    crossref={
        "10.5555/retracted.1": _work(
            "10.5555/retracted.1",
            "Miracle cure for everything",
            "Hoax",
            2015,
            **{
                "updated-by": [
                    _update("10.5555/notice.1", "retraction", (2018, 3, 4), "retraction-watch")
                ]
            },
        ),
        "10.5555/corrected.1": _work(
            "10.5555/corrected.1",
            "A careful measurement",
            "Careful",
            2016,
            **{
                "updated-by": [
                    _update("10.5555/erratum.1", "correction", (2017, 1, 9), "publisher")
                ]
            },
        ),
        "10.5555/notice.1": _work(
            "10.5555/notice.1",
            "Retraction notice: Miracle cure for everything",
            "Editor",
            2018,
            **{
                "update-to": [
                    _update("10.5555/retracted.1", "retraction", (2018, 3, 4), "publisher")
                ]
            },
        ),
        SELF: _work(
            SELF,
            "A versioned article",
            "Versioned",
            2020,
            **{
                "updated-by": [_update(SELF, "new_version", (2020, 1, 30), "publisher")],
                "update-to": [_update(SELF, "new_version", (2020, 1, 30), "publisher")],
                "relation": {
                    "new_version": [{"id-type": "doi", "id": SELF, "asserted-by": "object"}]
                },
            },
        ),
    },
    pubmed={
        "2001": {
            "uid": "2001",
            "pubdate": "2012 Jan",
            "source": "J Ex",
            "title": "A retracted trial.",
            "authors": [{"name": "Fraud F", "authtype": "Author"}],
            "pubtype": ["Journal Article", "Retracted Publication"],
            "references": [
                {
                    "refsource": "J Ex. 2014;3:9",
                    "reftype": "Retraction in",
                    "pmid": 2002,
                    "note": "",
                }
            ],
            "articleids": [{"idtype": "pubmed", "value": "2001"}],
        }
    },
    agencies={
        "10.5555": "Crossref",
        "10.3280": "mEDRA",
        "10.11367": "JaLC",
        "10.5012": "KISTI",
    },
    handles={"10.5012/bkcs.2020.41.1.1"},
)


def _entry(key: str, doi: str, title: str, author: str, year: int) -> str:
    return (
        f"@article{{{key},\n  author = {{{author}}},\n  title = {{{title}}},\n"
        f"  year = {{{year}}},\n  doi = {{{doi}}},\n}}\n\n"
    )


BIB = "".join(
    [
        _entry(
            "soil",
            "10.5281/zenodo.1001",
            "Global soil moisture observations 2015-2020",
            "Okafor, Chidi",
            2021,
        ),
        _entry(
            "reef", "10.5281/zenodo.1002", "Coral reef survey transects", "Lindqvist, Maja", 2017
        ),
        _entry(
            "chimera",
            "10.6084/m9.figshare.1003",
            "Deep learning for protein folding at scale",
            "Tanaka, Hiro",
            2019,
        ),
        _entry("ghost", "10.5281/zenodo.9999999", "A dataset nobody deposited", "Nobody, N.", 2022),
        _entry(
            "medra",
            "10.3280/ecag2022oa13000",
            "Farm income resilience in the Po valley",
            "Rossi, Giulia",
            2022,
        ),
        _entry(
            "jalc",
            "10.11367/grsj1979.36.45",
            "Landslide inventory of the Kii peninsula",
            "Suzuki, Taro",
            1995,
        ),
        _entry("kisti", "10.5012/bkcs.2020.41.1.1", "A Korean chemistry paper", "Kim, M.", 2020),
        _entry("retracted", "10.5555/retracted.1", "Miracle cure for everything", "Hoax, A.", 2015),
        _entry("corrected", "10.5555/corrected.1", "A careful measurement", "Careful, A.", 2016),
        _entry("notice", "10.5555/notice.1", "Miracle cure for everything", "Editor, A.", 2018),
        _entry("versioned", SELF, "A versioned article", "Versioned, A.", 2020),
        "@article{pmretracted,\n  author = {Fraud, F.},\n  title = {A retracted trial},\n"
        "  year = {2012},\n  pmid = {2001},\n}\n",
    ]
)

EXPECTED = {
    "soil": ("RESOLVES-AND-MATCHES", None, "datacite"),
    "reef": ("RESOLVES-BUT-DIFFERS", "year_differs", "datacite"),
    "chimera": ("RESOLVES-BUT-DIFFERS", "title_differs", "datacite"),
    "ghost": ("DOES-NOT-RESOLVE", "not_found", "doi"),
    "medra": ("RESOLVES-AND-MATCHES", None, "csl"),
    "jalc": ("RESOLVES-BUT-DIFFERS", "year_differs", "csl"),
    "kisti": ("NOT COVERED", "registered_with_kisti", "doi"),  # it serves no CSL
    "retracted": ("RESOLVES-AND-MATCHES", None, "crossref"),
    "corrected": ("RESOLVES-AND-MATCHES", None, "crossref"),
    "versioned": ("RESOLVES-AND-MATCHES", None, "crossref"),
    "pmretracted": ("RESOLVES-AND-MATCHES", None, "pubmed"),
}


@pytest.fixture
def env(isolated: Path, tmp_path: Path) -> Path:
    return tmp_path


@pytest.fixture
def emu() -> Iterator[Emulator]:
    limits = {k: PUBLISHED_LIMITS[k] for k in ("crossref", "datacite")}
    with run_emulator(CORPUS, EmulatorConfig(rate_limits=limits)) as running:
        yield running


def _audit(emu: Emulator, bib: Path, out: str, *extra: str) -> tuple[int, str]:
    env = {f"AUDITOR_{k.upper()}": v for k, v in emu.base_urls.items()}
    env["AUDITOR_NCBI_EMAIL"] = "test@example.org"
    args = ["audit", str(bib), "--out", out, "--quiet", "--fail-on", "P0", *extra]
    result = CliRunner().invoke(app, args, env=env)
    return result.exit_code, result.output


def _read(env: Path, out: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    verdicts = pd.read_parquet(env / out / "verdicts.parquet").set_index("key")
    checklist = pd.read_parquet(env / out / "checklist.parquet")
    return verdicts, checklist


def _updates(verdicts: pd.DataFrame) -> list[list[dict[str, Any]] | None]:
    return [None if u is None else list(u) for u in verdicts["updates"]]


def _items(checklist: pd.DataFrame) -> dict[tuple[str, str], str]:
    rows = checklist[["key", "reason_code", "priority"]].to_numpy()
    return {(k, r): p for k, r, p in rows}


def test_every_agency_gets_a_verdict_and_updates_are_flagged(env: Path, emu: Emulator) -> None:
    bib = env / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    code, output = _audit(emu, bib, "cold")
    assert code == 1, output  # the retracted works fail the P0 policy
    counts = dict(emu.counts)
    verdicts, checklist = _read(env, "cold")
    plain = verdicts[["verdict", "reason", "register"]].astype(object)
    plain = plain.where(plain.notna(), None)
    got = {k: tuple(plain.loc[k]) for k in EXPECTED}
    assert got == EXPECTED
    # Three DataCite DOIs (and a fabricated one under a DataCite prefix): at most two requests.
    assert counts["datacite_dois"] + counts["datacite_doi"] <= 2
    assert emu.count_429 == 0
    items = _items(checklist)
    assert items[("retracted", "work_retracted")] == "P0"
    assert items[("pmretracted", "work_retracted")] == "P0"
    assert items[("corrected", "work_corrected")] == "P3"
    assert items[("notice", "cited_update_notice")] == "P1"
    assert not [k for k, _ in items if k == "versioned"]
    text = checklist.set_index(["key", "reason_code"]).loc[("retracted", "work_retracted"), "text"]
    assert text == (
        "The cited work was retracted on 2018-03-04; notice: doi:10.5555/notice.1; "
        "pending human check."
    )
    pm_text = checklist.set_index(["key", "reason_code"]).loc[
        ("pmretracted", "work_retracted"), "text"
    ]
    assert "PMID 2002" in pm_text
    assert list(verdicts.loc["versioned", "updates"]) == []

    # A warm re-run makes no request and reports the same.
    emu.reset_counts()
    code, output = _audit(emu, bib, "warm")
    assert code == 1, output
    assert sum(emu.counts.values()) == 0, dict(emu.counts)
    warm_verdicts, warm_checklist = _read(env, "warm")
    columns = ["verdict", "reason", "register", "title_register", "year_register"]
    pd.testing.assert_frame_equal(warm_verdicts[columns], verdicts[columns])
    assert _updates(warm_verdicts) == _updates(verdicts)
    assert _items(warm_checklist) == items
    assert set(warm_verdicts["tier"].dropna()) == {"cache"}

    # Offline from an exported snapshot: the same updates.
    result = CliRunner().invoke(app, ["cache", "export-snapshot", str(env / "snap.parquet")])
    assert result.exit_code == 0, result.output
    code, output = _audit(
        emu,
        bib,
        "offline",
        "--offline",
        "--snapshot",
        str(env / "snap.parquet"),
        "--cache-dir",
        str(env / "empty-cache"),
    )
    assert code == 1, output
    offline_verdicts, offline_checklist = _read(env, "offline")
    pd.testing.assert_frame_equal(offline_verdicts[columns], verdicts[columns])
    assert _updates(offline_verdicts) == _updates(verdicts)
    assert _items(offline_checklist) == items


def test_a_known_datacite_prefix_goes_straight_to_datacite(env: Path, emu: Emulator) -> None:
    first = env / "first.bib"
    first.write_text(
        _entry(
            "soil",
            "10.5281/zenodo.1001",
            "Global soil moisture observations 2015-2020",
            "Okafor, Chidi",
            2021,
        ),
        encoding="utf-8",
    )
    assert _audit(emu, first, "first")[0] == 0
    emu.reset_counts()
    second = env / "second.bib"
    second.write_text(
        _entry(
            "reef", "10.5281/zenodo.1002", "Coral reef survey transects", "Lindqvist, Maja", 2020
        )
        + _entry(
            "ghost", "10.5281/zenodo.9999999", "A dataset nobody deposited", "Nobody, N.", 2022
        ),
        encoding="utf-8",
    )
    code, output = _audit(emu, second, "second")
    assert code == 0, output
    counts = dict(emu.counts)
    # The prefix's agency was learned: no Crossref request, and a DataCite 404 alone condemns
    # nothing: the DOI system says the fabricated DOI does not exist.
    assert counts["crossref_work"] + counts["crossref_filter"] == 0
    assert counts["datacite_dois"] + counts["datacite_doi"] <= 2
    assert counts["doira"] == 1
    verdicts, _ = _read(env, "second")
    assert verdicts.loc["reef", "verdict"] == "RESOLVES-AND-MATCHES"
    assert verdicts.loc["ghost", "verdict"] == "DOES-NOT-RESOLVE"


def test_csl_behind_a_refused_redirect_stays_not_covered(env: Path) -> None:
    doi = "10.3280/ecag2022oa13000"
    # The agency's metadata service answers with a redirect to a bare IP address.
    config = EmulatorConfig(faults={f"csl:{doi}": "redirect_ip"})
    bib = env / "medra.bib"
    bib.write_text(
        _entry("medra", doi, "Farm income resilience in the Po valley", "Rossi, Giulia", 2022),
        encoding="utf-8",
    )
    with run_emulator(CORPUS, config) as running:
        code, output = _audit(running, bib, "out")
        assert running.counts["csl"] == 1  # the refused hop was never followed
    assert code == 0, output
    verdicts, _ = _read(env, "out")
    assert verdicts.loc["medra", "verdict"] == "NOT COVERED"
    assert verdicts.loc["medra", "reason"] == "registered_with_medra"
