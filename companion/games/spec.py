"""The contract between the app and one game, and the registry that holds the games.

A game is one folder, `companion/games/<game>/`, plus one line in `companion/games/__init__.py`. The folder's
`__init__.py` defines `GAME = GameSpec(...)`, importing only the game's pure rules (no Flet), so the store
and `companion replay` can load a game without the UI. The app loads the UI side (`GameSpec.ui`, a
`"module:attribute"` string naming a `GameUI`) when it needs it.

The rules side (`RulesModule`, `companion/games/<game>/rules.py` or its `rules/` package): `VARIANT`, `EVENT_ADAPTER`,
`new_state()`, the state's `apply(event)` and `summary()`, and `format_summary(summary)`.

The UI side (`GameUI`): the game's own setup form and how to start a table from it, how to rebuild a
table from stored events, the game's screens (the app's navigation row lists them) and the follower's
view. The app shell (`companion/ui/`) owns everything around them: home, the setup screen's game choice,
players, colours and PIN, the hub, saving to the store, the verdict banner.

The registry (`Registry`): games by id, loaded lazily, so importing it is cheap and a game that fails to
import is reported and left out instead of breaking the others. `register(spec)` adds a game at run time;
`COMPANION_GAMES=module:attribute,...` in the environment adds games when the registry is first used,
without editing any file of the repository (tests use it to plug in a game of their own).
"""

from __future__ import annotations

import importlib
import logging
import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import TypeAdapter

from companion.events import Event, GameLog

LOG = logging.getLogger("companion.games")
ENV_VAR = "COMPANION_GAMES"

# The app shell's own screens (`companion/ui/components/app.py` draws them; `lookup`, `lookup-ruling` and
# `rack` are its tools): a game's screen with one of these keys would never be shown, so `GameUI` refuses it.
RESERVED_SCREEN_KEYS = frozenset({"home", "setup", "follow", "verdict", "join", "lookup", "lookup-ruling", "rack"})


class GameState(Protocol):
    """What every game's folded state offers (see docs/adding-a-game.md)."""

    def apply(self, event: Any) -> None: ...

    def summary(self) -> dict[str, Any]: ...


class RulesModule(Protocol):
    """A game's pure rules module: its stored id, its events and its fold."""

    @property
    def VARIANT(self) -> str: ...

    @property
    def EVENT_ADAPTER(self) -> TypeAdapter[Any]: ...

    def new_state(self) -> Any: ...

    def format_summary(self, summary: dict[str, Any]) -> str: ...


@dataclass(frozen=True)
class Screen:
    """One screen of a game. `view` is a Flet component called with the tab's `AppState`.

    `label`: the button in the navigation row ("" keeps it out of the row, e.g. a screen reached from
    another screen). `needs_game`: False for a screen reachable before the game starts (a setup
    sub-screen such as Monopoly Scrabble's board profile editor). `wide`: the screen lays itself out for
    a laptop-width page (`companion.ui.components.layout`); a screen without it is drawn in the phone
    column, centred, at any width.
    """

    key: str
    label: str
    view: Callable[[Any], Any]
    needs_game: bool = True
    wide: bool = False


@dataclass(frozen=True)
class GameUI:
    """The UI side of a game (lives in the game's folder; only the app imports it).

    - `setup_form(app)`: a component with the game's own setup fields, shown on the shell's setup screen
      below the players (the shell asks names, token colours and the PIN for every game).
    - `start(app, players)`: the new table from the tab's answers and the seated `PlayerInfo`s; raises
      `companion.ui.table.TableError` with a sentence when the answers do not make a game.
    - `rebuild(game_id, table, events)`: the table again from the store: `table` is what the table's
      `table_settings()` saved, `events` the stored log.
    - `screens`: the game's screens; the first is where the referee plays (the app goes there after
      Start and Referee this game). Keys are unique and none is the shell's (`RESERVED_SCREEN_KEYS`):
      the game's `GameUI(...)` raises `ValueError` saying which, when its module is imported.
    - `follower(app)`: what a watching phone shows below the shell's status line.
    - `end_screen`: the key of the screen a finished game opens on.
    - `tab_state()`: a fresh per-tab object for the game's own drafts and form fields (see `AppState.local`).
    """

    setup_form: Callable[[Any], Any]
    start: Callable[[Any, list[Any]], Any]
    rebuild: Callable[[str, dict[str, Any], list[Any]], Any]
    screens: tuple[Screen, ...]
    follower: Callable[[Any], Any]
    end_screen: str = ""
    min_players: int = 2
    max_players: int = 4
    tab_state: Callable[[], Any] | None = None

    def __post_init__(self) -> None:
        keys = [s.key for s in self.screens]
        if not keys:
            raise ValueError("a game's GameUI needs at least one screen: the first is where the referee plays")
        taken = sorted(RESERVED_SCREEN_KEYS.intersection(keys))
        if taken:
            raise ValueError(f"the screen key(s) {', '.join(map(repr, taken))} are the app shell's own screens: "
                             f"rename the game's screen (reserved: {', '.join(sorted(RESERVED_SCREEN_KEYS))})")
        twice = sorted({k for k in keys if keys.count(k) > 1})
        if twice:
            raise ValueError(f"the screen key(s) {', '.join(map(repr, twice))} are used by more than one of the "
                             "game's screens: give each screen its own key")
        if self.end_screen and self.end_screen not in keys:
            raise ValueError(f"end_screen {self.end_screen!r} is not one of the game's screens "
                             f"({', '.join(map(repr, keys))})")

    @property
    def play_screen(self) -> str:
        return self.screens[0].key

    def screen(self, key: str) -> Screen | None:
        return next((s for s in self.screens if s.key == key), None)


