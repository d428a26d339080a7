"""The docs say true things about the tree: every module the architecture map names exists, every
relative link in README.md and docs/*.md resolves (the file, and the heading an anchor names), every
repository path the docs quote in backticks exists, every `python -m` module they show exists, and every
`companion` subcommand they show answers `--help`.

No data from `../shared` is needed: the docs and the tree are the input.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from companion import cli
from tests.conftest import REPO

DOCS = sorted((REPO / "docs").glob("*.md"))
PAGES = [REPO / "README.md", *DOCS]
ARCHITECTURE = REPO / "docs" / "architecture.md"

FENCE = re.compile(r"^```.*?^```", re.DOTALL | re.MULTILINE)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)\)")
TOP_FOLDERS = ("companion", "vision", "lexicon", "tests", "assets", "benchmarks", "docs", ".ci")
REPO_PATH = re.compile(rf"^(?:{'|'.join(re.escape(f) for f in TOP_FOLDERS)})/[\w./-]*$")
PYTHON_M = re.compile(r"python -m ([A-Za-z_][\w.]*)")
SUBCOMMAND = re.compile(r"(?<![\w./-])companion ((?:games|gcg) [a-z]+|[a-z]+)\b")


def prose(text: str) -> str:
    """The page without code blocks and inline code (links inside code are not links)."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def code(text: str) -> list[str]:
    """The page's code: fenced blocks and inline code spans."""
    return FENCE.findall(text) + [span.strip("`") for span in INLINE_CODE.findall(FENCE.sub("", text))]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|\[([^\]]*)\]\([^)]*\)", lambda m: m.group(1) or "", heading.strip()).lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    for line in FENCE.sub("", page.read_text(encoding="utf-8")).splitlines():
        match = re.match(r"^#{1,6} (.+?)\s*#*\s*$", line)
        if match:
            base = slug(match.group(1))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def relative(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


def test_the_pages_exist() -> None:
    assert ARCHITECTURE in DOCS and (REPO / "README.md").exists()


def map_paths() -> list[str]:
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("## Map of the tree", 1)[1]
    return re.findall(r"^- `([^`]+)`", section, re.MULTILINE)


def test_every_module_the_architecture_map_names_exists() -> None:
    named = map_paths()
    assert len(named) > 100, f"the map names only {len(named)} paths: was its format changed?"
    missing = [path for path in named if not (REPO / path).exists()]
    assert not missing, f"docs/architecture.md names modules that do not exist: {missing}"


def test_the_architecture_map_names_every_module_of_the_product() -> None:
    named = set(map_paths())
    modules = [relative(p) for top in ("companion", "vision", "lexicon") for p in sorted((REPO / top).rglob("*.py"))
               if "__pycache__" not in p.parts and p.name != "__init__.py"]
    unnamed = [m for m in modules if m not in named]
    assert not unnamed, f"modules missing from docs/architecture.md's map (one line each): {unnamed}"


@pytest.mark.parametrize("page", PAGES, ids=relative)
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # http:, https:, mailto:
        path_part, _, anchor = target.partition("#")
        goal = (page.parent / path_part).resolve() if path_part else page
        if not goal.is_relative_to(REPO):
            broken.append(f"{target} (outside the repository)")
            continue
        if not goal.exists():
            broken.append(f"{target} (no such file)")
            continue
        if anchor and goal.suffix == ".md" and anchor not in anchors(goal):
            broken.append(f"{target} (no heading with that anchor in {relative(goal)})")
    assert not broken, f"{relative(page)}: broken links: {broken}"


def exists_as_module(path: str) -> bool:
    """The path exists, or names a module that became a package (`rules.py` -> `rules/__init__.py`): the
    prose still names the module truly. The architecture map is held to the exact files."""
    return (REPO / path).exists() or (path.endswith(".py") and (REPO / path[:-3] / "__init__.py").exists())


@pytest.mark.parametrize("page", PAGES, ids=relative)
def test_every_repository_path_quoted_exists(page: Path) -> None:
    missing = []
    for span in code(page.read_text(encoding="utf-8")):
        for word in re.split(r"[\s()\[\],;|=]+", span):
            word = word.rstrip(".:").split(":", 1)[0]
            if not REPO_PATH.match(word) or "_artifacts" in word:
                continue
            if not exists_as_module(word):
                missing.append(word)
    assert not missing, f"{relative(page)} quotes paths that do not exist: {sorted(set(missing))}"


@pytest.mark.parametrize("page", PAGES, ids=relative)
def test_every_python_module_run_with_dash_m_exists(page: Path) -> None:
    missing = []
    for span in code(page.read_text(encoding="utf-8")):
        for module in PYTHON_M.findall(span):
            if module in ("pytest", "pip", "venv"):
                continue
            base = REPO / module.replace(".", "/")
            if not (base.with_suffix(".py").exists() or (base / "__main__.py").exists()):
                missing.append(module)
    assert not missing, f"{relative(page)} runs modules that do not exist: {missing}"


def shown_subcommands() -> list[str]:
    found: set[str] = set()
    for page in PAGES:
        for span in code(page.read_text(encoding="utf-8")):
            found.update(SUBCOMMAND.findall(span))
    return sorted(found)


def test_the_docs_show_the_subcommands() -> None:
    assert {"app", "read", "watch", "games list"} <= set(shown_subcommands())


@pytest.mark.parametrize("command", shown_subcommands())
def test_every_companion_subcommand_shown_answers_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main([*command.split(), "--help"])
    assert stopped.value.code == 0, f"`companion {command} --help` exited {stopped.value.code}: " \
                                    f"{capsys.readouterr().err.strip()}"


def test_slugs_follow_github() -> None:
    assert slug("What the word games allow now (one source), and the liveness law") == \
        "what-the-word-games-allow-now-one-source-and-the-liveness-law"
    assert slug("A game's photos in sequence") == "a-games-photos-in-sequence"
    assert slug("Calibration: what the table may trust") == "calibration-what-the-table-may-trust"
    assert slug("`companion/rules/`: pure rules") == "companionrules-pure-rules"
