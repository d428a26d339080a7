"""The game on the table, shared by every browser tab: plain Python, no UI, no game rule.

`TableBase` is what the app shell (hub, store sync, navigation, the PIN, the follower's status line)
knows of any game: its event log (the game's rules fold it and decide everything), the seated players
and their token colours, optional game clocks, and the guard that makes two devices tapping at once
record one change, not two (`act`). Each game's table subclasses it (`companion/games/<game>/table.py`)
with the actions its screens call; each action pushes one of the game's events through `push` or `_do`.

It also holds the plumbing every game's table would otherwise write for itself: the end-of-game chart
folded again from the log (`replay_snapshots`, `TableBase.replayed_history`), what an action did in
sentences (`narrate` -> `turn_lines`), and the seats of a game rebuilt from the store (`stored_seats`;
a rebuilt game goes through the same constructor as a new one, with `game_id`).
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import ValidationError

from companion.events import Event, GameLog, SupportsApply, dump_events, effective_events
from companion.rules.errors import RulesError

V = TypeVar("V")
S = TypeVar("S", bound=SupportsApply)
# One point of the end-of-game chart: a number per player (score, wealth, points...).
ChartPoint = dict[str, int]

TOKEN_COLOURS = ["red", "blue", "green", "amber", "purple", "teal"]


class TableError(Exception):
    """A refusal worded for the table."""


# Said the same in every game: no board, no turn to confirm assumed (Deal has neither).
LOOK_AGAIN = "The game changed on another device: check what it shows now, then tap again if still needed."


class StaleView(TableError):
    """The tab acted on a game that another device has changed since it last looked."""


class RepeatedTap(TableError):
    """The second tap of a double tap (`AppState._act`): dropped, nothing recorded and nothing said."""


@dataclass
class PlayerInfo:
    name: str
    colour: str


@dataclass
class Clocks:
    """Chess-clock style: the clock of the player to move runs."""

    used: dict[str, float]
    running: str | None = None
    since: float | None = None

    def seconds(self, player: str) -> float:
        extra = time.monotonic() - self.since if self.running == player and self.since is not None else 0.0
        return self.used.get(player, 0.0) + extra

    def switch(self, player: str | None) -> None:
        now = time.monotonic()
        if self.running is not None and self.since is not None:
            self.used[self.running] = self.used.get(self.running, 0.0) + now - self.since
        self.running = player
        self.since = now if player is not None else None

    def paused(self) -> bool:
        return self.running is None

    def snapshot(self) -> dict[str, Any]:
        """What a restart needs: seconds used so far (the running clock's time folded in) and who was running."""
        return {"used": {p: round(self.seconds(p), 1) for p in self.used}, "running": self.running}

    def restore(self, snapshot: dict[str, Any]) -> None:
        """Back to a snapshot's times, paused: nobody knows how long the app was down, so the table restarts
        the clock by hand (Start clocks)."""
        used = snapshot.get("used", {})
        for p in self.used:
            value = used.get(p, 0.0)
            self.used[p] = float(value) if isinstance(value, (int, float)) and value >= 0 else 0.0
        self.running = None
        self.since = None


# What a tab asks a table to do (`TableBase.act`, `AppState.do`): the table class's method, unbound
# (`BuilderTable.roll`, called with the table first), never its name: a type checker and "find usages"
# see every call, and a renamed method breaks the check, not a tap at the table.
TableAction = Callable[..., Any]


def action_name(action: TableAction) -> str:
    """How logs name an action: the method's name ("buy")."""
    return str(getattr(action, "__name__", repr(action)))


def stored_seats(table: Mapping[str, Any], players: Iterable[str]) -> list[PlayerInfo]:
    """The seats of a game rebuilt from the store: `players` in the log's order, each with the token colour
    its `table_settings()` saved (grey when none was saved, e.g. a log replayed without its settings)."""
    colours = {str(name): str(colour) for name, colour in table.get("players", [])}
    return [PlayerInfo(p, colours.get(p, "grey")) for p in players]


def replay_snapshots(events: Sequence[Event], new_state: Callable[[], S], point: Callable[[S], ChartPoint], *,
                     after: Callable[[Event], bool] | None = None, repeats: bool = False,
                     final_point_when: Callable[[S], bool] | None = None) -> list[ChartPoint]:
    """The end-of-game chart of a log: the events in force folded again from `new_state()`, and `point` of
    the state taken after each event `after` accepts (every event when None). `repeats` False drops a
    point equal to the one before it (a chart of wealth that no event changed); `final_point_when`: one
    more point after the last event when it says so of the final state (Deal: the money at the end)."""
    state = new_state()
    out: list[ChartPoint] = []
    for event in effective_events(events):
        state.apply(event)
        if after is not None and not after(event):
            continue
        snapshot = point(state)
        if repeats or not out or out[-1] != snapshot:
            out.append(snapshot)
    if final_point_when is not None and final_point_when(state):
        out.append(point(state))
    return out


def _message(exc: Exception) -> str:
    text = str(exc).strip()
    if not text:
        return "that is not allowed now"
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def _plain_validation(exc: Exception) -> str:
    """A refusal (rules error, pydantic validation error, ValueError) as one sentence for the table."""
    if isinstance(exc, ValidationError):
        msg = exc.errors()[0]["msg"]
        msg = msg.removeprefix("Value error, ")
        return _message(ValueError(msg))
    return _message(exc)


class TableBase:
    """One game at the table: its log plus what the table adds (colours, clocks, the tap guard).

    Subclasses call `super().__init__` with the game's id (`kind`, the registry id stored with the game),
    the seated players and the started `GameLog` (a game rebuilt from the store passes its stored log and
    `game_id`: a new game and a rebuilt one go through the same constructor), and add actions that change the game through `push`
    (one event) or `_do` (any call that pushes events). A refused event raises `TableError` with the
    rules' sentence and changes nothing.
    """

    def __init__(self, kind: str, players: list[PlayerInfo], log: GameLog[Any], clock_minutes: int | None = None,
                 penalty_per_minute: int = 10, game_id: str | None = None) -> None:
        # The game's id in the store: a new game's is unique across restarts; a rebuilt game keeps its own.
        self.id = game_id if game_id is not None else secrets.token_hex(6)
        self.kind = kind
        self.player_info = players
        self.log = log
        self.clock_minutes = clock_minutes
        self.penalty_per_minute = penalty_per_minute
        self.clocks = Clocks({p.name: 0.0 for p in players}) if clock_minutes else None
        self.last_verdict: Any = None  # the latest ruling (word judge), shown to followers for a few seconds
        self.last_verdict_at: float = 0.0
        self.lock = threading.RLock()
        self.revision = 0
        # Changes to the game itself (plays, passes, challenges, card effects, undo...), not photo reads or
        # clocks: a tab that acts on an older count acted on a screen that no longer shows the game.
        self.moves = 0
        self.notice = ""
        # What the latest change did, in sentences (`narrate`), for the games whose screens show it.
        self.turn_lines: list[str] = []
        self.new_pin = ""  # the referee PIN chosen at setup, until the store has hashed it
        self._views: dict[str, tuple[int, Any]] = {}  # name -> (revision, value): see `view`
        self._history: tuple[int, list[ChartPoint]] | None = None  # (events in the log, chart): see `replayed_history`

    # ----- read-only views every screen may use
    @property
    def state(self) -> Any:
        """The game's folded state (its rules module's state class)."""
        return self.log.state

    @property
    def players(self) -> list[str]:
        return [p.name for p in self.player_info]

    def colour(self, player: str) -> str:
        for p in self.player_info:
            if p.name == player:
                return p.colour
        return "grey"

    @property
    def current_player(self) -> str | None:
        """Who acts now (None: nobody, e.g. the game is over). Default: the state's `current_player`."""
        player = getattr(self.state, "current_player", None)
        return str(player) if player is not None else None

    def doing(self) -> str:
        """What `current_player` does now, after their name ("Bob to play"): a game whose player acting
        now may only answer or pay says so (Deal: "to answer", "to pay")."""
        return "to play"

    @property
    def finished(self) -> bool:
        return bool(getattr(self.state, "finished", False))

    def winner(self) -> list[str]:
        return list(self.state.winner())

    def view(self, name: str, make: Callable[[V | None], V]) -> V:
        """What a screen derives from the game (the board's squares at one size...), made once per change
        of the game and shared by every tab showing it: a table's five followers cost one computation
        per update, not five. `make` gets the value it made before (None the first time), so it can hand
        back the parts that did not change as the same objects: memoized components then skip them
        on an identity check."""
        # No lock: a redraw must never wait for a change being made on another thread. The revision is
        # read first, so a change that lands while `make` runs is made again on the next redraw.
        revision = self.revision
        made = self._views.get(name)
        if made is not None and made[0] == revision:
            return made[1]  # type: ignore[no-any-return]
        value = make(made[1] if made is not None else None)
        self._views[name] = (revision, value)
        return value

    def chip_lines(self, player: str) -> list[str]:
        """What a player's chip shows under the name (score, money...): each game says."""
        return []

    def history(self) -> list[ChartPoint]:
        """A number per player after each turn, for the end-of-game chart (empty: no chart). A game whose
        chart folds its log again says how with `replayed_history`."""
        return []

    def replayed_history(self, new_state: Callable[[], S], point: Callable[[S], ChartPoint], *,
                         after: Callable[[Event], bool] | None = None, repeats: bool = False,
                         final_point_when: Callable[[S], bool] | None = None) -> list[ChartPoint]:
        """`replay_snapshots` of this table's log, kept until the log changes (the end screen asks on
        every redraw; a fold takes a few milliseconds per hundred events)."""
        with self.lock:
            events = list(self.log.events)
        cached = self._history
        if cached is not None and cached[0] == len(events):
            return cached[1]
        chart = replay_snapshots(events, new_state, point, after=after, repeats=repeats,
                                 final_point_when=final_point_when)
        self._history = (len(events), chart)
        return chart

    def can_undo(self) -> bool:
        """Anything after the `start` event to take back."""
        return bool(self.log.can_undo()) and len(effective_events(self.log.events)) > 1

    def table_settings(self) -> dict[str, Any]:
        """What the store keeps beside the events for `GameUI.rebuild` (the events do not carry it)."""
        return {
            "kind": self.kind,
            "players": [[p.name, p.colour] for p in self.player_info],
            "clock_minutes": self.clock_minutes,
            "penalty_per_minute": self.penalty_per_minute,
        }

    def restore_table_settings(self, table: dict[str, Any]) -> None:
        """After `GameUI.rebuild`: take back the stored table settings a game may change while it is played
        (none here; the word tables' watch keeps its settle seconds)."""

    def events_json(self) -> str:
        return dump_events(self.log.events, self.kind)

    # ----- clocks
    def clock_seconds(self, player: str) -> float:
        return self.clocks.seconds(player) if self.clocks else 0.0

    def overtime_penalty(self, player: str) -> int:
        if not self.clocks or not self.clock_minutes:
            return 0
        over = self.clocks.seconds(player) - self.clock_minutes * 60
        return self.penalty_per_minute * math.ceil(over / 60) if over > 0 else 0

    def start_clock(self) -> None:
        if self.clocks is not None:
            self.clocks.switch(self.current_player)
            self._changed()

    def pause_clock(self) -> None:
        if self.clocks is not None:
            self.clocks.switch(None)
            self._changed()

    def _after_turn(self) -> None:
        if self.clocks is not None and not self.clocks.paused():
            self.clocks.switch(self.current_player)

    # ----- changing the game (each raises TableError with a sentence)
    def _do(self, fn: Any, *args: Any) -> None:
        with self.lock:
            before = self.log.state
            try:
                fn(*args)
            except TableError:
                raise
            except (RulesError, ValueError) as exc:
                raise TableError(_plain_validation(exc)) from None
            self.moves += 1
            after = self.log.state
            if after is not before:
                self.turn_lines = self.narrate(before, after)
            self._after_turn()
            self._changed()

    def narrate(self, before: Any, after: Any) -> list[str]:
        """What one change did, in sentences, from the game's states before and after it (`turn_lines`);
        none by default."""
        return []

    def push(self, event: Event) -> None:
        """Record one of the game's events (the rules refuse an illegal one: TableError, nothing changes)."""
        self._do(self.log.push, event)

    def act(self, seen: tuple[str, int] | None, action: TableAction, *args: Any) -> Any:
        """Run `action` for a tab that last saw the game at `seen` (game id, moves): refused with
        LOOK_AGAIN, changing nothing, when another device changed the game since (two phones tapping
        Pass at the same moment record one pass, not two). `seen` None: the tab has not looked yet.

        `action` is the table's method itself, unbound (`BuilderTable.buy`): a type checker and "find
        usages" see the call. An unbound method skips overriding: a base class's method that this table's
        class overrides (`WordTable.challenge` on a Monopoly Scrabble table) is a bug, refused here
        (TypeError) before it runs; code shared by several tables passes `type(game).challenge`."""
        own = getattr(type(self), getattr(action, "__name__", ""), None)
        if callable(own) and own is not action and getattr(action, "__qualname__", "").count(".") == 1:
            raise TypeError(f"{action.__qualname__} is overridden by {type(self).__name__}: "
                            f"pass {type(self).__name__}.{action.__name__} (or type(game).{action.__name__})")
        with self.lock:  # the check and the change are one step: no other tab can slip in between
            if seen is not None and seen != (self.id, self.moves):
                raise StaleView(LOOK_AGAIN)
            return action(self, *args)

    def undo(self) -> None:
        with self.lock:
            if not self.can_undo():
                raise TableError("There is nothing to undo.")
            self._do(self.log.undo)
            self.turn_lines = ["The last action was undone."]

    def _changed(self) -> None:
        self.revision += 1


__all__ = ["LOOK_AGAIN", "TOKEN_COLOURS", "ChartPoint", "Clocks", "PlayerInfo", "RepeatedTap", "StaleView",
           "TableAction", "TableBase", "TableError", "action_name", "replay_snapshots", "stored_seats"]
