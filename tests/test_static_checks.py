"""The code's own promises, checked like any behaviour: the code passes `mypy --strict` (the folders listed
under [tool.mypy] in pyproject.toml: every module of companion/, vision/ and lexicon/) and the whole tree passes
ruff.

Both tools are dev dependencies installed by `./dev.sh`; they run on the checked-out files, so a
change that breaks typing or lint fails the suite, not only a reviewer's eye.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], check=False, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_typed_core_passes_mypy_strict() -> None:
    done = _run("mypy")  # files and strictness come from pyproject.toml
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def test_tree_passes_ruff() -> None:
    done = _run("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr
