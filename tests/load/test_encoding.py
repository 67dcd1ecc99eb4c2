"""`decode_bytes`: BOMs, BOM-less UTF-16, UTF-8 line by line with a named fallback, binary files."""

from __future__ import annotations

from pathlib import Path

import pytest

from auditor.errors import InputError
from auditor.load import decode_bytes, load_files

_BIB = "@article{k, title={Caf\u00e9 na\u00efve}}\n"


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-8-sig"])
def test_unicode_encodings_are_detected(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "jabref.bib"
    path.write_bytes(_BIB.encode(codec))
    outcome = load_files([str(path)])
    assert outcome.table.column("title").to_pylist() == ["Caf\u00e9 na\u00efve"]
    assert outcome.problems == ()


def test_one_stray_byte_costs_one_line_not_the_file() -> None:
    data = "@article{a, title={Caf\u00e9}}\n".encode() + b"@article{b, title={Caf\xe9}}\n"
    decoded = decode_bytes(data, "mixed.bib")
    assert decoded.text.count("Caf\u00e9") == 2  # not `CafÃ©` on the UTF-8 line
    assert decoded.fallback_lines == (2,)
    assert decoded.warnings() == ["not UTF-8 on line(s) 2: read as Windows-1252/Latin-1"]


def test_windows_1252_punctuation_is_read_as_such() -> None:
    assert (
        decode_bytes(b"a \x93quoted\x94 \x96 dash\n", "w.ris").text
        == "a \u201cquoted\u201d \u2013 dash\n"
    )


def test_utf8_bom_with_a_stray_byte_keeps_the_first_ris_record(tmp_path: Path) -> None:
    path = tmp_path / "bom.ris"
    body = b"TY  - JOUR\nTI  - First\nER  - \nTY  - JOUR\nTI  - Caf\xe9\nER  - \n"
    path.write_bytes(b"\xef\xbb\xbf" + body)
    outcome = load_files([str(path)])
    assert outcome.table.column("title").to_pylist() == ["First", "Caf\u00e9"]
    assert [p.message for p in outcome.problems] == [
        "not UTF-8 on line(s) 5: read as Windows-1252/Latin-1"
    ]


def test_bad_utf16_is_named_never_zero_rows(tmp_path: Path) -> None:
    path = tmp_path / "broken.bib"
    path.write_bytes(b"\xff\xfe" + _BIB.encode("utf-16-le")[:-1])  # odd length
    with pytest.raises(InputError, match=r"broken\.bib.*utf-16"):
        load_files([str(path)])


def test_binary_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "image.bib"
    path.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(InputError, match=r"image\.bib: not a text file"):
        load_files([str(path)])


def test_a_few_nul_bytes_are_removed_and_named() -> None:
    decoded = decode_bytes(
        b"@article{a, title={A}}\n" * 100 + b"@article{b, ti\x00tle={B}}\n", "n.bib"
    )
    assert "\x00" not in decoded.text
    assert decoded.nul_lines == (101,)


def test_gbk_chinese_bibtex_is_read_as_gb18030(tmp_path: Path) -> None:
    path = tmp_path / "gbk.bib"
    text = "@ARTICLE{凯撒2013,\n  author = {凯撒},\n  title = {Test},\n  journal = {测试期刊}\n}\n"
    path.write_bytes(text.encode("gbk"))
    outcome = load_files([str(path)])
    (row,) = outcome.table.to_pylist()
    assert (row["key"], row["authors"], row["container_title"]) == (
        "凯撒2013",
        ["凯撒"],
        "测试期刊",
    )
    assert [p.message for p in outcome.problems] == [
        "not UTF-8 on line(s) 1, 2, 4: read as GB18030"
    ]


_WESTERN = [
    "Müller, Jürgen and Gödel, Kurt",
    "Educação e ciência: informações, Conceição, Gonçalves",
    "Núñez, José and Ñúñez, María",
    "Größe und Maße der Straße; Müßiggang",
    "Ångström, Anders; Søren Kierkegaard; Ærøskøbing",
    "L'élève et l'œuvre: «Noël» à Besançon — “quoted” …",  # Windows-1252 only
]


def _encodable(text: str, codec: str) -> bool:
    try:
        text.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


@pytest.mark.parametrize(
    ("western", "codec"),
    [(w, c) for w in _WESTERN for c in ("latin-1", "cp1252") if _encodable(w, c)],
)
def test_western_latin1_never_looks_chinese(western: str, codec: str) -> None:
    decoded = decode_bytes(("@misc{k, title={" + western + "}}\n").encode(codec), "w.bib")
    assert western in decoded.text and decoded.fallback == "Windows-1252/Latin-1"
