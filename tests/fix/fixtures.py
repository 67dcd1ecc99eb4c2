"""A bibliography of real works with deliberate mistakes, and the register records it cites."""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq

from auditor import tables

BIB = """% Thesis bibliography: kept by hand, do not reformat.
@string{nat = "Nature"}

@article{lecun2015,
  title   = {Deep learning},
  author  = {LeCun, Yann and Bengio, Yoshua and Hinton, Geoffrey},
  journal = nat,
  year    = {2015},
  volume  = {521},
  pages   = {436--444},
  doi     = {10.1038/nature14539},
}

@article{he2016wrongyear,
  title   = {Deep Residual Learning for Image Recognition},
  author  = {He, Kaiming and Zhang, Xiangyu and Ren, Shaoqing and Sun, Jian},
  booktitle = {CVPR},
  year    = {2019},
  doi     = {10.1109/cvpr.2016.90},
}

@Article{silver2016order,
  Title = "Mastering the game of {Go} with deep neural networks and tree search",
  Author = "Huang, Aja and Silver, David and Maddison, Chris J.",
  Journal = "Nature",
  Year = 2016,
  Doi = "10.1038/nature16961"
}

@article{chimera2020,
  title  = {Attention is all you need for protein folding},
  author = {Doe, Jane},
  year   = {2020},
  doi    = {10.1038/nature14539},
}

@article{who2015,
  author = {{World Health Organization}},
  title  = {Deep learning},
  year   = {2016},
  doi    = {10.1038/nature14539},
}

@article{ghost2021,
  title  = {A study that never was},
  author = {Nobody, Ann},
  year   = {2021},
  doi    = {10.5555/nonexistent.2021},
}

@misc{vaswani2017,
  title  = {Attention is all you need},
  author = {Vaswani, Ashish and Shazeer, Noam},
  year   = {2017},
  eprint = {1706.03762},
  archivePrefix = {arXiv},
  note   = "Preprint " # "version",
}
"""

_FOUND = {"status": "found", "tier": "snapshot", "retrieved_at": "2026-11-30T00:00:00+00:00"}

RECORDS = [
    {
        **_FOUND,
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.1038/nature14539",
        "title": "Deep learning",
        "authors": ["Yann LeCun", "Yoshua Bengio", "Geoffrey Hinton"],
        "surnames": ["LeCun", "Bengio", "Hinton"],
        "year": 2015,
        "container_title": "Nature",
        "volume": "521",
        "pages": "436-444",
        "doi": "10.1038/nature14539",
    },
    {
        **_FOUND,
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.1109/cvpr.2016.90",
        "title": "Deep Residual Learning for Image Recognition",
        "authors": ["Kaiming He", "Xiangyu Zhang", "Shaoqing Ren", "Jian Sun"],
        "surnames": ["He", "Zhang", "Ren", "Sun"],
        "year": 2016,
        "container_title": "2016 IEEE Conference on Computer Vision and Pattern Recognition (CVPR)",
        "pages": "770-778",
        "doi": "10.1109/cvpr.2016.90",
    },
    {
        **_FOUND,
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.1038/nature16961",
        "title": "Mastering the game of Go with deep neural networks and tree search",
        "authors": ["David Silver", "Aja Huang", "Chris J. Maddison"],
        "surnames": ["Silver", "Huang", "Maddison"],
        "year": 2016,
        "container_title": "Nature",
        "volume": "529",
        "pages": "484-489",
        "doi": "10.1038/nature16961",
    },
    {
        "register": "doi",
        "id_type": "doi",
        "identifier": "10.5555/nonexistent.2021",
        "status": "not_found",
        "reason": "not_found",
        "tier": "snapshot",
        "retrieved_at": "2026-11-30T00:00:00+00:00",
    },
    {
        **_FOUND,
        "register": "arxiv",
        "id_type": "arxiv",
        "identifier": "1706.03762",
        "title": "Attention Is All You Need",
        "authors": ["Ashish Vaswani", "Noam Shazeer"],
        "surnames": ["Vaswani", "Shazeer"],
        "year": 2017,
        "doi": "10.5555/nips.2017.attention",
    },
    {
        **_FOUND,
        "register": "crossref",
        "id_type": "doi",
        "identifier": "10.5555/nips.2017.attention",
        "title": "Attention is All you Need",
        "authors": ["Ashish Vaswani", "Noam Shazeer"],
        "surnames": ["Vaswani", "Shazeer"],
        "year": 2017,
        "container_title": "Advances in Neural Information Processing Systems",
        "doi": "10.5555/nips.2017.attention",
    },
]


def write_snapshot(path: Path) -> Path:
    pq.write_table(tables.from_rows(RECORDS, tables.RECORDS), path)
    return path
