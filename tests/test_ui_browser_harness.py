"""The browser harness's text wait (`Tab.text`) on a page written here: it ends only for the exact text in the
named place, so a line already elsewhere (the history) or a part of a line never satisfies it. No app runs:
the page holds Flutter's semantics attributes (`flt-semantics-identifier`) as the app's page does."""

from __future__ import annotations

import re

import pytest
from browser.conftest_shared import launch, playwright_instance  # noqa: F401
from browser.harness import Tab
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser

PAGE = """
<div flt-semantics-identifier="turn-steps"><span>Ann rolls the dice.</span><span>Ann ends the turn.</span></div>
<div flt-semantics-identifier="status"><span>Bob rolls the dice now</span></div>
<div flt-semantics-identifier="info">Saved.</div>
"""


def test_text_waits_for_the_exact_text_in_its_place(playwright_instance) -> None:  # noqa: F811
    browser = launch(playwright_instance)
    try:
        page = browser.new_page()
        page.set_content(PAGE)
        tab = Tab(page, "about:blank")
        # Ann's line is in the history, not in the status: the wait for it there does not end.
        with pytest.raises(PlaywrightTimeout):
            tab.text("Ann rolls the dice.", place="status", timeout=300)
        # Part of a line, or the line in another case, is not the line (the old wait took both).
        for almost in ("Bob rolls the dice", "bob rolls the dice now"):
            with pytest.raises(PlaywrightTimeout):
                tab.text(almost, timeout=300)
        with pytest.raises(PlaywrightTimeout):
            tab.text(re.compile(r"Bob rolls"), place="status", timeout=300)  # a pattern is anchored
        assert tab.text("Bob rolls the dice now", place="status").inner_text() == "Bob rolls the dice now"
        assert tab.text(re.compile(r"Bob rolls the dice \w+"), place="status")
        assert tab.text("rolls the dice", place="status", contains=True)  # asked for: a part
        assert tab.text("Ann rolls the dice.", place="turn-steps")
        # The place's own node holding the text (Flutter merges a Text into the semantics node around it).
        assert tab.text("Saved.", place="info").inner_text() == "Saved."
        assert tab.find("Saved.", place="status").count() == 0
        page.set_content('<div role="button" aria-label="Pass">Pass</div><span>Pass the bag</span>')
        assert tab.text("Pass", place="role:button")
    finally:
        browser.close()
