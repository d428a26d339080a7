"""The house figures of issue #24 ("The house, second pass") for any commit, so a before and an after
can be printed side by side.

    python benchmarks/house.py                      # the working tree as it is now
    python benchmarks/house.py --rev f5b3fd9 --rev HEAD
    python benchmarks/house.py --rev f5b3fd9 --worktree --top 5

For each revision it prints:
- the longest functions and the longest modules of the product code (`companion/`, `vision/`,
  `lexicon/`; tests and benchmarks are not counted), in lines from `def` to the last line;
- the lines under `mypy --strict`: the non-blank lines of the product files pyproject's `[tool.mypy] files`
  lists (folders walked, globs expanded; a listed test is not counted), against all non-blank lines of the
  product code. Modules
  mypy only follows (imports of listed files) are not counted: they are checked, but not named;
- function-local imports: `import` statements inside a function body, in the product code;
- the blocks of six or more lines repeated between game folders: the `duplicates` command
  (`/work/.library/duplicates/README.md`) over `companion/games/`, the pairs whose two sides are in
  different game folders (identical lines, or lines of the same shape with other names);
- the README's first section: its lines up to the second `## ` heading (headings inside code fences
  do not count).

A revision is read from `git archive REV` unpacked in a temporary folder (removed afterwards): the
working tree is not touched. Figures are counts of text, not timings: the same commit gives the same
figures on any machine.
"""

from __future__ import annotations

import argparse
import ast
import glob
import io
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PRODUCT = ("companion", "vision", "lexicon")
SKIP_PARTS = {".venv", ".git", "__pycache__", "build", "_artifacts"}
DUPLICATE_ROW = re.compile(r"^D\d+ (\S+?):(\d+)-(\d+) ~ (\S+?):(\d+)-(\d+)(.*)$")


@dataclass
class Figures:
    name: str
    functions: list[tuple[int, str]] = field(default_factory=list)
    modules: list[tuple[int, str]] = field(default_factory=list)
    strict_lines: int = 0
    product_lines: int = 0
    strict_files: int = 0
    local_imports: int = 0
    local_import_places: dict[str, int] = field(default_factory=dict)
    duplicate_pairs: list[str] = field(default_factory=list)
    duplicates_note: str = ""
    readme_first_section: int = 0
    readme_lines: int = 0


def product_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for top in PRODUCT:
        for path in sorted((root / top).rglob("*.py")):
            if not SKIP_PARTS.intersection(path.relative_to(root).parts):
                files.append(path)
    return files


