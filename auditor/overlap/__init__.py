"""Citation overlap: duplicates inside an audit, and the citation-overlap contract.

`duplicates` groups references that are the same work under several keys (an audit stage, pure,
no network). `contract`, `anchors`, `urls` and `result` implement
`spec/citation-overlap-openapi.json`: a claim's 2-10 citations in, overlap findings out.
"""
