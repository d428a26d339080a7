"""The event log format refuses hostile or broken files with one sentence, never a Python error."""

from __future__ import annotations

import pytest

from companion.events import LogFormatError, load_events
from companion.games.classic.rules import EVENT_ADAPTER


@pytest.mark.parametrize(("text", "words"), [
    ("[" * 100_000, "nested too deeply"),
    ('{"events": [], "format": 1' + "0" * 5000 + "}", "far too long"),
    ('{"events": [], "variant": null}', '"variant"'),
    ('{"events": [], "format": true}', "not a version"),
    ('{"events": [], "format": 0}', "not a version"),
    ('{"events": [], "format": 99}', "newer"),
    ('{"events": {}}', '"events" list'),
    ("not json", "not valid JSON"),
    ('{"events": [{"type": "martian"}]}', "event 1"),
])
def test_broken_logs_are_refused_in_one_sentence(text: str, words: str) -> None:
    with pytest.raises(LogFormatError) as exc:
        load_events(text, EVENT_ADAPTER)
    assert words in str(exc.value)
    assert "\n" not in str(exc.value)


def test_a_game_state_that_leaves_out_a_hook_cannot_be_made() -> None:
    """`RulesState`'s hooks are abstract: a game's state without `handlers` fails when it is made (and under
    mypy), not when its first event is applied at the table."""
    from companion.events import RulesState

    class NoHandlers(RulesState):
        settings = None
        finished = False

        def _start(self, event: object) -> None:
            pass

    with pytest.raises(TypeError, match="handlers"):
        NoHandlers()  # type: ignore[abstract]
