"""The game on the table, shared by every browser tab: plain Python, no UI.

`TableGame` wraps one engine (classic Scrabble or Monopoly Scrabble) and adds what the table needs
around it: player colours, the banker, game clocks, the latest board photo read, a history of scores
for the chart, GCG export. Every rule decision is the engine's: this module only calls it and turns
its refusals into sentences.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from companion.events import GameLog, dump_events
from companion.games.classic.rules import (
    Challenge,
    ClassicState,
    EndGame,
    Exchange,
    Pass,
    Play,
    Settings,
    Start,
    finish_line_target,
    new_state,
    presets,
)
from companion.rules.board import Board, Direction, Layout, PlacedTile, Position, Square, Tile
from companion.rules.errors import RulesError
from companion.rules.notation import format_play, parse_play
from companion.rules.placement import validate_placement
from companion.rules.scoring import play_direction, score_play
from companion.ui.adapters import JUDGE, BoardRead, Verdict

TOKEN_COLOURS = ["red", "blue", "green", "amber", "purple", "teal"]


class TableError(Exception):
    """A refusal worded for the table."""


LOOK_AGAIN = "The game changed on another device: look at the board again, then confirm the turn again."


class StaleView(TableError):
    """The tab acted on a game that another device has changed since it last looked."""


@dataclass
class PlayerInfo:
    name: str
    colour: str


@dataclass
class PlayCheck:
    """The referee's view of a proposed play before it is confirmed."""

    ok: bool
    position: str = ""
    word: str = ""
    words: list[tuple[str, int]] = field(default_factory=list)
    total: int = 0
    bonus: int = 0
    error: str = ""
    bonus_label: str = "bingo"
    new_squares: list[tuple[int, int]] = field(default_factory=list)
    effects: list[str] = field(default_factory=list)  # what confirming would do (Monopoly: money, cards, token)


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


def _message(exc: Exception) -> str:
    text = str(exc).strip()
    if not text:
        return "that is not allowed now"
    return text[0].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def board_diff(board: Board, rows: list[str]) -> tuple[list[PlacedTile], list[str]]:
    """New tiles in a read grid compared with the board, and warnings about disagreeing squares."""
    new: list[PlacedTile] = []
    warnings: list[str] = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            sq = Square(r, c)
            have = board.get(sq)
            if ch in ".#":
                if have is not None:
                    warnings.append(f"{sq} shows no tile but holds {have.letter}")
                continue
            if have is not None:
                if ch != "?" and ch.upper() != have.letter:
                    warnings.append(f"{sq} reads {ch.upper()} but holds {have.letter}")
                continue
            new.append(PlacedTile(sq, Tile(ch.upper() if ch != "?" else "?", blank=ch.islower() or ch == "?")))
    return new, warnings


