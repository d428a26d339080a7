"""Classic Scrabble's record format: a game's event log as a GCG record (`record_from_classic`) and a GCG
record as the game's event log (`classic_events_from_record`). The GCG notation itself (parse, write,
verify) is `companion.gcg`."""

from __future__ import annotations

from collections.abc import Sequence

from companion.events import Event, GameLog, effective_events
from companion.games.classic.rules import Challenge, EndGame, Exchange, Pass, Play, Settings, Start, new_state
from companion.gcg import EventKind, GcgError, GcgEvent, GcgPlayer, GcgRecord
from companion.rules.errors import IllegalAction, IllegalPlacement
from companion.rules.tiles import load_tileset

# --- a classic game's log as a record ----------------------------------------------------------


def _nick(name: str) -> str:
    return "_".join(name.split()) or "player"


def record_from_classic(events: Sequence[Event]) -> GcgRecord:
    """The GCG record of a classic game kept by the referee (its event log, undos applied).

    Each play is written with the rack it came from when the table told the referee, else with the
    tiles it used; a phony taken back is the play line followed by `--`, a lost turn under double
    challenge a pass, the end of the game the leftover lines the chosen rules give.
    """
    state = new_state()
    record = GcgRecord(encoding="utf-8")
    nicks: dict[str, str] = {}

    def line(player: str, kind: EventKind, **fields: object) -> None:
        record.events.append(GcgEvent(kind, nicks[player], total=state.scores[player], **fields))  # type: ignore[arg-type]

    for event in effective_events(events):
        turns_before = len(state.turns)
        last = state.last_play
        last_score = last.score if last is not None else 0
        state.apply(event)
        new_turns = state.turns[turns_before:]
        if isinstance(event, Start):
            for number, name in enumerate(event.settings.players, 1):
                nicks[name] = _nick(name)
                record.players.append(GcgPlayer(number, nicks[name], name))
            record.pragmas["lexicon"] = event.settings.lexicon
            record.pragmas["game-type"] = event.settings.variant
            continue
        if isinstance(event, Play):
            turn = next(t for t in new_turns if t.kind == "play")
            position, word = turn.notation.split()
            tiles = [ch for ch in word if ch != "."]
            rack = event.rack.upper() if event.rack else "".join("?" if ch.islower() else ch for ch in tiles)
            line(event.player, EventKind.PLAY, rack=rack, position=position, word=word, amount=turn.score)
        elif isinstance(event, Pass):
            line(event.player, EventKind.PASS)
        elif isinstance(event, Exchange):
            line(event.player, EventKind.EXCHANGE, tiles=(event.tiles or "").upper(),
                 count=event.count)
        elif isinstance(event, Challenge):
            assert last is not None
            if not event.acceptable:
                line(last.player, EventKind.WITHDRAWN, amount=-last_score)
        elif isinstance(event, EndGame):
            # The fold adds leftovers and overtime in one adjustment; GCG gives each its own line.
            rules = state.rules
            assert rules is not None
            allowed = (rules.clock_minutes or 0) * 60
            time_lines = []
            for turn in new_turns:
                used = event.time_used.get(turn.player)
                overtime = 0
                if rules.clock_minutes is not None and used is not None:
                    overtime = -rules.overtime_penalty_per_minute * -(-max(0, used - allowed) // 60)
                tiles_part = turn.score - overtime
                leftover = event.racks.get(turn.player, "").upper().replace(" ", "")
                total = turn.total - overtime
                if tiles_part > 0:
                    record.events.append(GcgEvent(EventKind.END_POINTS, nicks[turn.player], amount=tiles_part,
                                                  tiles=_leftover_of_others(event.racks, turn.player), total=total))
                elif tiles_part < 0:
                    record.events.append(GcgEvent(EventKind.RACK_PENALTY, nicks[turn.player], rack=leftover,
                                                  tiles=leftover, amount=tiles_part, total=total))
                if overtime:
                    time_lines.append(GcgEvent(EventKind.TIME_PENALTY, nicks[turn.player], rack=leftover,
                                               amount=overtime, total=turn.total))
            record.events.extend(time_lines)
            continue
        for turn in new_turns:
            if turn.kind == "lost turn":
                line(turn.player, EventKind.PASS)
            elif turn.kind == "challenge bonus":
                line(turn.player, EventKind.CHALLENGE_BONUS, amount=turn.score)
    return record


def _leftover_of_others(racks: dict[str, str], player: str) -> str:
    return "".join(r.upper().replace(" ", "") for p, r in racks.items() if p != player)


def classic_events_from_record(record: GcgRecord, tileset: str = "en") -> list[Event]:
    """The referee's event log for a recorded two-player game, so a record can be loaded and resumed.

    Rules are read off the record: a challenge bonus line means the 5-point challenge, else double
    challenge; leftovers added once for the player who went out mean the box rule, else twice
    (tournament). A line the referee refuses raises `GcgError` with its line number.
    """
    names = [p.nick for p in record.players]
    if len(set(names)) != len(names):
        raise GcgError(0, "two players share a nickname: the record cannot be loaded as a game")
    by_bonus = any(e.kind is EventKind.CHALLENGE_BONUS for e in record.events)
    tiles = load_tileset(tileset)
    # Box rule: the player who went out adds the leftovers once (and the others lose them).
    box = any(e.kind is EventKind.END_POINTS and e.amount and e.amount == tiles.rack_value(e.tiles)
              for e in record.events)
    preset = {(True, True): "club", (True, False): "wespa", (False, True): "box", (False, False): "naspa"}
    settings = Settings(players=names, preset=preset[by_bonus, box], lexicon=record.lexicon or "ENABLE",
                        tileset=tileset)
    log = GameLog(new_state)
    out: list[Event] = [Start(settings=settings)]
    racks: dict[str, str] = {}
    time_used: dict[str, int] = {}
    clock = 25 * 60
    last_player = ""
    for ev in record.events:
        other = next((n for n in names if n != ev.nick), ev.nick)
        if ev.kind is EventKind.PLAY:
            out.append(Play(player=ev.nick, position=ev.position, word=ev.word, rack=ev.rack or None))
            last_player = ev.nick
        elif ev.kind is EventKind.PASS:
            if log.state.end_reason == "played_out" and ev.nick != log.state.went_out:
                # After the last play, a pass is how GCG writes a challenge of it that failed.
                out.append(Challenge(challenger=ev.nick, acceptable=True))
            else:
                out.append(Pass(player=ev.nick))
        elif ev.kind is EventKind.EXCHANGE:
            out.append(Exchange(player=ev.nick, count=ev.count or len(ev.tiles), tiles=ev.tiles or None))
        elif ev.kind is EventKind.WITHDRAWN:
            out.append(Challenge(challenger=other, acceptable=False))
        elif ev.kind is EventKind.CHALLENGE_BONUS:
            out.append(Challenge(challenger=other if ev.nick == last_player else ev.nick, acceptable=True,
                                 words=["?"] * max(1, ev.amount // 5)))
        elif ev.kind is EventKind.END_POINTS:
            racks[other] = ev.tiles
        elif ev.kind is EventKind.RACK_PENALTY:
            racks[ev.nick] = ev.tiles
        elif ev.kind is EventKind.TIME_PENALTY:
            # -10 a started minute: the smallest overtime that costs what the line says.
            minutes = -ev.amount // 10
            time_used[ev.nick] = clock + max(0, minutes - 1) * 60 + 1 if minutes else clock
        # Keep the log in step so later lines are read against the game as it stands.
        while len(log.events) < len(out):
            try:
                log.push(out[len(log.events)])
            except (IllegalAction, IllegalPlacement) as exc:
                raise GcgError(ev.line, f"{ev.nick}: {exc}") from None
    if racks or time_used:
        end = EndGame(racks=racks, time_used=time_used)
        try:
            log.push(end)
        except (IllegalAction, IllegalPlacement) as exc:
            raise GcgError(record.events[-1].line, str(exc)) from None
        out.append(end)
    return out
