"""Personal names: the one place a name is parsed, cut or keyed.

A name reaches us in two forms, kept apart (`references.authors` and `references.author_names`):

- **as written**: one string per author, exactly as the source gives it (LaTeX rendered, nothing
  reordered). `reference-resolution/v1` reads only this, through `v1_surname`: the part before
  the first ASCII comma, else the last whitespace token, then `normalize_text`.
- **as parsed**: a `ParsedName` (family, given, particle, suffix) where the source has structure:
  BibTeX's own name grammar (`parse`), `Family, Given` of tagged formats (`parse_family_given`),
  CSL's `family`/`given` (`ParsedName` built directly).
  `Frank G. Bennett, Jr.` is parsed as Bennett, suffix Jr. (`suffix_after_comma`), as every
  reader means it; `parse(..., literal=True)` keeps BibTeX's letter; v1's cut reads it literally.

`name_keys` (a claimed name) and `register_name_keys` (a register's surname) give every surname a
name can stand for as compact keys; two names match when their keys meet. Keys tolerate the ways
registers store names: with or without the particle (`de Vries` ~ `Vries`), compound Iberian
surnames (`da Silva Junior` ~ `Silva Junior` ~ `Junior`), a suffix in the family or given field,
hyphen and apostrophe variants, and initials on one side only. auditor/v2 and the search's
candidate check (`compare.agreement`) match names with these and nothing else.

Public API: `ParsedName`, `parse`, `parse_family_given` (parsing); `v1_surname`,
`v1_surname_cut`, `v1_surname_cut_column`, `first_token`, `last_token` (criteria v1's literal
claimed and register rules); `vancouver_surname_cut_column` (v2's fast path), `name_keys`,
`register_name_keys` (v2 matching); `cited_surname` (search queries, `fix`) and
`family_first_surname` (the Chinese waterfall's `[1au]` query).

Modules: `parse` (parsing), `cuts` (surname cuts), `keys` (matching keys); import from here.
"""

from __future__ import annotations

from auditor.names.cuts import (
    cited_surname,
    family_first_surname,
    first_token,
    last_token,
    v1_surname,
    v1_surname_cut,
    v1_surname_cut_column,
    vancouver_surname_cut_column,
)
from auditor.names.keys import name_keys, register_name_keys
from auditor.names.parse import ParsedName, parse, parse_family_given

__all__ = [
    "ParsedName",
    "cited_surname",
    "family_first_surname",
    "first_token",
    "last_token",
    "name_keys",
    "parse",
    "parse_family_given",
    "register_name_keys",
    "v1_surname",
    "v1_surname_cut",
    "v1_surname_cut_column",
    "vancouver_surname_cut_column",
]
