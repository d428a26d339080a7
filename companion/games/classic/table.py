"""Classic Scrabble at the table: the engine wrapper the shared word-board table drives, the end of game,
the GCG export, and how a game starts from the setup form or comes back from the store. No rules here:
every decision is `companion.games.classic.rules`'."""

from __future__ import annotations

import copy
from typing import Any

from companion.events import GameLog
from companion.games.classic.gcg import record_from_classic
from companion.games.classic.legal import LegalMoves, legal_moves
from companion.games.classic.rules import (
    VARIANT,
    Challenge,
    ClassicState,
    EndGame,
    Exchange,
    Play,
    Settings,
    Start,
    finish_line_target,
    new_state,
    presets,
)
from companion.gcg import write_gcg
from companion.rules.errors import RulesError
from companion.rules.notation import parse_play
from companion.rules.scoring import score_play
from companion.ui.table import ChartPoint, PlayerInfo, TableError, _message, _plain_validation, stored_seats
from companion.ui.word_table import PlayCheck, WordEngine, WordTable


class ClassicEngine(WordEngine[ClassicState]):
    """Classic Scrabble's log with the calls the word table makes (every ruling is the rules')."""

    variant = VARIANT
    challenge_event = Challenge

    @classmethod
    def start(cls, settings: Settings) -> ClassicEngine:
        """A new game's engine: its log started with `settings` (the rules refuse bad ones: RulesError)."""
        log: GameLog[ClassicState] = GameLog(new_state)
        log.push(Start(settings=settings))
        return cls(log)

    def scores(self) -> dict[str, int]:
        return dict(self.state.scores)

    def legal(self) -> LegalMoves:
        """What the rules allow now (`companion.games.classic.legal`): every button comes from here."""
        return legal_moves(self.state)

    def check(self, position: str, word: str) -> PlayCheck:
        """The play as the rules would take it, tried on a copy of the state (nothing changes)."""
        st = self.state
        offer = self.legal().play
        if offer is None:
            return PlayCheck(False, position, word, error="The game is over: no more plays.")
        assert st.layout is not None and st.tileset is not None
        try:
            copy.deepcopy(st).apply(Play(player=offer.player, position=position, word=word))
            tiles = parse_play(position, word, st.board)
            scored = score_play(st.board, tiles, st.layout, st.tileset)
        except (RulesError, ValueError) as exc:
            return PlayCheck(False, position, word, error=_message(exc))
        return PlayCheck(True, position.upper(), word, [(w.text, w.score) for w in scored.words], scored.total,
                         scored.bingo_bonus, new_squares=[(t.square.row, t.square.col) for t in tiles])

    def play(self, position: str, word: str, rack: str | None = None) -> None:
        self.log.push(Play(player=self.to_act("The game is over: no more plays."), position=position, word=word,
                           rack=rack))

    def exchange(self, count: int) -> None:
        self.log.push(Exchange(player=self.to_act(), count=count))

    def last_play_words(self) -> tuple[str, list[str]] | None:
        """The play open to a challenge (who made it, its words), or None when the rules offer none."""
        window = self.legal().window
        return (window.player, list(window.words)) if window is not None else None

    def end_game(self, racks: dict[str, str], time_used: dict[str, int], agreed: bool = False) -> None:
        self.log.push(EndGame(racks=racks, time_used=time_used, agreed=agreed))

    @property
    def end_reason(self) -> str | None:
        return self.state.end_reason



class ClassicTable(WordTable):
    """Classic Scrabble at the table: racks left are letters, exchanges, the GCG record."""

    engine: ClassicEngine

    # ----- what the buttons offer: the rules' legal moves, asked, never decided here
    def challengers(self) -> list[str]:
        return self.engine.legal().challengers()

    def challenge_closes(self) -> str:
        """Until when the latest play may be challenged, in words ("until Bob acts"), or "" when it may not."""
        window = self.engine.legal().window
        return window.closes if window is not None else ""

    def exchange_counts(self) -> list[int]:
        return self.engine.legal().exchange_counts()

    def can_end_by_agreement(self) -> bool:
        return self.engine.legal().can_end_by_agreement()

    def exchange(self, count: int) -> None:
        self._do(self.engine.exchange, count)

    def play_with_rack(self, position: str, word: str, rack: str) -> None:
        """A play with the player's rack before it (the rules check the tiles came from it; the end screen's
        review then gives the rack's best play)."""
        check = self.check(position, word)
        if not check.ok:
            raise TableError(check.error)
        typed = "".join(rack.split()).upper()
        if any(not (ch == "?" or ch.isalpha()) for ch in typed):
            raise TableError(f"The rack '{rack.strip()}' is not tiles: type its letters, and ? for a blank.")
        self._do(self.engine.play, position, word, typed or None)

    def end_game(self, racks: dict[str, str], agreed: bool = False) -> None:
        used = {p: int(self.clock_seconds(p)) for p in self.players} if self.clocks else {}
        if self.clocks is not None:
            self.clocks.switch(None)
        self._do(self.engine.end_game, {p: r for p, r in racks.items() if r.strip()}, used, agreed)

    def history(self) -> list[ChartPoint]:
        """Score of every player after each turn (the chart): the running totals the turns record, so a
        withdrawn play shows as the rules scored it in the end, not as it stood before the challenge."""
        running = {p: 0 for p in self.players}
        out = [dict(running)]
        for turn in self.engine.state.turns:
            running[turn.player] = turn.total
            out.append(dict(running))
        return out

    def end_notes(self) -> list[str]:
        ends = [t for t in self.engine.state.turns if t.kind == "end of game"]
        if not ends:
            return []
        return ["End adjustments: " + ", ".join(f"{t.player} {t.score:+d} (rack {t.notation.strip('()') or 'empty'})"
                                                for t in ends)]

    def gcg(self) -> str:
        """The GCG record of the game (the project's GCG writer; the UI adds nothing)."""
        return write_gcg(record_from_classic(self.log.events))


def new_classic(players: list[PlayerInfo], preset: str = "box", variant: str = "standard",
                finish_level: str = "intermediate", lexicon: str = "ENABLE", tileset: str = "en") -> ClassicTable:
    names = [p.name.strip() for p in players]
    table = presets()
    if preset not in table:
        raise TableError(f"Unknown rules '{preset}'.")
    target = finish_line_target(finish_level, len(names)) if variant == "finish_line" else None
    try:
        settings = Settings(players=names, preset=preset, variant=variant,
                            finish_target=target, lexicon=lexicon, tileset=tileset)
        engine = ClassicEngine.start(settings)
    except (RulesError, ValueError) as exc:
        raise TableError(_plain_validation(exc)) from None
    rules = table[preset]
    game = ClassicTable(ClassicEngine.variant, [PlayerInfo(n, p.colour) for n, p in zip(names, players)], engine,
                        lexicon=lexicon, clock_minutes=rules.clock_minutes,
                        penalty_per_minute=rules.overtime_penalty_per_minute, preset_label=rules.label)
    return game  # its clocks wait for Start clocks


def rebuild(game_id: str, table: dict[str, Any], events: list[Any]) -> ClassicTable:
    """The table from stored events and the details saved beside them (`table_settings()`)."""
    engine = ClassicEngine(GameLog(new_state, events))
    return ClassicTable(ClassicEngine.variant, stored_seats(table, engine.players), engine,
                        banker=table.get("banker"), lexicon=table.get("lexicon", "ENABLE"),
                        clock_minutes=table.get("clock_minutes"),
                        penalty_per_minute=table.get("penalty_per_minute", 10),
                        preset_label=table.get("preset_label", ""), game_id=game_id)  # clocks paused
