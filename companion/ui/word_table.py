"""The table of the games played on the 15x15 word board (classic Scrabble, Monopoly Scrabble): plain
Python, no UI.

`WordTable` adds to `TableBase` what both word-board games do at the table: the board and its layout,
the latest board photo read, checking a play (from the photo or typed) before it is confirmed, the word
judge's ruling on a challenge, the Banker and the word list. The game's engine wrapper (in its folder)
turns those into its own events; every rule decision is the engine's.
"""

from __future__ import annotations

import logging
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from companion.events import Event, GameLog, PassEvent, dump_events, effective_events
from companion.games import GAMES
from companion.rack_check import RackAnswer, RackRefused, TurnReview, check_rack, review_plays
from companion.rules.board import Board, Direction, Layout, PlacedTile, Position, Square, Tile
from companion.rules.notation import format_play
from companion.rules.scoring import play_direction
from companion.rules.tiles import load_tileset
from companion.ui.adapters import JUDGE, BoardRead, Verdict
from companion.ui.table import PlayerInfo, TableBase, TableError
from companion.ui.watching import TableWatch

LOG = logging.getLogger("companion.ui")


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


class WordGameState(Protocol):
    """What `WordEngine` reads of a word-board game's folded state (both games' states offer it)."""

    @property
    def board(self) -> Board: ...

    @property
    def layout(self) -> Layout | None: ...

    @property
    def players(self) -> list[str]: ...

    @property
    def current_player(self) -> str | None: ...

    @property
    def finished(self) -> bool: ...

    def winner(self) -> list[str]: ...

    def apply(self, event: Any) -> None: ...


S = TypeVar("S", bound=WordGameState)


class WordEngine(ABC, Generic[S]):
    """A word-board game's log (of states `S`) with the calls `WordTable` makes. Each game's engine sets
    `variant` and `challenge_event` (its challenge event class) and implements the abstract calls below
    (a type checker and Python itself refuse an engine that lacks one); its own `end_game` is called by
    its own table."""

    variant: ClassVar[str] = ""
    challenge_event: ClassVar[Callable[..., Event]]

    def __init__(self, log: GameLog[S]) -> None:
        """`log`: the game's log, started (a new game) or as stored (a rebuilt one): the one way to make an engine."""
        self.log = log

    @property
    def state(self) -> S:
        return self.log.state

    @property
    def board(self) -> Board:
        return self.state.board

    @property
    def layout(self) -> Layout:
        layout = self.state.layout
        assert layout is not None
        return layout

    @property
    def players(self) -> list[str]:
        return list(self.state.players)

    @property
    def current_player(self) -> str | None:
        return self.state.current_player

    def to_act(self, refusal: str = "The game is over.") -> str:
        """The player whose turn it is, or TableError(`refusal`) when nobody is to play."""
        player = self.current_player
        if player is None:
            raise TableError(refusal)
        return player

    def pass_turn(self) -> None:
        self.log.push(PassEvent(player=self.to_act()))

    def challenge(self, challenger: str, verdict: Verdict) -> None:
        self.log.push(self.challenge_event(challenger=challenger, acceptable=verdict.acceptable,
                                           lexicon=verdict.lexicon, words=list(verdict.words)))

    @property
    def finished(self) -> bool:
        return bool(self.state.finished)

    def winner(self) -> list[str]:
        return list(self.state.winner())

    def events_json(self) -> str:
        return dump_events(self.log.events, self.variant)

    @abstractmethod
    def scores(self) -> dict[str, int]:
        """Points per player."""

    @abstractmethod
    def check(self, position: str, word: str) -> PlayCheck:
        """The play as the rules would take it, tried on a copy of the state (nothing changes)."""

    @abstractmethod
    def play(self, position: str, word: str) -> None:
        """Record the play of the player whose turn it is."""

    @abstractmethod
    def last_play_words(self) -> tuple[str, list[str]] | None:
        """The play open to a challenge (who made it, its words), or None when the rules offer none."""

    @property
    @abstractmethod
    def end_reason(self) -> str | None:
        """Why the game ends (or may end now by the rules), or None."""


