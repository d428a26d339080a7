"""A game is its ordered log of events; its state is the fold of that log.

This module owns the machinery every game shares:

- `Event`: the pydantic base of every event of every game (a `type` tag, when it was recorded and on
  which device).
- `PlayerEvent`: an event one player makes (`player`: who).
- `StartEvent`: the base of every game's first event, `start`; a game's `Start` adds the `settings` it
  needs (seating, the rules chosen, the deck or profile used), so a log replays the same after an asset
  file is edited.
- `PassEvent`: a player lets the turn go (`pass`), the same in every game that has one.
- `Undo`: an event that cancels the latest event still in force. Undo is itself logged, so the audit
  trail keeps the mistake and its correction.
- `RulesState`: an optional base of a game's folded state: `apply` refuses what no game accepts (an
  event before `start`, a second `start`, anything once the game is over) and hands the rest to the
  game's handler for that event class.
- `effective_events`: the events still in force once undos are applied.
- `GameLog`: a log plus a variant's fold. `push` validates an event against the current state and
  either appends it or raises, leaving log and state exactly as they were.

Each game (`companion/games/<game>/rules.py`, or a `rules/` package) defines its events as subclasses of these and a state
with `apply(event)`; the contract is `docs/adding-a-game.md`.
"""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from companion.rules.errors import IllegalAction

LOG_FORMAT_VERSION = 1


class Event(BaseModel):
    """Base of every event. Subclasses set `type` to a Literal tag."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    type: str
    at: datetime | None = Field(default=None, description="when the event was recorded (UTC)")
    device: str | None = Field(default=None, description="which device recorded it, for the audit trail")


class PlayerEvent(Event):
    """An event one player makes: `player` is who."""

    player: str


class StartEvent(Event):
    """The first event of every game. A game subclasses it with a `settings` field of its own."""

    type: Literal["start"] = "start"


class PassEvent(PlayerEvent):
    """The player lets the turn go without playing."""

    type: Literal["pass"] = "pass"


class Undo(Event):
    """Cancels the latest event still in force."""

    type: Literal["undo"] = "undo"


class RulesState(ABC):
    """Base of a game's folded state (a dataclass with `settings` None until `start`, and `finished`).

    `apply(event)`: a `start` goes to `_start` (once); before it, and once `finished`, every event is
    refused; any other event goes to `_handle`, which by default calls the method `handlers()` names
    for the event's class, and refuses an event class the game does not have.
    """

    GAME_LABEL: ClassVar[str] = "this"
    settings: Any
    finished: bool

    def apply(self, event: Event) -> None:
        if isinstance(event, StartEvent):
            if self.settings is not None:
                raise IllegalAction("the game has already started")
            self._start(event)
            return
        if self.settings is None:
            raise IllegalAction("the game has not started: the first event must be 'start'")
        if self.finished:
            raise IllegalAction("the game is over")
        self._handle(event)

    @abstractmethod
    def _start(self, event: Any) -> None:
        """Set the game up from its `start` event (its settings, the seats, what is dealt)."""

    @abstractmethod
    def handlers(self) -> dict[type[Event], Callable[[Any], None]]:
        """The game's events (other than `start`) and the method that applies each."""

    def _handle(self, event: Event) -> None:
        handler = self.handlers().get(type(event))
        if handler is None:
            raise IllegalAction(f"a {self.GAME_LABEL} game has no '{event.type}' event")
        handler(event)


class SupportsApply(Protocol):
    def apply(self, event: Any) -> None: ...


S = TypeVar("S", bound=SupportsApply)
E = TypeVar("E", bound=Event)


def effective_events(events: Iterable[E]) -> list[E]:
    """The events in force: each `Undo` removes the latest event not already undone."""
    stack: list[E] = []
    for event in events:
        if isinstance(event, Undo):
            if not stack:
                raise IllegalAction("there is nothing to undo")
            stack.pop()
        else:
            stack.append(event)
    return stack


class GameLog(Generic[S]):
    """An ordered event log and the state folded from it.

    `new_state` builds the state before any event. `push` never half-applies: the event is applied
    to a copy of the state, and only a successful apply is kept.
    """

    def __init__(self, new_state: Callable[[], S], events: Sequence[Event] = ()) -> None:
        self._new_state = new_state
        self.events: list[Event] = []
        self.state: S = new_state()
        for event in events:
            self.push(event)

    def push(self, event: Event) -> S:
        if isinstance(event, Undo):
            in_force = effective_events([*self.events, event])  # raises when nothing to undo
            state = self._fold(in_force)
        else:
            state = copy.deepcopy(self.state)
            state.apply(event)
        self.events.append(event)
        self.state = state
        return state

    def undo(self) -> S:
        return self.push(Undo())

    def can_undo(self) -> bool:
        return bool(effective_events(self.events))

    def _fold(self, events: Iterable[Event]) -> S:
        state = self._new_state()
        for event in events:
            state.apply(event)
        return state

    def replay(self) -> S:
        """Fold the whole log again from the start (what a resumed or audited game does)."""
        return self._fold(effective_events(self.events))


def dump_events(events: Sequence[Event], variant: str) -> str:
    """The documented log format: `{"format": 1, "variant": ..., "events": [...]}`."""
    return json.dumps(
        {
            "format": LOG_FORMAT_VERSION,
            "variant": variant,
            "events": [e.model_dump(mode="json", exclude_none=True) for e in events],
        },
        indent=1,
    )


class LogFormatError(ValueError):
    """A log file that cannot be read; the message says where and why."""


def load_events(text: str, adapter: TypeAdapter[Any], variant: str | None = None) -> tuple[str, list[Any]]:
    """Parse a log written by `dump_events`; each event validated by `adapter` (a tagged union)."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LogFormatError(f"the game log is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecursionError:
        raise LogFormatError("the game log is nested too deeply to be a game log") from None
    except ValueError:  # e.g. a number with thousands of digits
        raise LogFormatError("the game log holds a value no game log has (a number far too long)") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("events"), list):
        raise LogFormatError('the game log must be an object with an "events" list')
    fmt = raw.get("format", LOG_FORMAT_VERSION)
    # bool is an int in Python; `"format": true` is not a version.
    if not isinstance(fmt, int) or isinstance(fmt, bool) or fmt < 1:
        raise LogFormatError(f"the game log's format {fmt!r} is not a version number")
    if fmt > LOG_FORMAT_VERSION:
        raise LogFormatError(f"the game log has format {fmt}, newer than this app reads ({LOG_FORMAT_VERSION})")
    found_raw = raw.get("variant", variant or "")
    if not isinstance(found_raw, str):
        raise LogFormatError('the game log\'s "variant" must be a name such as "classic" or "monopoly"')
    found = found_raw
    if variant is not None and found and found != variant:
        raise LogFormatError(f"the game log is a {found} game, not {variant}")
    events = []
    for i, item in enumerate(raw["events"]):
        try:
            events.append(adapter.validate_python(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise LogFormatError(f"event {i + 1} of the game log is invalid at {where}: {first['msg']}") from None
    return found, events
