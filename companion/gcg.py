"""GCG game records in and out.

GCG is the plain-text record format of Quackle, Macondo/Woogles and cross-tables: `#pragma` lines
(players, title, lexicon, notes, last racks...) and one `>nick: ...` line per event. This module reads
a record into `GcgRecord` (every pragma and every event line kind) and writes it back; reading what it
wrote gives an equal record. It does not judge whether the game is possible: `companion.gcg_replay`
replays a record on a real board and checks every score.

A record that cannot be read raises `GcgError` with the line number and the reason.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

DEFAULT_ENCODING = "iso-8859-1"
ENCODING_PRAGMA = "character-encoding"

# Pragmas with a meaning the reader knows; any other `#name value` line is kept as it stands.
KNOWN_PRAGMAS = ("title", "description", "id", "lexicon", "incomplete", "game-type", "tile-set",
                 "tile-distribution", "board-layout")


class GcgError(ValueError):
    """A record that cannot be read: where (line, 1-based) and why."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}" if line else reason)
        self.line = line
        self.reason = reason


class EventKind(Enum):
    PLAY = "play"                       # >nick: RACK 8D WORD +score total
    PASS = "pass"                       # >nick: RACK - +0 total
    EXCHANGE = "exchange"               # >nick: RACK -TILES +0 total  (or -N when only the count is known)
    WITHDRAWN = "withdrawn"             # >nick: RACK -- -score total  (a challenged-off phony)
    CHALLENGE_BONUS = "challenge_bonus"  # >nick: RACK (challenge) +N total
    TIME_PENALTY = "time_penalty"       # >nick: RACK (time) -N total
    END_POINTS = "end_points"           # >nick: (TILES) +N total   (twice the opponent's leftover tiles)
    RACK_PENALTY = "rack_penalty"       # >nick: RACK (RACK) -N total  (own leftover tiles)


@dataclass
class GcgEvent:
    """One event line. `amount` is the signed score change written on the line; `total` the running total."""

    kind: EventKind
    nick: str
    rack: str = ""
    position: str = ""
    word: str = ""
    tiles: str = ""          # exchanged tiles, or the leftover tiles of an end-of-game line
    count: int = 0           # exchanged tile count when only the count is written
    amount: int = 0
    total: int = 0
    notes: list[str] = field(default_factory=list)
    comment: str = ""        # text after the running total (old Quackle files list the cross words there)
    line: int = field(default=0, compare=False)

    def to_line(self) -> str:
        amount = f"{self.amount:+d}"
        rack = self.rack
        if self.kind is EventKind.PLAY:
            middle = f"{rack} {self.position} {self.word}"
        elif self.kind is EventKind.PASS:
            middle = f"{rack} -"
        elif self.kind is EventKind.EXCHANGE:
            middle = f"{rack} -{self.tiles or self.count}"
        elif self.kind is EventKind.WITHDRAWN:
            middle = f"{rack} --"
        elif self.kind is EventKind.CHALLENGE_BONUS:
            middle = f"{rack} (challenge)"
        elif self.kind is EventKind.TIME_PENALTY:
            middle = f"{rack} (time)"
        elif self.kind is EventKind.END_POINTS:
            middle = f"{rack} ({self.tiles})"
        else:
            middle = f"{rack} ({self.tiles})"
        tail = f" {self.comment}" if self.comment else ""
        return f">{self.nick}: {middle.strip()} {amount} {self.total}{tail}"


@dataclass
class GcgPlayer:
    number: int
    nick: str
    name: str


@dataclass
class GcgRecord:
    players: list[GcgPlayer] = field(default_factory=list)
    events: list[GcgEvent] = field(default_factory=list)
    pragmas: dict[str, str] = field(default_factory=dict)  # title, description, lexicon, id, ...
    other_pragmas: list[tuple[str, str]] = field(default_factory=list)  # unknown ones, kept verbatim
    last_racks: dict[int, str] = field(default_factory=dict)  # #rack1 / #rack2: player number -> rack
    notes: list[str] = field(default_factory=list)  # notes written before the first event
    encoding: str = field(default=DEFAULT_ENCODING, compare=False)
    warnings: list[tuple[int, str]] = field(default_factory=list, compare=False)

    @property
    def incomplete(self) -> bool:
        return "incomplete" in self.pragmas

    @property
    def lexicon(self) -> str | None:
        return self.pragmas.get("lexicon")

    def player_by_nick(self, nick: str) -> GcgPlayer | None:
        return next((p for p in self.players if p.nick == nick), None)


# --- reading -------------------------------------------------------------------------------------

_PRAGMA_RE = re.compile(r"^#(\S+)\s*(.*)$")
_EVENT_RE = re.compile(r"^>([^:\s]+):(.*)$")
_AMOUNT_RE = re.compile(r"^(?:\+-|[+-])\d+$")  # Quackle writes a leftover penalty as +-4
_TOTAL_RE = re.compile(r"^-?\d+$")
_POSITION_RE = re.compile(r"^(?:\d{1,2}[A-Za-z]|[A-Za-z]\d{1,2})$")
_RACK_RE = re.compile(r"^(?:[^\W\d_]|\?)*$")  # letters of any alphabet, ? for a blank
_WORD_RE = re.compile(r"^(?:[^\W\d_]|[.()])+$")
_PLAYER_RE = re.compile(r"^player(\d+)$")
_RACK_PRAGMA_RE = re.compile(r"^rack(\d+)$")