class WordTable(TableBase, ABC):
    """A word-board game at the table: the engine (the game's wrapper of its log, with `check`, `play`,
    `pass_turn`, `challenge`, `end_game`...) plus the board, the latest photo read, the Banker, the word list.

    The engine is the game's `WordEngine`; each game's table adds its own `end_game` (abstract here: the
    racks left are letters in one game, counts in the other) and its end chart (`history`).
    """

    # End of game: what the racks left are asked as (letters or a count), and the chart's title.
    rack_prompt = "Tiles left on each rack (leave empty for none):"
    history_title = "Scores over the turns"

    engine: WordEngine[Any]

    def __init__(self, kind: str, players: list[PlayerInfo], engine: WordEngine[Any], banker: str | None = None,
                 lexicon: str = "ENABLE", clock_minutes: int | None = None, penalty_per_minute: int = 10,
                 preset_label: str = "", game_id: str | None = None) -> None:
        super().__init__(kind, players, engine.log, clock_minutes=clock_minutes,
                         penalty_per_minute=penalty_per_minute, game_id=game_id)
        self.engine = engine
        self.banker = banker
        self.lexicon = lexicon
        self.preset_label = preset_label
        self.last_read: BoardRead | None = None
        self.last_verdict: Verdict | None = None
        self._reviews: tuple[int, list[TurnReview]] | None = None
        self._watch: Any = None  # the camera's watcher of this table (`watch()`), made on first use

    # ----- read-only views
    @property
    def tileset_name(self) -> str:
        """The tile set the game scores with (what the board reader is told, so it reads that alphabet)."""
        tiles = getattr(self.engine.state, "tileset", None)
        return str(tiles.name) if tiles is not None else "en"

    @property
    def current_player(self) -> str | None:
        return self.engine.current_player

    @property
    def board(self) -> Board:
        return self.engine.board

    @property
    def layout(self) -> Layout:
        return self.engine.layout

    def scores(self) -> dict[str, int]:
        return self.engine.scores()

    def chip_lines(self, player: str) -> list[str]:
        return [f"{self.scores().get(player, 0)} pts"]

    def property_squares(self) -> dict[tuple[int, int], str]:
        """Squares the board widget rings (Monopoly Scrabble's property squares); none by default."""
        return {}

    def turn_stage(self) -> str:
        """Where the current turn is: 'word' until a word (or pass) is recorded."""
        stage = getattr(self.engine, "turn_stage", None)
        return str(stage()) if callable(stage) else "word"

    def table_settings(self) -> dict[str, Any]:
        settings = {**super().table_settings(), "banker": self.banker, "lexicon": self.lexicon,
                    "preset_label": self.preset_label}
        if self._watch is not None and self._watch.settle_seconds is not None:
            # The referee's settle seconds (watch mode): a table setting, changed during the game, kept with
            # the game's stored settings (not an event: it changes no score and no undo takes it back).
            settings["watch_settle"] = self._watch.settle_seconds
        return settings

    def restore_table_settings(self, table: dict[str, Any]) -> None:
        settle = table.get("watch_settle")
        if settle is None:
            return
        problem = self.watch().set_settle(str(settle))  # checked as if typed: a damaged value is not used
        if problem:
            LOG.warning("game %s: the stored settle seconds %r are not used: %s", self.id, settle, problem)

    # ----- end of game (the shared end screen asks these)
    def rack_field(self, player: str) -> tuple[str, str]:
        """The label of a player's racks-left field and what it holds to begin with."""
        return f"{player} rack", ""

    def rack_note(self) -> str:
        return ""

    def final_columns(self) -> list[tuple[str, dict[str, str]]]:
        """The final table's columns after the player's name, each (header, text per player)."""
        return [("Score", {p: str(s) for p, s in self.scores().items()})]

    def ranking(self) -> list[str]:
        scores = self.scores()
        return sorted(self.players, key=lambda p: -scores[p])

    def end_notes(self) -> list[str]:
        return []

    # ----- actions (each raises TableError with a sentence)
    def _do(self, fn: Any, *args: Any) -> None:
        with self.lock:
            super()._do(fn, *args)
            self.last_read = None

    def check(self, position: str, word: str, bought: str = "") -> PlayCheck:
        """`bought` (Monopoly Scrabble: Bank rack letters in the word) goes to engines that take it."""
        position, word = position.strip(), word.strip()
        if not position or not word:
            return PlayCheck(False, position, word, error="Enter the word and its start square (like H8), then choose Across or Down.")
        return self._engine_check(position, word, bought)

    def _engine_check(self, position: str, word: str, bought: str) -> PlayCheck:
        return self.engine.check(position, word)

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
        check = self.check(position, word, bought)
        if not check.ok:
            raise TableError(check.error)
        self._engine_play(position, word, bought)

    def _engine_play(self, position: str, word: str, bought: str) -> None:
        self._do(self.engine.play, position, word)

    def pass_turn(self) -> None:
        self._do(self.engine.pass_turn)

    def last_play_words(self) -> tuple[str, list[str]] | None:
        return self.engine.last_play_words()

    def challenge(self, challenger: str) -> Verdict:
        last = self.last_play_words()
        if last is None:
            raise TableError("There is no play to challenge: a challenge must come before the next turn.")
        player, words = last
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

    @abstractmethod
    def end_game(self, racks: dict[str, str], agreed: bool = False) -> None:
        """End the game with what is left on each rack (as typed at the end screen), by agreement or not."""

    @property
    def finished(self) -> bool:
        return bool(self.engine.finished)

    @property
    def end_reason(self) -> str | None:
        return self.engine.end_reason

    def winner(self) -> list[str]:
        return self.engine.winner()

    def set_read(self, read: BoardRead | None) -> None:
        self.last_read = read
        self._changed()

    # ----- watched by a camera (issue #22): the table's watcher, shared by every tab showing the table
    def watch(self) -> Any:
        """The table's `companion.ui.watching.TableWatch` (made on first use; off until the referee
        switches Watch on)."""
        if self._watch is None:
            self._watch = TableWatch(self)
        return self._watch

    def watching(self) -> bool:
        return self._watch is not None and bool(self._watch.on)

    # ----- "can anyone still play?" and the best-play review: the move generator, changing nothing
    def rack_check(self, rack: str, best: bool = False) -> RackAnswer:
        """Can `rack` make a play on the board as it is now (with `best`: which play scores most)?
        Any tab may ask, a follower's too. A rack the game cannot have: TableError with a sentence."""
        with self.lock:
            board = self.board.copy()
            tileset = getattr(self.engine.state, "tileset", None) or load_tileset(self.tileset_name)
        try:
            return check_rack(board, rack, JUDGE.word_list(self.lexicon), self.layout, tileset, best)
        except RackRefused as exc:
            raise TableError(str(exc)) from None

    def play_reviews(self) -> list[TurnReview]:
        """The best play of each turn entered with the player's rack, for the end-of-game review
        (slow for a whole game: call it off the UI thread; kept until the log changes)."""
        with self.lock:
            events = list(self.log.events)
        cached = self._reviews
        if cached is not None and cached[0] == len(events):
            return cached[1]
        reviews = review_plays(events, GAMES.get(self.kind).rules.new_state, JUDGE.word_list(self.lexicon))
        self._reviews = (len(events), reviews)
        return reviews

    def has_racks(self) -> bool:
        """Was any play entered with the player's rack (so the review has something to show)?"""
        return any(getattr(e, "rack", None) for e in effective_events(self.log.events))


__all__ = [
    "Direction",
    "PlayCheck",
    "WordTable",
    "board_diff",
    "tiles_to_notation",
]