@dataclass(frozen=True)
class GameSpec:
    """One game: `id` (the variant stored with every saved game and log; never change it once games are
    saved), `label` (what the setup screen offers), `rules` (its pure rules module), `ui` (where its
    `GameUI` is, as `"module:attribute"`; None for a game with no screens yet), and optional GCG
    conversions for games whose record format is GCG."""

    id: str
    label: str
    rules: RulesModule
    ui: str | GameUI | None = None
    to_gcg: Callable[[Sequence[Event]], str] | None = None
    from_gcg: Callable[[str], list[Event]] | None = None

    @property
    def adapter(self) -> TypeAdapter[Any]:
        return self.rules.EVENT_ADAPTER

    def new_state(self) -> Any:
        return self.rules.new_state()

    def fold(self, events: Sequence[Event]) -> GameLog[Any]:
        """The game's log over `events` (each validated by the rules; a refusal raises)."""
        return GameLog(self.rules.new_state, events)

    def summary(self, state: Any) -> dict[str, Any]:
        summary: dict[str, Any] = state.summary()
        return summary

    def format_summary(self, summary: dict[str, Any]) -> str:
        return self.rules.format_summary(summary)

    def load_ui(self) -> GameUI:
        """The game's UI side (imports Flet components: only the app calls this)."""
        if self.ui is None:
            raise UnknownGame(f"{self.label} has no screens yet")
        if isinstance(self.ui, GameUI):
            return self.ui
        found = _load(self.ui)
        if not isinstance(found, GameUI):
            raise UnknownGame(f"{self.ui} is not a GameUI")
        return found


class UnknownGame(LookupError):
    """No such game in the registry (or it could not be loaded); the message says which are known."""


def _load(target: str) -> Any:
    module, _, attr = target.partition(":")
    if not module or not attr:
        raise UnknownGame(f"'{target}' is not 'module:attribute'")
    return getattr(importlib.import_module(module), attr)


@dataclass
class Registry:
    """The games the app knows: `lines` maps each id to where its `GameSpec` is (`"module:attribute"`)."""

    lines: dict[str, str]
    _loaded: dict[str, GameSpec] = field(default_factory=dict)
    _extra_read: bool = False
    problems: dict[str, str] = field(default_factory=dict)
    _lock: threading.RLock = field(default_factory=threading.RLock)

    def register(self, spec: GameSpec, replace: bool = False) -> GameSpec:
        """Add a game at run time (a plug-in, a test's game). An id already taken is refused unless `replace`."""
        with self._lock:
            if not replace and spec.id in self.ids():
                raise ValueError(f"a game with id '{spec.id}' is already registered")
            self._loaded[spec.id] = spec
            self.lines.setdefault(spec.id, "")
            self.problems.pop(spec.id, None)
        return spec

    def unregister(self, game_id: str) -> None:
        with self._lock:
            self._loaded.pop(game_id, None)
            self.lines.pop(game_id, None)

    def _read_extra(self) -> None:
        """Games named in COMPANION_GAMES (`module:attribute` of a GameSpec, comma-separated), once."""
        if self._extra_read:
            return
        self._extra_read = True
        for target in filter(None, (t.strip() for t in os.environ.get(ENV_VAR, "").split(","))):
            try:
                spec = _load(target)
                if not isinstance(spec, GameSpec):
                    raise TypeError(f"{target} is a {type(spec).__name__}, not a GameSpec")
                self.register(spec, replace=True)
            except Exception as exc:  # a broken plug-in is reported (traceback in the log), the others still load
                LOG.exception("the game %s named in %s could not be loaded", target, ENV_VAR)
                self.problems[target] = f"{type(exc).__name__}: {exc}"

    def ids(self) -> list[str]:
        """Every registered id, in registry order (without importing any game)."""
        with self._lock:
            self._read_extra()
            return list(self.lines)

    def get(self, game_id: str) -> GameSpec:
        """The game with this id (imported on first use), or `UnknownGame` saying which games there are."""
        with self._lock:
            self._read_extra()
            if game_id in self._loaded:
                return self._loaded[game_id]
            target = self.lines.get(game_id)
            if not target:
                raise UnknownGame(f"unknown game {game_id!r}: the games are {', '.join(self.available_ids())}")
            try:
                spec = _load(target)
            except Exception as exc:  # one broken game must not break the others (traceback in the log)
                LOG.exception("the game %s (%s) could not be loaded", game_id, target)
                self.problems[game_id] = f"{type(exc).__name__}: {exc}"
                raise UnknownGame(f"the game {game_id!r} could not be loaded ({exc})") from None
            if not isinstance(spec, GameSpec) or spec.id != game_id:
                self.problems[game_id] = f"{target} is not the GameSpec of '{game_id}'"
                raise UnknownGame(f"the game {game_id!r} could not be loaded ({self.problems[game_id]})")
            self._loaded[game_id] = spec
            return spec

    def available(self) -> list[GameSpec]:
        """Every game that loads, in registry order; the ones that do not are in `problems`."""
        out = []
        for game_id in self.ids():
            try:
                out.append(self.get(game_id))
            except UnknownGame:
                continue
        return out

    def available_ids(self) -> list[str]:
        return [s.id for s in self.available()]

    def with_gcg(self) -> list[GameSpec]:
        """The games whose record format is GCG (export and import)."""
        return [s for s in self.available() if s.to_gcg is not None]
