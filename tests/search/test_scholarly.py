"""`@misc`, `@online`, `@unpublished` entries read as papers by content, or left alone (#25)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from auditor.load import load_files
from auditor.search.routing import ROUTE_CS_NO_DOI, ROUTE_PREPRINT, route_reference
from auditor.search.scholarly import looks_scholarly

# The shapes machine-written bibliographies carry: a language model's @misc for a paper, Google
# Scholar's @misc for an arXiv preprint, and the @misc entries that are not papers at all.
BIB = r"""
@misc{llm2024,
  title={Adaptive Sparse Routing for Efficient Long-Context Transformers},
  author={Chen, Wei and Kumar, Priya and Okafor, Chidi},
  year={2024}
}
@misc{scholar2023,
  title={Scaling laws for sparse mixture-of-experts language models},
  author={Li, Jun and Park, Soo},
  journal={arXiv preprint},
  year={2023}
}
@unpublished{draft,
  title={A Theory of Everything Learned by Gradient Descent},
  author={Okafor, Alex},
  year={2025}
}
@unpublished{inprep,
  title={Sparse Routing for Long Contexts in Practice},
  author={Okafor, Alex},
  note={Manuscript in preparation},
  year={2025}
}
@misc{pytorch,
  title={PyTorch},
  author={Paszke, Adam and Gross, Sam},
  year={2019}
}
@misc{hf,
  title={Transformers: State-of-the-art Natural Language Processing library},
  author={Wolf, Thomas},
  howpublished={\url{https://github.com/huggingface/transformers}},
  year={2020}
}
@misc{iso,
  title={Information technology -- Artificial intelligence -- Management system},
  howpublished={ISO/IEC Standard 42001:2023},
  year={2023}
}
@online{blog,
  title={Introducing the next generation of our language models},
  author={{OpenAI}},
  url={https://openai.com/blog/next-generation},
  urldate={2024-03-01},
  year={2024}
}
@misc{webnote,
  title={The Stanford Question Answering Dataset leaderboard},
  author={Rajpurkar, Pranav},
  note={Accessed: 2023-05-01},
  year={2023}
}
@misc{rpkg,
  title={limma: Linear Models for Microarray Data. R package version 3.50.0},
  author={Smyth, Gordon},
  year={2021}
}
@misc{arxivurl,
  title={Boolean function metrics can assist modelers to check and choose logical rules},
  author={Zobolas, John and Monteiro, Pedro T},
  url={http://arxiv.org/abs/2104.01279},
  year={2021}
}
@misc{book,
  title={Pattern Recognition and Machine Learning},
  author={Bishop, Christopher M.},
  publisher={Springer},
  year={2006}
}
@misc{zotero,
  title={Denoising Diffusion Probabilistic Models for Everything},
  author={Ho, Jonathan},
  publisher={arXiv},
  year={2020}
}
@misc{notitleyear,
  title={A Paper With Neither Authors Nor Year}
}
"""


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    bib = Path(tmp_path_factory.mktemp("misc")) / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    return {r["key"]: r for r in load_files([str(bib)]).table.to_pylist()}


def test_papers_typed_misc_are_searched_like_articles(rows: dict[str, dict[str, Any]]) -> None:
    assert route_reference(rows["llm2024"]) == ROUTE_CS_NO_DOI
    assert route_reference(rows["scholar2023"]) == ROUTE_PREPRINT  # by its venue, as before
    assert route_reference(rows["draft"]) == ROUTE_CS_NO_DOI
    assert route_reference(rows["arxivurl"]) == ROUTE_CS_NO_DOI
    assert route_reference(rows["zotero"]) == ROUTE_CS_NO_DOI  # Zotero's `publisher = {arXiv}`


@pytest.mark.parametrize(
    "key", ["pytorch", "hf", "iso", "blog", "webnote", "rpkg", "book", "inprep", "notitleyear"]
)
def test_software_data_standards_and_web_pages_are_not(
    rows: dict[str, dict[str, Any]], key: str
) -> None:
    assert not looks_scholarly(rows[key])
    assert route_reference(rows[key]) is None


def test_the_type_alone_still_routes_articles_and_books() -> None:
    article = {"entry_type": "article", "title": "A b c d", "container_title": "Nature"}
    assert route_reference(article) is not None
    book = {"entry_type": "book", "title": "A Long Book Title Here", "year": 2001}
    assert route_reference(book) is None
    odd: dict[str, Any] = {"entry_type": "misc", "title": None, "authors": None, "url": 3}
    assert route_reference(odd) is None  # never raises on missing or odd values
