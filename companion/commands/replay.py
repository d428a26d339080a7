"""`companion replay GAME.json [--json]`: fold a table's event log and print the final state.

The log is the documented format (`docs/event-format.md`): `{"format": 1, "variant": GAME_ID,
"events": [...]}`, where GAME_ID is any game of the registry (`companion.games`). The game's rules fold
the log; its `summary()` is what `--json` prints and its `format_summary` the plain text (Monopoly
Scrabble: cash, Property Cards, wealth and token per player, pot, owners, winner; classic Scrabble: the
scores and the winner). A file that cannot be read, or an event the rules refuse, is one sentence on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.cli import CommandError
from companion.events import GameLog, LogFormatError, load_events
from companion.games import GAMES
from companion.rules.errors import RulesError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay a game log and print the final state",
        description="Fold a game log (docs/event-format.md; any game of the registry) through its rules "
                    "and print the final state (for Monopoly Scrabble: cash, cards, positions, pot, owners, "
                    "eliminated, winner).")
    parser.add_argument("path", metavar="GAME.json", help="a game log written by the app (dump_events format)")
    parser.add_argument("--json", action="store_true", help="print the final state as JSON")
    parser.set_defaults(func=run)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CommandError(f"{path} does not exist: give a game log file") from None
    except IsADirectoryError:
        raise CommandError(f"{path} is a folder: give a game log file") from None
    except UnicodeDecodeError:
        raise CommandError(f"{path} is not a text file: give a JSON game log") from None


def replay_text(text: str) -> tuple[str, Any]:
    """Fold a log; returns (variant, final state). Raises `CommandError` with the reason."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(f"the game log is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except (RecursionError, ValueError):  # absurd nesting or a number with thousands of digits
        raise CommandError("the game log is not a log the app wrote (too deeply nested or too long numbers)") from None
    variant = raw.get("variant") if isinstance(raw, dict) else None
    known = GAMES.available_ids()
    if not isinstance(variant, str) or variant not in known:
        names = " or ".join(f'"{k}"' for k in known)
        raise CommandError(f'the game log\'s "variant" is {variant!r}: it must be {names}')
    spec = GAMES.get(variant)
    try:
        _, events = load_events(text, spec.adapter, variant)
    except LogFormatError as exc:
        raise CommandError(str(exc)) from None
    if not events:
        raise CommandError("the game log has no events: it must start with a 'start' event")
    log: GameLog[Any] = GameLog(spec.new_state)
    for i, event in enumerate(events, 1):
        try:
            log.push(event)
        except (RulesError, ValueError) as exc:  # some rules checks (positions) raise a plain ValueError
            raise CommandError(f"event {i} ({event.type}) is refused by the rules: {exc}") from None
    return variant, log.state


def run(args: argparse.Namespace) -> int:
    variant, state = replay_text(_read(Path(args.path)))
    spec = GAMES.get(variant)
    summary = spec.summary(state)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(spec.format_summary(summary))
    return 0
