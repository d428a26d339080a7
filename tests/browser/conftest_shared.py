"""Fixtures shared by the browser tests (imported by tests/test_ui_browser*.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.harness import PHONE, Tab, app_server, block_outside, launch

BOARDS = Path(os.environ.get("SHARED_DATA", Path(__file__).resolve().parents[3] / "shared" / "data")) / "boards"
CAVA = BOARDS / "cava_ro"


def reader_env(label_json: Path, misread: str = "") -> dict[str, str]:
    """The real reader (`vision`) unless a deliberate misread is asked for: then the stand-in that
    returns the photo's label with that square wrong at low confidence (a deterministic correction)."""
    if not misread and not os.environ.get("UI_TEST_FAKE_READER"):
        return {}
    here = str(Path(__file__).resolve().parent)
    return {"COMPANION_READER": "fake_reader:read", "FAKE_READ_JSON": str(label_json), "FAKE_MISREAD": misread,
            "PYTHONPATH": here + os.pathsep + os.environ.get("PYTHONPATH", "")}


@pytest.fixture
def playwright_instance() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


def new_tab(browser: Any, url: str, viewport: dict[str, int] = PHONE, **kw: Any) -> Tab:
    ctx = browser.new_context(viewport=viewport, **kw)
    block_outside(ctx)
    tab = Tab(ctx.new_page(), url)
    tab.open()
    return tab


__all__ = ["CAVA", "app_server", "launch", "new_tab", "playwright_instance", "reader_env"]
