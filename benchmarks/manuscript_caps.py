"""Time and peak memory of each manuscript cap on its hostile input (#37, item 3).

Each case builds its manuscript in a temporary folder and reads it with `read_manuscript`, in a
fresh process so that `ru_maxrss` is the case's own peak; time is wall-clock of the read alone.
The outcome column says what the cap did (a message, a warning, a finding).

    PYTHONPATH=$PWD python benchmarks/manuscript_caps.py
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CASES = (
    "include_loop",
    "include_fan_out",
    "outside_names",
    "front_matter_1mib",
    "yaml_alias_flood",
    "yaml_merge_bomb",
)


def _build(case: str, folder: Path) -> Path:
    if case == "include_loop":
        (folder / "a.tex").write_text("\\input{b}\n")
        (folder / "b.tex").write_text("\\input{a}\n")
        return folder / "a.tex"
    if case == "include_fan_out":  # 2**16 includes asked for
        for i in range(16):
            (folder / f"f{i}.tex").write_text(f"\\input{{f{i + 1}}}\n" * 2)
        (folder / "f16.tex").write_text("\\cite{x}\n")
        return folder / "f0.tex"
    if case == "outside_names":  # 10,000 names outside the tree
        lines = "".join(
            f"\\input{{../../x{i}}}\n\\bibliography{{/etc/b{i}}}\n" for i in range(5000)
        )
        (folder / "m.tex").write_text(lines)
        return folder / "m.tex"
    if case == "front_matter_1mib":  # an unclosed `---` over a long file
        (folder / "m.md").write_text("---\n" + "title: x\n" * (1 << 17) + "---\n[@a]\n")
        return folder / "m.md"
    if case == "yaml_alias_flood":
        flood = ", ".join(["*x"] * 100_000)
        (folder / "m.md").write_text(f"---\nx: &x [a]\ny: [{flood}]\n---\n[@a]\n")
        return folder / "m.md"
    # nine merges a level, ten levels: 9**10 key copies before PyYAML 6.0.4
    lines = ["a0: &a0 {" + ", ".join(f"k{i}: v" for i in range(9)) + "}"]
    for level in range(1, 11):
        lines.append(f"a{level}: &a{level} {{<<: [{', '.join([f'*a{level - 1}'] * 9)}]}}")
    (folder / "m.md").write_text("---\n" + "\n".join(lines) + "\n---\n[@a]\n")
    return folder / "m.md"


def _one(case: str) -> dict[str, object]:
    from auditor.errors import InputError
    from auditor.load.manuscript_reader import read_manuscript

    with tempfile.TemporaryDirectory() as tmp:
        path = _build(case, Path(tmp))
        start = time.perf_counter()
        try:
            problems = read_manuscript(str(path)).problems
            kinds = sorted({p.kind or "" for p in problems})
            outcome = f"{len(problems)} warning(s) {kinds}"
        except InputError as exc:
            outcome = f"InputError: {str(exc).split(': ', 1)[-1][:60]}"
        seconds = time.perf_counter() - start
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {
        "case": case,
        "seconds": round(seconds, 3),
        "peak_mib": round(peak_mib),
        "outcome": outcome,
    }


def main() -> None:
    """One process a case; a table on stdout."""
    if len(sys.argv) == 3 and sys.argv[1] == "--case":
        print(json.dumps(_one(sys.argv[2])))
        return
    print("| case | time (s) | peak RSS (MiB) | outcome |")
    print("| --- | --- | --- | --- |")
    for case in CASES:
        out = subprocess.run(
            [sys.executable, __file__, "--case", case], capture_output=True, text=True, check=True
        )
        row = json.loads(out.stdout)
        print(f"| {row['case']} | {row['seconds']} | {row['peak_mib']} | {row['outcome']} |")


if __name__ == "__main__":
    main()
