"""Replaying a GCG record on a real board and checking it against the rules.

`replay` plays every event of a `GcgRecord` with the rules core (placement, scoring, tile sets) and
reports, line by line: placement scores and running totals that differ from the recorded ones
(mismatches), challenged-off phonies (withdrawn: reported, not counted), and anything that makes the
record impossible (an error: a rack the bag cannot hold, a move out of turn or after the game ended, a
placement the rules forbid...). Replay stops at the first error, because what follows an impossible
event means nothing. Cosmetic faults (pragma order, a repeated title) are warnings.

This is how the scorer is proven: thousands of recorded games, every score recomputed, none tuned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from companion.gcg import EventKind, GcgError, GcgEvent, GcgRecord, decode, parse_gcg
from companion.rules.board import Board, Layout, PlacedTile, load_layout
from companion.rules.errors import IllegalPlacement, RulesDataError
from companion.rules.notation import parse_play
from companion.rules.placement import rack_letters_used, validate_placement
from companion.rules.scoring import score_play
from companion.rules.tiles import BLANK, TileSet, load_tileset

# Two-player games end after six successive scoreless turns (three each).
SCORELESS_TURNS_PER_PLAYER = 3


class FindingKind(Enum):
    MISMATCH = "mismatch"
    WITHDRAWN = "withdrawn"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True)
class Finding:
    line: int
    kind: FindingKind
    message: str
    recorded: int | None = None
    computed: int | None = None

    def render(self, name: str) -> str:
        where = f"{name}:{self.line}" if self.line else name
        if self.kind is FindingKind.MISMATCH:
            return f"{where}: recorded {self.recorded}, computed {self.computed} ({self.message})"
        if self.kind is FindingKind.WITHDRAWN:
            return f"{where}: withdrawn phony {self.message}"
        if self.kind is FindingKind.WARNING:
            return f"{where}: warning: {self.message}"
        return f"{where}: {self.message}"


@dataclass
class ReplayReport:
    placements: int = 0
    findings: list[Finding] = field(default_factory=list)
    board: Board = field(default_factory=Board)
    totals: dict[int, int] = field(default_factory=dict)
    game_over: bool = False

    @property
    def mismatches(self) -> list[Finding]:
        return [f for f in self.findings if f.kind is FindingKind.MISMATCH]

    @property
    def error(self) -> Finding | None:
        return next((f for f in self.findings if f.kind is FindingKind.ERROR), None)


class _Stop(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class _PlayMemo:
    player: int
    event: GcgEvent
    tiles: list[PlacedTile]
    computed: int
    drawn: int
    scoreless_before: int
    total_before: int
    game_over_before: bool


class _Replay:
    def __init__(self, record: GcgRecord, tileset: TileSet, layout: Layout) -> None:
        self.record = record
        self.tileset = tileset
        self.layout = layout
        self.report = ReplayReport(board=Board(layout.size))
        self.board = self.report.board
        self.players = [p.number for p in record.players]
        self.totals = {n: 0 for n in self.players}
        self.report.totals = self.totals
        self.turn = 0  # index into self.players of who moves next
        self.counts_known = tileset.counts is not None
        self._unseen: Counter[str] = tileset.bag() if self.counts_known else Counter()
        self.bag = (tileset.total_tiles or 0) - tileset.rack_size * len(self.players)
        self.rack_counts = {n: tileset.rack_size for n in self.players}
        self.scoreless = 0
        self.game_over = False
        self.last_turn: _PlayMemo | None = None  # the most recent turn, when it was a placement
        self.last_turn_kind: EventKind | None = None
        self.last_turn_player: int | None = None
        self.time_penalised: set[int] = set()
        self.went_out: int | None = None
        self.slips: dict[int, int] = {}
        self.lost_challenge_seen = False
        self.unique_nicks = len({p.nick for p in record.players}) == len(record.players)

    # --- helpers ---------------------------------------------------------------------------------
    def find(self, line: int, kind: FindingKind, message: str, recorded: int | None = None,
             computed: int | None = None) -> None:
        self.report.findings.append(Finding(line, kind, message, recorded, computed))

    def player_of(self, ev: GcgEvent, turn_event: bool) -> int:
        matches = [p.number for p in self.record.players if p.nick == ev.nick]
        if self.unique_nicks:
            return matches[0]
        # Players share a nickname: turns go in order; other lines go to the player whose total fits.
        if turn_event:
            return self.players[self.turn]
        if ev.kind in (EventKind.WITHDRAWN, EventKind.CHALLENGE_BONUS) and self.last_turn_player is not None:
            return self.last_turn_player
        for n in matches:
            if self.totals[n] + ev.amount == ev.total:
                return n
        return matches[0]

    def nick(self, player: int) -> str:
        return next(p.nick for p in self.record.players if p.number == player)

    def check_total(self, ev: GcgEvent, player: int, expected: int, what: str) -> None:
        # After a wrong total, later lines either go on from the true total (a one-off slip) or carry
        # the slip along; both are accepted so one slip is reported once, not on every later line.
        carried = expected + self.slips.get(player, 0)
        if ev.total == expected:
            self.slips.pop(player, None)
        elif player in self.slips and ev.total == carried:
            pass
        else:
            self.find(ev.line, FindingKind.MISMATCH, f"running total of {ev.nick} after {what}", ev.total, expected)
            self.slips[player] = ev.total - expected
        self.totals[player] = expected

    def unseen(self) -> Counter[str]:
        """Tiles not on the board (in the bag or on racks), kept up to date by `place` and `take_back`."""
        return self._unseen

    def place(self, tiles: list[PlacedTile]) -> None:
        self.board.push(tiles)
        if self.counts_known:
            self._unseen.subtract(rack_letters_used(tiles))

    def take_back(self, tiles: list[PlacedTile]) -> None:
        self.board.pop(tiles)
        if self.counts_known:
            self._unseen.update(rack_letters_used(tiles))

    def check_rack(self, line: int, rack: str, whose: str) -> None:
        if not rack:
            return
        if len(rack) > self.tileset.rack_size:
            raise _Stop(line, f"{whose} rack {rack} has {len(rack)} tiles; a rack holds {self.tileset.rack_size}")
        for ch in rack:
            if ch != BLANK and not self.tileset.has_letter(ch):
                raise _Stop(line, f"{whose} rack {rack} holds {ch}, which the {self.tileset.name} tile set does not have")
        if not self.counts_known:
            return
        over = Counter(rack) - self._unseen
        if over:
            what = ", ".join(("a blank" if k == BLANK else k) + (f" x{v}" if v > 1 else "") for k, v in over.items())
            raise _Stop(line, f"{whose} rack {rack} cannot come from the bag: too many {what} "
                              "for the tiles not yet on the board")

    def expect_turn(self, ev: GcgEvent, player: int) -> None:
        if self.game_over:
            # Under double challenge the last play can still be challenged; a failed challenge is
            # written as a pass by the challenger after the player went out.
            if ev.kind is EventKind.PASS and self.went_out is not None and not self.lost_challenge_seen:
                self.lost_challenge_seen = True
                return
            raise _Stop(ev.line, f"{ev.nick} moves after the game has ended")
        expected = self.players[self.turn]
        if player != expected:
            raise _Stop(ev.line, f"{ev.nick} moves out of turn: it is {self.nick(expected)}'s turn")

    def advance(self, player: int, kind: EventKind) -> None:
        self.turn = (self.players.index(player) + 1) % len(self.players)
        self.last_turn_kind = kind
        self.last_turn_player = player
        if len(self.players) == 2 and self.scoreless >= SCORELESS_TURNS_PER_PLAYER * 2:
            self.game_over = True

    # --- events ----------------------------------------------------------------------------------
    def run(self) -> ReplayReport:
        for line, message in self.record.warnings:
            self.find(line, FindingKind.WARNING, message)
        try:
            for number, rack in self.record.last_racks.items():
                if number not in self.players:
                    raise _Stop(0, f"#rack{number} names a player who is not in the game")
            withdrawn_plays = self._withdrawn_plays()
            for i, ev in enumerate(self.record.events):
                self.event(ev, i in withdrawn_plays)
            for number, rack in self.record.last_racks.items():
                self.check_rack(0, rack, f"the last #rack{number}")
        except _Stop as stop:
            self.find(stop.line, FindingKind.ERROR, stop.message)
        self.report.game_over = self.game_over
        return self.report

    def _withdrawn_plays(self) -> set[int]:
        """Indexes of placements that the next line withdraws (to report their scores as such)."""
        out = set()
        events = self.record.events
        for i, ev in enumerate(events):
            if ev.kind is EventKind.WITHDRAWN and i > 0 and events[i - 1].kind is EventKind.PLAY:
                out.add(i - 1)
        return out

    def event(self, ev: GcgEvent, withdrawn_later: bool) -> None:
        kind = ev.kind
        turn_event = kind in (EventKind.PLAY, EventKind.PASS, EventKind.EXCHANGE)
        player = self.player_of(ev, turn_event)
        if turn_event:
            self.expect_turn(ev, player)
            self.check_rack(ev.line, ev.rack, f"{ev.nick}'s")
        if kind is EventKind.PLAY:
            self.play(ev, player, withdrawn_later)
        elif kind is EventKind.PASS or kind is EventKind.EXCHANGE:
            self.scoreless_turn(ev, player)
        elif kind is EventKind.WITHDRAWN:
            self.withdraw(ev, player)
        elif kind is EventKind.CHALLENGE_BONUS:
            self.challenge_bonus(ev, player)
        elif kind is EventKind.END_POINTS:
            self.end_points(ev, player)
        elif kind is EventKind.RACK_PENALTY:
            self.rack_penalty(ev, player)
        else:
            self.time_penalty(ev, player)

    def play(self, ev: GcgEvent, player: int, withdrawn_later: bool) -> None:
        try:
            tiles = parse_play(ev.position, ev.word, self.board)
            validate_placement(self.board, tiles, self.layout, self.tileset)
        except (IllegalPlacement, ValueError) as exc:
            raise _Stop(ev.line, f"{ev.nick}'s {ev.position} {ev.word}: {exc}") from None
        if ev.rack:
            # A rack typo is common in hand-kept records and does not change the board: warn, go on.
            missing = rack_letters_used(tiles) - Counter(ev.rack)
            if missing:
                self.find(ev.line, FindingKind.WARNING, f"{ev.position} {ev.word} uses "
                          f"{''.join(sorted(missing.elements()))}, which the recorded rack {ev.rack} does not hold")
        if self.counts_known:
            over = rack_letters_used(tiles) - self.unseen()
            if over:
                raise _Stop(ev.line, f"{ev.position} {ev.word} puts more {''.join(sorted(over))} tiles on the board "
                                     f"than the {self.tileset.name} set has")
        scored = score_play(self.board, tiles, self.layout, self.tileset)
        self.report.placements += 1
        notation = f"{ev.position} {ev.word}"
        if scored.total != ev.amount:
            if withdrawn_later:
                self.find(ev.line, FindingKind.WITHDRAWN,
                          f"{notation}: recorded {ev.amount}, computed {scored.total} (not counted as a mismatch)")
            else:
                self.find(ev.line, FindingKind.MISMATCH, f"score of {notation}", ev.amount, scored.total)
        total_before = self.totals[player]
        self.check_total(ev, player, total_before + ev.amount, notation)
        self.place(tiles)
        drawn = 0
        if self.counts_known:
            self.rack_counts[player] -= len(tiles)
            if self.rack_counts[player] < 0:
                raise _Stop(ev.line, f"{ev.nick} has played more tiles than a rack holds")
            drawn = min(len(tiles), max(self.bag, 0))
            self.bag -= drawn
            self.rack_counts[player] += drawn
        memo = _PlayMemo(player, ev, tiles, scored.total, drawn, self.scoreless, total_before, self.game_over)
        self.scoreless = 0
        if self.counts_known and self.rack_counts[player] == 0:
            self.game_over = True
            self.went_out = player
        self.advance(player, EventKind.PLAY)
        self.last_turn = memo

    def scoreless_turn(self, ev: GcgEvent, player: int) -> None:
        if ev.amount != 0:
            self.find(ev.line, FindingKind.MISMATCH, f"score of a {ev.kind.value}", ev.amount, 0)
        if ev.kind is EventKind.EXCHANGE:
            if ev.tiles and ev.rack:
                missing = Counter(ev.tiles) - Counter(ev.rack)
                if missing:
                    self.find(ev.line, FindingKind.WARNING, f"{ev.nick} exchanges {ev.tiles}, but the recorded "
                              f"rack {ev.rack} does not hold {''.join(sorted(missing.elements()))}")
            if self.counts_known and self.bag < self.tileset.rack_size:
                self.find(ev.line, FindingKind.WARNING,
                          f"{ev.nick} exchanges with {self.bag} tiles in the bag (fewer than {self.tileset.rack_size})")
        self.check_total(ev, player, self.totals[player], f"a {ev.kind.value}")
        self.scoreless += 1
        self.last_turn = None
        self.advance(player, ev.kind)

    def withdraw(self, ev: GcgEvent, player: int) -> None:
        memo = self.last_turn
        if memo is None or self.last_turn_kind is not EventKind.PLAY or memo.player != player:
            raise _Stop(ev.line, f"{ev.nick} withdraws a phony, but {ev.nick} did not make the last play")
        if ev.rack and memo.event.rack and ev.rack != memo.event.rack:
            raise _Stop(ev.line, f"the withdrawn play was made from the rack {memo.event.rack}, not {ev.rack}")
        self.take_back(memo.tiles)
        if self.counts_known:
            self.bag += memo.drawn
            self.rack_counts[player] += len(memo.tiles) - memo.drawn
        self.game_over = memo.game_over_before
        self.went_out = None if not self.game_over else self.went_out
        self.scoreless = memo.scoreless_before + 1
        notation = f"{memo.event.position} {memo.event.word}"
        note = f"{notation} by {ev.nick} ({memo.event.amount} points taken back)"
        if ev.amount not in (-memo.event.amount, 0):
            note += f"; the line says {ev.amount:+d}"
        self.find(ev.line, FindingKind.WITHDRAWN, note)
        self.check_total(ev, player, memo.total_before, f"withdrawing {notation}")
        self.last_turn = None
        self.last_turn_kind = EventKind.WITHDRAWN
        if len(self.players) == 2 and self.scoreless >= SCORELESS_TURNS_PER_PLAYER * 2:
            self.game_over = True

    def challenge_bonus(self, ev: GcgEvent, player: int) -> None:
        memo = self.last_turn
        if memo is None or self.last_turn_kind is not EventKind.PLAY:
            raise _Stop(ev.line, f"a challenge bonus for {ev.nick} does not follow a play")
        if memo.player != player:
            raise _Stop(ev.line, f"the challenge bonus goes to {ev.nick}, but the challenged play was "
                                 f"{self.nick(memo.player)}'s")
        if ev.amount < 0:
            self.find(ev.line, FindingKind.WARNING, f"a challenge bonus of {ev.amount}")
        self.check_total(ev, player, self.totals[player] + ev.amount, "a challenge bonus")

    def _require_game_over(self, ev: GcgEvent, what: str) -> None:
        if self.counts_known and not self.game_over and not self.record.incomplete:
            raise _Stop(ev.line, f"{what} for {ev.nick} comes before the game has ended")
        if self.time_penalised:
            raise _Stop(ev.line, f"{what} comes after a time penalty: leftover tiles are counted first")

    def end_points(self, ev: GcgEvent, player: int) -> None:
        self._require_game_over(ev, "the end-of-game bonus")
        self.check_rack(ev.line, ev.tiles, "the leftover")
        # Tournament rule: twice the leftover; the box rule (older records) adds it once.
        expected = 2 * self.tileset.rack_value(ev.tiles)
        if ev.amount not in (expected, expected // 2):
            self.find(ev.line, FindingKind.MISMATCH, f"twice the leftover ({ev.tiles})", ev.amount, expected)
        self.check_total(ev, player, self.totals[player] + ev.amount, f"the leftover ({ev.tiles})")
        self.game_over = True

    def rack_penalty(self, ev: GcgEvent, player: int) -> None:
        self._require_game_over(ev, "the leftover-tile penalty")
        self.check_rack(ev.line, ev.tiles, f"{ev.nick}'s leftover")
        expected = -self.tileset.rack_value(ev.tiles)
        if ev.amount != expected:
            self.find(ev.line, FindingKind.MISMATCH, f"penalty for the leftover {ev.tiles}", ev.amount, expected)
        self.check_total(ev, player, self.totals[player] + ev.amount, f"the leftover ({ev.tiles})")
        self.game_over = True

    def time_penalty(self, ev: GcgEvent, player: int) -> None:
        if self.counts_known and not self.game_over and not self.record.incomplete:
            raise _Stop(ev.line, f"a time penalty for {ev.nick} comes before the game has ended")
        if player in self.time_penalised:
            raise _Stop(ev.line, f"{ev.nick} has a second time penalty")
        self.time_penalised.add(player)
        if ev.amount > 0:
            self.find(ev.line, FindingKind.WARNING, f"a time penalty of {ev.amount:+d} adds points")
        self.check_total(ev, player, self.totals[player] + ev.amount, "a time penalty")


def replay(record: GcgRecord, tileset: TileSet | None = None, layout: Layout | None = None) -> ReplayReport:
    """Replay `record` with the rules core; see the module docstring for what is reported."""
    return _Replay(record, tileset or load_tileset("en"), layout or load_layout("standard")).run()


def verify_file(path: str | Path, tileset: TileSet, layout: Layout) -> ReplayReport:
    """Read and replay one file. When a line cannot be read, the lines before it are still replayed
    and checked, and the report ends with the reason the rest could not be read."""
    try:
        text, _ = decode(Path(path).read_bytes())
    except OSError as exc:
        return _failed(0, f"cannot read the file: {exc.strerror}")
    except GcgError as exc:
        return _failed(exc.line, exc.reason)
    try:
        record = parse_gcg(text)
    except GcgError as exc:
        if exc.line <= 1:
            return _failed(exc.line, exc.reason)
        try:
            record = parse_gcg("\n".join(text.splitlines()[: exc.line - 1]))
        except GcgError:
            return _failed(exc.line, exc.reason)
        report = _replay_or_fail(record, tileset, layout)
        if report.error is None:
            report.findings.append(Finding(exc.line, FindingKind.ERROR, exc.reason))
        return report
    return _replay_or_fail(record, tileset, layout)


def _replay_or_fail(record: GcgRecord, tileset: TileSet, layout: Layout) -> ReplayReport:
    if not record.players:
        return _failed(0, "the record names no players (#player1, #player2)")
    try:
        report = replay(record, tileset, layout)
    except RulesDataError as exc:
        return _failed(0, str(exc))
    if report.placements == 0 and report.error is None:
        report.findings.append(Finding(0, FindingKind.WARNING, "the record holds no placement: nothing to verify"))
    return report


def _failed(line: int, reason: str) -> ReplayReport:
    report = ReplayReport()
    report.findings.append(Finding(line, FindingKind.ERROR, reason))
    return report
