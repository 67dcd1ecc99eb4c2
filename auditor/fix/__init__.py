"""`auditor fix`: correct a bibliography from the register records an audit relied on.

`changes` decides what is certain enough to rewrite (one `Change` per field) and what only gets a
comment; one editor per source format applies them to the source text, changing nothing outside
the changed values.
"""
