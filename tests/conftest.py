"""Shared test helpers: where the real test data lives, and skipping cleanly when it is absent.

Test data (photos, GCG records, the oracle) is read from `../shared/data/` beside the checkout, as CI
has it; it is never copied into the repository.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_path(*parts: str) -> Path:
    """A path under `../shared/data/`; the calling test is skipped with a clear reason when it is missing."""
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"test data not found: {path} (the shared data folder sits beside the checkout)")
    return path


@pytest.fixture
def shared_data() -> Path:
    """The root of `../shared/data/`, or a skip when it is absent."""
    return shared_path()
