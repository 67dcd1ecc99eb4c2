"""Sub-commands of the `auditor` CLI, one module each, each exposing `register(app)`."""
