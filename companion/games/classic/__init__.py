"""Classic Scrabble: the rules (`rules.py`), the table around them (`table.py`), its screens (`ui.py`,
`setup.py`, `scoresheet.py`). GCG is its record format (`companion.gcg`)."""

from collections.abc import Sequence

from companion.events import Event
from companion.games.classic import rules
from companion.games.classic.gcg import classic_events_from_record, record_from_classic
from companion.games.spec import GameSpec
from companion.gcg import parse_gcg, write_gcg


def _to_gcg(events: Sequence[Event]) -> str:
    return write_gcg(record_from_classic(events))


def _from_gcg(text: str) -> list[Event]:
    return classic_events_from_record(parse_gcg(text))


GAME = GameSpec(id=rules.VARIANT, label="Classic Scrabble", rules=rules, ui="companion.games.classic.ui:UI",
                to_gcg=_to_gcg, from_gcg=_from_gcg)
