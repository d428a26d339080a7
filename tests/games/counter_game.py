"""A third game written only for the tests: the proof that a game plugs in without touching any file
outside its own (here: this file).

Two players take turns tapping a counter; each tap adds one to the tapper's count; the first to reach
the target (3 unless the start says otherwise) wins. One event besides `start` and the shared `undo`.
It is registered at run time (`companion.games.register`) or, for a real app process, through
`COMPANION_GAMES=tests.games.counter_game:GAME`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import flet as ft
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from companion.events import Event, GameLog, PlayerEvent, RulesState, StartEvent, Undo
from companion.games.spec import GameSpec, GameUI, Screen
from companion.rules.errors import IllegalAction
from companion.rules.players import check_player_names
from companion.ui.table import PlayerInfo, TableBase, TableError, stored_seats

# ---------------------------------------------------------------- rules (pure)

VARIANT = "counter"


class Settings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    players: list[str] = Field(min_length=2, max_length=2)
    target: int = Field(default=3, ge=1)

    @model_validator(mode="after")
    def _check(self) -> Settings:
        check_player_names(self.players)
        return self


class Start(StartEvent):
    settings: Settings


class Tap(PlayerEvent):
    type: Literal["tap"] = "tap"


CounterEvent = Annotated[Start | Tap | Undo, Field(discriminator="type")]
EVENT_ADAPTER: TypeAdapter[Any] = TypeAdapter(CounterEvent)


@dataclass
class CounterState(RulesState):
    GAME_LABEL = "counter"

    settings: Settings | None = None
    counts: dict[str, int] = field(default_factory=dict)
    to_move: int = 0
    finished: bool = False

    @property
    def players(self) -> list[str]:
        return list(self.settings.players) if self.settings else []

    @property
    def current_player(self) -> str | None:
        return None if self.settings is None or self.finished else self.players[self.to_move]

    def winner(self) -> list[str]:
        return [p for p, n in self.counts.items() if self.settings and n >= self.settings.target]

    def _start(self, event: Start) -> None:
        self.settings = event.settings
        self.counts = {p: 0 for p in event.settings.players}

    def handlers(self) -> dict[type[Event], Any]:
        return {Tap: self._tap}

    def _tap(self, event: Tap) -> None:
        if event.player != self.current_player:
            raise IllegalAction(f"it is {self.current_player}'s tap, not {event.player}'s")
        assert self.settings is not None
        self.counts[event.player] += 1
        self.finished = self.counts[event.player] >= self.settings.target
        self.to_move = 1 - self.to_move

    def summary(self) -> dict[str, Any]:
        return {"variant": VARIANT, "counts": dict(self.counts), "finished": self.finished,
                "winner": self.winner() if self.finished else None}


def new_state() -> CounterState:
    return CounterState()


def format_summary(summary: dict[str, Any]) -> str:
    counts = ", ".join(f"{p} {n}" for p, n in summary["counts"].items())
    return f"Counter: {counts}" + (f"; winner {summary['winner'][0]}" if summary["winner"] else "")


# ---------------------------------------------------------------- the table and its screens


class CounterTable(TableBase):
    def chip_lines(self, player: str) -> list[str]:
        return [f"{self.state.counts[player]} taps"]

    def tap(self) -> None:
        player = self.current_player
        if player is None:
            raise TableError("The game is over.")
        self.push(Tap(player=player))


def start(app: Any, players: list[PlayerInfo]) -> CounterTable:
    log: GameLog[CounterState] = GameLog(new_state)
    try:
        log.push(Start(settings=Settings(players=[p.name for p in players])))
    except ValueError as exc:
        raise TableError(str(exc)) from None
    return CounterTable(VARIANT, players, log)


def rebuild(game_id: str, table: dict[str, Any], events: list[Any]) -> CounterTable:
    log: GameLog[CounterState] = GameLog(new_state, events)
    return CounterTable(VARIANT, stored_seats(table, log.state.players), log, game_id=game_id)


@ft.component
def CounterSetup(app: Any):
    return ft.Text("Two players tap in turn; the first to 3 wins.")


def _counts(app: Any) -> ft.Control:
    counts = app.game.state.counts
    return ft.Semantics(identifier="counter", content=ft.Text(
        "Counts: " + ", ".join(f"{p} {n}" for p, n in counts.items()), size=18))


@ft.component
def CounterScreen(app: Any):
    game = app.game
    items: list[ft.Control] = [_counts(app)]
    if game.current_player is not None:
        items.append(ft.FilledButton(f"Tap for {game.current_player}", on_click=lambda e: app.do(CounterTable.tap)))
    else:
        items.append(ft.Text("Winner: " + " and ".join(game.winner())))
    if game.can_undo():
        items.append(ft.TextButton("Undo last action", on_click=lambda e: app.undo()))
    return ft.Column(items, spacing=10)


@ft.component
def CounterFollower(app: Any):
    return _counts(app)


UI = GameUI(setup_form=CounterSetup, start=start, rebuild=rebuild,
            screens=(Screen("count", "Count", CounterScreen),), follower=CounterFollower,
            min_players=2, max_players=2)

GAME = GameSpec(id=VARIANT, label="Counter (test game)", rules=sys.modules[__name__], ui=UI)  # type: ignore[arg-type]