def non_blank(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def function_lengths(tree: ast.AST, module: str) -> list[tuple[int, str]]:
    """Every function and method (nested ones too) with its length in lines, `def` to last line."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    length = (child.end_lineno or child.lineno) - child.lineno + 1
                    found.append((length, f"{module}::{name}"))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def local_imports(tree: ast.AST) -> int:
    """Import statements inside a function body (nested functions included, each import once)."""

    def count(node: ast.AST, inside: bool) -> int:
        total = 0
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and inside:
                total += 1
            total += count(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
        return total

    return count(tree, False)


def strict_files(root: Path) -> list[Path]:
    """The files pyproject's [tool.mypy] `files` names: folders walked for .py (less the `exclude` patterns,
    which mypy applies to the files it finds in folders), globs expanded."""
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    mypy = config.get("tool", {}).get("mypy", {})
    listed = mypy.get("files", [])
    if isinstance(listed, str):
        listed = [part.strip() for part in listed.split(",") if part.strip()]
    excluded = mypy.get("exclude", [])
    excluded = [re.compile(x) for x in ([excluded] if isinstance(excluded, str) else excluded)]
    chosen: set[Path] = set()
    for entry in listed:
        for match in sorted(glob.glob(str(root / entry), recursive=True)):
            path = Path(match)
            if path.is_dir():
                chosen.update(p for p in path.rglob("*.py") if "__pycache__" not in p.parts
                              and not any(x.search(p.relative_to(root).as_posix()) for x in excluded))
            elif path.suffix == ".py":
                chosen.add(path)
    return sorted(chosen)


def readme_first_section(text: str) -> int:
    """Lines before the second `## ` heading outside code fences (the whole file if there is none)."""
    seen = 0
    fenced = False
    lines = text.splitlines()
    for number, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("## "):
            seen += 1
            if seen == 2:
                return number
    return len(lines)


def game_folder(path: str) -> str:
    return path.split("/", 1)[0] if "/" in path else ""


def duplicates_between_games(root: Path) -> tuple[list[str], str]:
    games = root / "companion" / "games"
    if shutil.which("duplicates") is None:
        return [], "the `duplicates` command is not installed here: not counted"
    out = subprocess.run(["duplicates", "--repo", str(games), "--most", "200", "--seconds", "120"],
                         capture_output=True, text=True, check=False).stdout
    rows: list[str] = []
    notes = [line for line in out.splitlines() if line.startswith(("incomplete:", "(+"))]
    for line in out.splitlines():
        match = DUPLICATE_ROW.match(line)
        if not match:
            continue
        left, right = match.group(1), match.group(4)
        if game_folder(left) and game_folder(right) and game_folder(left) != game_folder(right):
            rows.append(line)
    return rows, "; ".join(notes)


def measure(root: Path, name: str) -> Figures:
    figures = Figures(name)
    for path in product_files(root):
        module = str(path.relative_to(root))
        text = path.read_text(encoding="utf-8")
        figures.modules.append((len(text.splitlines()), module))
        figures.product_lines += non_blank(path)
        tree = ast.parse(text, filename=module)
        figures.functions.extend(function_lengths(tree, module))
        count = local_imports(tree)
        if count:
            figures.local_import_places[module] = count
        figures.local_imports += count
    strict = [p for p in strict_files(root) if p.relative_to(root).parts[0] in PRODUCT
              and not SKIP_PARTS.intersection(p.relative_to(root).parts)]  # the product's lines, as the ratio's
    figures.strict_files = len(strict)
    figures.strict_lines = sum(non_blank(p) for p in strict)
    figures.duplicate_pairs, figures.duplicates_note = duplicates_between_games(root)
    readme = root / "README.md"
    if readme.exists():
        text = readme.read_text(encoding="utf-8")
        figures.readme_first_section = readme_first_section(text)
        figures.readme_lines = len(text.splitlines())
    return figures


def unpack(rev: str, into: Path) -> None:
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev], capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"house: git cannot archive {rev!r} ({archive.stderr.decode().strip()}); "
                         "give a commit, branch or tag of this repository.")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")


def describe(rev: str) -> str:
    out = subprocess.run(["git", "-C", str(REPO), "log", "-1", "--format=%h %s", rev],
                         capture_output=True, text=True, check=False).stdout.strip()
    return out[:70] or rev


def report(all_figures: list[Figures], top: int) -> None:
    for figures in all_figures:
        print(f"== {figures.name}")
        print(f"  longest functions (lines, def to last line; {len(figures.functions)} functions):")
        for length, where in sorted(figures.functions, reverse=True)[:top]:
            print(f"    {length:5d}  {where}")
        print(f"  longest modules (lines; {len(figures.modules)} modules):")
        for length, where in sorted(figures.modules, reverse=True)[:top]:
            print(f"    {length:5d}  {where}")
        places = sorted(figures.local_import_places.items(), key=lambda item: (-item[1], item[0]))[:5]
        print(f"  function-local imports: {figures.local_imports} "
              f"(most: {', '.join(f'{m} {n}' for m, n in places)})")
        print(f"  game-folder duplicate pairs (6+ lines): {len(figures.duplicate_pairs)}"
              + (f" [{figures.duplicates_note}]" if figures.duplicates_note else ""))
        for pair in figures.duplicate_pairs:
            print(f"    {pair}")
        print()
    print("== summary (non-blank lines for mypy; README lines)")
    header = ["figure"] + [f.name.split(" ", 1)[0] for f in all_figures]
    rows = [
        ["longest function"] + [str(max(f.functions)[0]) if f.functions else "-" for f in all_figures],
        ["longest module"] + [str(max(f.modules)[0]) if f.modules else "-" for f in all_figures],
        ["lines under mypy --strict"] + [f"{f.strict_lines} of {f.product_lines} "
                                        f"({100 * f.strict_lines / max(f.product_lines, 1):.0f}%, "
                                        f"{f.strict_files} files)" for f in all_figures],
        ["function-local imports"] + [str(f.local_imports) for f in all_figures],
        ["duplicate pairs between game folders"] + [str(len(f.duplicate_pairs)) for f in all_figures],
        ["README first section / whole"] + [f"{f.readme_first_section} / {f.readme_lines}"
                                           for f in all_figures],
    ]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rev", action="append", default=[],
                        help="a commit, branch or tag to measure (repeat for a before and an after)")
    parser.add_argument("--worktree", action="store_true",
                        help="also measure the working tree as it is (the default when no --rev is given)")
    parser.add_argument("--top", type=int, default=10, help="how many functions and modules to list (10)")
    args = parser.parse_args(argv)
    all_figures: list[Figures] = []
    for rev in args.rev:
        with tempfile.TemporaryDirectory(prefix="house-") as folder:
            unpack(rev, Path(folder))
            all_figures.append(measure(Path(folder), describe(rev)))
    if args.worktree or not args.rev:
        all_figures.append(measure(REPO, "worktree (as it is now)"))
    report(all_figures, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
