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


@pytest.fixture(autouse=True)
def _taps_from_code_are_no_double_taps(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests that drive `AppState` from code tap faster than any finger, and the double-tap guard
    (`companion.ui.models.TAP_REPEAT_SECONDS`, issue #26) would drop their taps: it is off for them. Tests
    marked `tap_guard` keep it (they test it); browser tests run the app in its own process (the harness
    switches the guard off there, except for the double-tap test)."""
    if request.node.get_closest_marker("tap_guard") or request.node.get_closest_marker("browser"):
        return
    monkeypatch.setattr("companion.ui.models.TAP_REPEAT_SECONDS", 0.0)
    monkeypatch.setattr("companion.ui.models.TAP_SETTLE_SECONDS", 0.0)
    monkeypatch.setattr("companion.ui.models.TAP_UNDRAWN_SECONDS", 0.0)