def decode(data: bytes) -> tuple[str, str]:
    """The text of a record and its encoding: UTF-8 when the first line says so, else ISO-8859-1."""
    if not data.strip():
        raise GcgError(0, "the record is empty")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    first = data.split(b"\n", 1)[0].strip().decode("ascii", "replace")
    encoding = DEFAULT_ENCODING
    m = _PRAGMA_RE.match(first)
    if m and m.group(1).lower() == ENCODING_PRAGMA:
        name = m.group(2).strip()
        try:
            encoding = codecs.lookup(name).name
        except LookupError:
            raise GcgError(1, f"character encoding '{name}' is unknown: use UTF-8 or ISO-8859-1") from None
    try:
        return data.decode(encoding), encoding
    except UnicodeDecodeError:
        # Records are often saved in another encoding than they declare; UTF-8 is the likely one.
        try:
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            return data.decode(DEFAULT_ENCODING), DEFAULT_ENCODING


def read_gcg(path: str | Path) -> GcgRecord:
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise GcgError(0, f"cannot read {p}: {exc.strerror}") from None
    return parse_gcg_bytes(data)


def parse_gcg_bytes(data: bytes) -> GcgRecord:
    text, encoding = decode(data)
    record = parse_gcg(text)
    record.encoding = encoding
    return record


