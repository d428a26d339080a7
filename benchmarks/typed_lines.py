"""Lines under `mypy --strict` and function-local imports: the figures issue #24 asks before/after.

Prints the non-blank lines of the Python files pyproject's [tool.mypy] `files` names (folders and globs
expanded as mypy does), out of all non-blank lines under companion/, vision/ and lexicon/, and the number of
indented `import`/`from ... import` lines there (imports inside functions or classes, and the few inside
`try:` or `if TYPE_CHECKING:` blocks at module level).

    python benchmarks/typed_lines.py [path/to/pyproject.toml]
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TREES = ("companion", "vision", "lexicon")
LOCAL_IMPORT = re.compile(r"^\s+(import |from \S+ import )")


def listed_files(pyproject: Path) -> set[Path]:
    """The files mypy checks: `files` (globs, folders searched for .py files) less the `exclude` patterns,
    which mypy applies to the files it finds in folders."""
    config = tomllib.loads(pyproject.read_text())["tool"]["mypy"]
    excluded = [re.compile(pattern) for pattern in config.get("exclude", [])]
    found: set[Path] = set()
    for entry in config["files"]:
        for path in sorted(ROOT.glob(entry)):
            if path.is_file():
                found.add(path)
                continue
            found.update(p for p in path.rglob("*.py")
                         if not any(x.search(p.relative_to(ROOT).as_posix()) for x in excluded))
    return {p for p in found if p.suffix == ".py"}


def non_blank(path: Path) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.strip())


def main() -> None:
    pyproject = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "pyproject.toml"
    every = {p for tree in TREES for p in (ROOT / tree).rglob("*.py")}
    typed = listed_files(pyproject) & every
    typed_lines, all_lines = sum(map(non_blank, typed)), sum(map(non_blank, every))
    local = sum(1 for p in every for line in p.read_text().splitlines() if LOCAL_IMPORT.match(line))
    print(f"under mypy --strict: {len(typed)} files, {typed_lines} non-blank lines of {all_lines} "
          f"({100 * typed_lines / all_lines:.0f}%) in {', '.join(TREES)}")
    print(f"function-local imports: {local}")


if __name__ == "__main__":
    main()