def tiles_to_notation(board: Board, tiles: list[PlacedTile]) -> tuple[str, str]:
    """GCG position and word for a set of new tiles (the engine then judges them)."""
    if not tiles:
        raise TableError("No new tiles were found on the board.")
    direction = play_direction(tiles, board)
    first = min(t.square for t in tiles)
    start = first
    step_back = start.step(direction, -1)
    while board.contains(step_back) and board.get(step_back) is not None:
        start = step_back
        step_back = start.step(direction, -1)
    pos = Position(start, direction)
    rows = {t.square.row for t in tiles}
    cols = {t.square.col for t in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise TableError("The new tiles are not in one row or one column: check the highlighted squares.")
    notation = format_play(pos, tiles, board)
    position, word = notation.split(" ", 1)
    return position, word


# ============================================================================ engines


class ClassicEngine:
    variant = "classic"

    def __init__(self, settings: Settings) -> None:
        self.log: GameLog[ClassicState] = GameLog(new_state)
        self.log.push(Start(settings=settings))

    @property
    def state(self) -> ClassicState:
        return self.log.state

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def layout(self) -> Layout:
        assert self.state.layout is not None
        return self.state.layout

    @property
    def players(self) -> list[str]:
        return self.state.players

    @property
    def current_player(self) -> str | None:
        return self.state.current_player

    def scores(self) -> dict[str, int]:
        return dict(self.state.scores)

    def check(self, position: str, word: str) -> PlayCheck:
        st = self.state
        assert st.layout is not None and st.tileset is not None
        try:
            tiles = parse_play(position, word, st.board)
            validate_placement(st.board, tiles, st.layout, st.tileset)
            scored = score_play(st.board, tiles, st.layout, st.tileset)
        except (RulesError, ValueError) as exc:
            return PlayCheck(False, position, word, error=_message(exc))
        return PlayCheck(True, position.upper(), word, [(w.text, w.score) for w in scored.words], scored.total,
                         scored.bingo_bonus, new_squares=[(t.square.row, t.square.col) for t in tiles])

    def play(self, position: str, word: str) -> None:
        player = self.current_player
        if player is None:
            raise TableError("The game is over: no more plays.")
        self.log.push(Play(player=player, position=position, word=word))

    def pass_turn(self) -> None:
        player = self.current_player
        if player is None:
            raise TableError("The game is over.")
        self.log.push(Pass(player=player))

    def exchange(self, count: int) -> None:
        player = self.current_player
        if player is None:
            raise TableError("The game is over.")
        self.log.push(Exchange(player=player, count=count))

    def last_play_words(self) -> tuple[str, list[str]] | None:
        last = self.state.last_play
        if last is None or last.challenged:
            return None
        return last.player, list(self.state.turns[last.turn_index].words)

    def challenge(self, challenger: str, verdict: Verdict) -> None:
        self.log.push(Challenge(challenger=challenger, acceptable=verdict.acceptable, lexicon=verdict.lexicon,
                                words=list(verdict.words)))

    def end_game(self, racks: dict[str, str], time_used: dict[str, int], agreed: bool = False) -> None:
        self.log.push(EndGame(racks=racks, time_used=time_used, agreed=agreed))

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def end_reason(self) -> str | None:
        return self.state.end_reason

    def winner(self) -> list[str]:
        return self.state.winner()

    def history(self) -> list[dict[str, int]]:
        """Score of every player after each turn (the chart)."""
        running = {p: 0 for p in self.players}
        out = [dict(running)]
        for turn in self.state.turns:
            running[turn.player] = turn.total
            out.append(dict(running))
        return out

    def events_json(self) -> str:
        return dump_events(self.log.events, self.variant)


# ============================================================================ the table


class TableGame:
    """One game at the table: the engine plus clocks, colours, banker, the latest photo read."""

    def __init__(self, kind: str, players: list[PlayerInfo], engine: Any, banker: str | None = None,
                 lexicon: str = "ENABLE", clock_minutes: int | None = None, penalty_per_minute: int = 10,
                 preset_label: str = "") -> None:
        self.id = secrets.token_hex(6)  # unique across restarts: it is the game's id in the store
        self.kind = kind
        self.player_info = players
        self.engine = engine
        self.banker = banker
        self.lexicon = lexicon
        self.preset_label = preset_label
        self.clock_minutes = clock_minutes
        self.penalty_per_minute = penalty_per_minute
        self.clocks = Clocks({p.name: 0.0 for p in players}) if clock_minutes else None
        self.last_read: BoardRead | None = None
        self.last_verdict: Verdict | None = None
        self.last_verdict_at: float = 0.0
        self.lock = threading.RLock()
        self.revision = 0
        # Changes to the game itself (plays, passes, challenges, card effects, undo...), not photo reads or
        # clocks: a tab that acts on an older count acted on a screen that no longer shows the game.
        self.moves = 0
        self.notice = ""
        self.new_pin = ""  # the referee PIN chosen at setup, until the store has hashed it

    # ----- construction
    @classmethod
    def new_classic(cls, players: list[PlayerInfo], preset: str = "box", variant: str = "standard",
                    finish_level: str = "intermediate", lexicon: str = "ENABLE",
                    tileset: str = "en") -> TableGame:
        names = [p.name.strip() for p in players]
        table = presets()
        if preset not in table:
            raise TableError(f"Unknown rules '{preset}'.")
        target = finish_line_target(finish_level, len(names)) if variant == "finish_line" else None
        try:
            settings = Settings(players=names, preset=preset, variant=variant,  # type: ignore[arg-type]
                                finish_target=target, lexicon=lexicon, tileset=tileset)
            engine = ClassicEngine(settings)
        except (RulesError, ValueError) as exc:
            raise TableError(_plain_validation(exc)) from None
        rules = table[preset]
        game = cls("classic", [PlayerInfo(n, p.colour) for n, p in zip(names, players)], engine,
                   lexicon=lexicon, clock_minutes=rules.clock_minutes,
                   penalty_per_minute=rules.overtime_penalty_per_minute, preset_label=rules.label)
        if game.clocks is not None:
            game.clocks.switch(None)
        return game

    # ----- read-only views
    @property
    def players(self) -> list[str]:
        return [p.name for p in self.player_info]

    @property
    def tileset_name(self) -> str:
        """The tile set the game scores with (what the board reader is told, so it reads that alphabet)."""
        tiles = getattr(self.engine.state, "tileset", None)
        return str(tiles.name) if tiles is not None else "en"

    def colour(self, player: str) -> str:
        for p in self.player_info:
            if p.name == player:
                return p.colour
        return "grey"

    @property
    def current_player(self) -> str | None:
        return self.engine.current_player

    @property
    def board(self) -> Board:
        return self.engine.board  # type: ignore[no-any-return]

    @property
    def layout(self) -> Layout:
        return self.engine.layout  # type: ignore[no-any-return]

    def scores(self) -> dict[str, int]:
        return self.engine.scores()  # type: ignore[no-any-return]

    def turn_stage(self) -> str:
        """Where the current turn is: 'word' until a word (or pass) is recorded."""
        stage = getattr(self.engine, "turn_stage", None)
        return str(stage()) if callable(stage) else "word"

    def can_undo(self) -> bool:
        return bool(self.engine.log.can_undo()) and len([e for e in self._in_force()]) > 1

    def _in_force(self) -> list[Any]:
        from companion.events import effective_events
        return effective_events(self.engine.log.events)

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

    # ----- actions (each raises TableError with a sentence)
    def _do(self, fn: Any, *args: Any) -> None:
        with self.lock:
            try:
                fn(*args)
            except TableError:
                raise
            except (RulesError, ValueError) as exc:
                raise TableError(_plain_validation(exc)) from None
            self.moves += 1
            self._after_turn()
            self.last_read = None
            self._changed()

    def act(self, seen: tuple[str, int] | None, action: str, *args: Any) -> Any:
        """Run `action` for a tab that last saw the game at `seen` (game id, moves): refused with
        LOOK_AGAIN, changing nothing, when another device changed the game since (two phones tapping
        Pass at the same moment record one pass, not two). `seen` None: the tab has not looked yet."""
        with self.lock:  # the check and the change are one step: no other tab can slip in between
            if seen is not None and seen != (self.id, self.moves):
                raise StaleView(LOOK_AGAIN)
            return getattr(self, action)(*args)

    def check(self, position: str, word: str, bought: str = "") -> PlayCheck:
        """`bought` (Monopoly Scrabble: Bank rack letters in the word) is ignored by classic Scrabble."""
        position, word = position.strip(), word.strip()
        if not position or not word:
            return PlayCheck(False, position, word, error="Enter the word and its start square (like H8), then choose Across or Down.")
        return self.engine.check(position, word)  # type: ignore[no-any-return]

    def check_read(self, rows: list[str], bought: str = "") -> tuple[PlayCheck, list[str]]:
        """Compare a (corrected) board read with the board: the play it shows, checked."""
        tiles, warnings = board_diff(self.board, rows)
        if any(t.tile.letter == "?" for t in tiles):
            names = ", ".join(str(t.square) for t in tiles if t.tile.letter == "?")
            return PlayCheck(False, error=f"Name the blank on {names}: tap the square and choose its letter."), warnings
        try:
            position, word = tiles_to_notation(self.board, tiles)
        except TableError as exc:
            return PlayCheck(False, error=str(exc),
                             new_squares=[(t.square.row, t.square.col) for t in tiles]), warnings
        result = self.check(position, word, bought)
        if not result.new_squares:
            result.new_squares = [(t.square.row, t.square.col) for t in tiles]
        return result, warnings

    def play(self, position: str, word: str, bought: str = "") -> None:
        check = self.check(position, word)
        if not check.ok:
            raise TableError(check.error)
        self._do(self.engine.play, position, word)

    def pass_turn(self) -> None:
        self._do(self.engine.pass_turn)

    def exchange(self, count: int) -> None:
        self._do(self.engine.exchange, count)

    def last_play_words(self) -> tuple[str, list[str]] | None:
        return self.engine.last_play_words()  # type: ignore[no-any-return]

    def challenge(self, challenger: str) -> Verdict:
        last = self.last_play_words()
        if last is None:
            raise TableError("There is no play to challenge: a challenge must come before the next turn.")
        player, words = last
        if challenger == player:
            raise TableError(f"{player} cannot challenge their own play.")
        verdict = JUDGE.judge(words, self.lexicon)
        self._do(self.engine.challenge, challenger, verdict)
        if verdict.acceptable:
            self.notice = f"The play stands. {challenger}'s challenge fails."
        else:
            self.notice = f"The tiles go back to {player}'s rack: the play scores nothing."
        self.last_verdict = verdict
        self.last_verdict_at = time.time()
        self._changed()
        return verdict

    def end_game(self, racks: dict[str, str], agreed: bool = False) -> None:
        used = {p: int(self.clock_seconds(p)) for p in self.players} if self.clocks else {}
        if self.clocks is not None:
            self.clocks.switch(None)
        self._do(self.engine.end_game, {p: r for p, r in racks.items() if r.strip()}, used, agreed)

    def undo(self) -> None:
        with self.lock:
            if not self.can_undo():
                raise TableError("There is nothing to undo.")
            self._do(self.engine.log.undo)

    @property
    def finished(self) -> bool:
        return bool(self.engine.finished)

    @property
    def end_reason(self) -> str | None:
        return self.engine.end_reason  # type: ignore[no-any-return]

    def winner(self) -> list[str]:
        return self.engine.winner()  # type: ignore[no-any-return]

    def history(self) -> list[dict[str, int]]:
        return self.engine.history()  # type: ignore[no-any-return]

    def set_read(self, read: BoardRead | None) -> None:
        self.last_read = read
        self._changed()

    def _changed(self) -> None:
        self.revision += 1

    # ----- exports
    def gcg(self) -> str:
        """The GCG record of a classic game (the project's GCG writer; the UI adds nothing)."""
        from companion.gcg import record_from_classic, write_gcg

        return write_gcg(record_from_classic(self.engine.log.events))


def _plain_validation(exc: Exception) -> str:
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        msg = exc.errors()[0]["msg"]
        msg = msg.removeprefix("Value error, ")
        return _message(ValueError(msg))
    return _message(exc)


__all__ = [
    "TOKEN_COLOURS",
    "Direction",
    "PlayCheck",
    "PlayerInfo",
    "TableError",
    "TableGame",
    "board_diff",
    "tiles_to_notation",
]