def parse_gcg(text: str) -> GcgRecord:
    """Read a record from its text. Raises `GcgError` (line and reason) when a line cannot be read."""
    record = GcgRecord()
    if not text.strip():
        raise GcgError(0, "the record is empty")
    note_target: list[str] | None = None  # where continuation lines of a #note go
    seen_numbers: set[int] = set()
    last_rack_line = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            note_target = None
            m = _PRAGMA_RE.match(line)
            if not m:
                raise GcgError(number, "a '#' line needs a pragma name, as '#title ...'")
            name, value = m.group(1).lower(), m.group(2).strip()
            if name == ENCODING_PRAGMA:
                if number != 1:
                    record.warnings.append((number, "#character-encoding should be the first line; read as ISO-8859-1"))
                continue
            pm = _PLAYER_RE.match(name)
            if pm:
                n = int(pm.group(1))
                parts = value.split(None, 1)
                if not parts:
                    raise GcgError(number, f"#player{n} needs a nickname (and a full name)")
                if n in seen_numbers:
                    raise GcgError(number, f"#player{n} is given twice")
                if record.events:
                    raise GcgError(number, f"#player{n} comes after the first move: players must be named first")
                seen_numbers.add(n)
                record.players.append(GcgPlayer(n, parts[0], parts[1].strip() if len(parts) > 1 else parts[0]))
                continue
            rm = _RACK_PRAGMA_RE.match(name)
            if rm:
                last_rack_line = number
                rack = value.replace(" ", "")
                if not _RACK_RE.match(rack):
                    raise GcgError(number, f"#rack{rm.group(1)} '{value}' is not a rack: use letters and ? for a blank")
                record.last_racks[int(rm.group(1))] = rack.upper()
                continue
            if name == "note":
                if record.events:
                    record.events[-1].notes.append(value)
                    note_target = record.events[-1].notes
                else:
                    record.notes.append(value)
                    note_target = record.notes
                continue
            if name in KNOWN_PRAGMAS:
                if name in record.pragmas:
                    record.warnings.append((number, f"#{name} is given twice; the last one is kept"))
                if record.events and name != "incomplete":
                    record.warnings.append((number, f"#{name} comes after the first move"))
                record.pragmas[name] = value
                continue
            record.other_pragmas.append((name, value))
            continue
        if line.startswith(">"):
            note_target = None
            if not record.players:
                raise GcgError(number, "a move comes before the #player lines that name the players")
            if last_rack_line:
                raise GcgError(number, f"a move follows the last-rack line (line {last_rack_line}): "
                                       "#rack lines come after the last move")
            record.events.append(_parse_event(line, number))
            continue
        if note_target is not None:
            # A #note continues on the following lines until the next pragma or event.
            note_target[-1] = note_target[-1] + "\n" + raw.rstrip()
            continue
        raise GcgError(number, f"'{_short(line)}' is neither a #pragma nor a >move line")
    nicks = [p.nick for p in record.players]
    if len(set(nicks)) != len(nicks):
        record.warnings.append((0, "two players share a nickname; moves are attributed by turn order"))
    names = [p.name for p in record.players]
    if len(set(names)) != len(names):
        record.warnings.append((0, "two players share a full name"))
    record.players.sort(key=lambda p: p.number)
    for event in record.events:
        if event.nick not in nicks:
            raise GcgError(event.line, f"'{event.nick}' is not one of the players ({', '.join(nicks)})")
    return record


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def _parse_event(line: str, number: int) -> GcgEvent:
    m = _EVENT_RE.match(line)
    if not m:
        raise GcgError(number, f"'{_short(line)}' is not a move line: expected '>nick: RACK POSITION WORD +SCORE TOTAL'")
    nick, tokens = m.group(1), m.group(2).split()
    # The score change and the running total end the move; old Quackle files add the cross words after.
    at = next((i for i in range(1, len(tokens) - 1)
               if _AMOUNT_RE.match(tokens[i]) and _TOTAL_RE.match(tokens[i + 1])), None)
    if at is None:
        raise GcgError(number, f"'{_short(line)}' lacks a score change and a running total (as +32 132)")
    amount, total = int(tokens[at].replace("+-", "-")), int(tokens[at + 1])
    body, comment = tokens[:at], " ".join(tokens[at + 2:])

    def rack_of(token: str) -> str:
        if not _RACK_RE.match(token):
            raise GcgError(number, f"rack '{token}' has a character that is not a tile: use letters and ? for a blank")
        return token.upper()

    ev = GcgEvent(EventKind.PASS, nick, amount=amount, total=total, line=number)
    last = body[-1]
    rack = rack_of(body[0]) if len(body) >= 2 else ""
    if len(body) > 3 or (len(body) == 3 and not _POSITION_RE.match(body[1])):
        raise GcgError(number, f"'{_short(line)}' has too many fields for a move line")
    if len(body) == 3 or (len(body) == 2 and _POSITION_RE.match(body[0]) and not last.startswith(("(", "-"))):
        # A placement, with or without the rack in front.
        position, word = (body[1], body[2]) if len(body) == 3 else (body[0], body[1])
        rack = rack if len(body) == 3 else ""
        if not _WORD_RE.match(word):
            raise GcgError(number, f"'{word}' is not a played word: use letters, '.' for a tile already on the board")
        if amount < 0:
            raise GcgError(number, f"a placement cannot score {amount}")
        ev.kind, ev.position, ev.word = EventKind.PLAY, position, word
    elif last == "-":
        ev.kind = EventKind.PASS
    elif last == "--":
        ev.kind = EventKind.WITHDRAWN
    elif last.startswith("-"):
        tiles = last[1:]
        ev.kind = EventKind.EXCHANGE
        if tiles.isdigit():
            ev.count = int(tiles)
        elif _RACK_RE.match(tiles):
            ev.tiles, ev.count = tiles.upper(), len(tiles)
        else:
            raise GcgError(number, f"exchange '{last}' must list the tiles (or their number) after the '-'")
    elif last.lower() == "(challenge)":
        ev.kind = EventKind.CHALLENGE_BONUS
    elif last.lower() == "(time)":
        ev.kind = EventKind.TIME_PENALTY
    elif last.startswith("(") and last.endswith(")"):
        tiles = last[1:-1]
        if not _RACK_RE.match(tiles):
            raise GcgError(number, f"leftover tiles '{tiles}' have a character that is not a tile")
        ev.tiles = tiles.upper()
        ev.kind = EventKind.END_POINTS if amount >= 0 and not (rack and rack == ev.tiles) else EventKind.RACK_PENALTY
        if rack and rack != ev.tiles and ev.kind is EventKind.RACK_PENALTY:
            raise GcgError(number, f"the leftover tiles ({tiles}) differ from the rack {rack} on the same line")
    else:
        raise GcgError(number, f"'{_short(line)}' is not a known kind of move line")
    ev.rack = rack
    ev.comment = comment
    return ev


# --- writing -------------------------------------------------------------------------------------


def write_gcg(record: GcgRecord) -> str:
    """The record as GCG text (UTF-8, declared on the first line); `parse_gcg` reads it back equal."""
    out = [f"#{ENCODING_PRAGMA} UTF-8"]
    for p in sorted(record.players, key=lambda p: p.number):
        out.append(f"#player{p.number} {p.nick} {p.name}")
    for name in KNOWN_PRAGMAS:
        if name in record.pragmas:
            out.append(f"#{name} {record.pragmas[name]}".rstrip())
    for name, value in record.other_pragmas:
        out.append(f"#{name} {value}".rstrip())
    out.extend(_note_lines(record.notes))
    for event in record.events:
        out.append(event.to_line())
        out.extend(_note_lines(event.notes))
    for number in sorted(record.last_racks):
        out.append(f"#rack{number} {record.last_racks[number]}")
    return "\n".join(out) + "\n"


def _note_lines(notes: Sequence[str]) -> list[str]:
    lines: list[str] = []
    for note in notes:
        first, *rest = note.split("\n")
        lines.append(f"#note {first}".rstrip())
        # A continuation line must not look like a pragma or an event, or it would be read as one.
        lines.extend(r if r.strip() and not r.lstrip().startswith(("#", ">")) else f" {r}" for r in rest)
    return lines
