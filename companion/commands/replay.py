"""`companion replay GAME.json [--json]`: fold a table's event log and print the final state.

The log is the documented format (`docs/event-format.md`): `{"format": 1, "variant": "monopoly" |
"classic", "events": [...]}`. Monopoly games print cash, Property Cards, wealth and token position per
player, the Free Parking pot, the owners, eliminated players and the winner; classic games print the
scores and the winner. A file that cannot be read, or an event the rules refuse, is one sentence on
stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from companion.cli import CommandError
from companion.events import GameLog, LogFormatError, load_events
from companion.rules import classic, monopoly
from companion.rules.errors import RulesError


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay", help="replay a game log and print the final state",
        description="Fold a game log (docs/event-format.md; variant monopoly or classic) through the rules "
                    "and print the final state: cash, cards, positions, pot, owners, eliminated, winner.")
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
    adapter: TypeAdapter[Any]
    factory: Callable[[], Any]
    if variant == monopoly.VARIANT:
        adapter, factory = monopoly.EVENT_ADAPTER, monopoly.new_state
    elif variant == classic.VARIANT:
        adapter, factory = classic.EVENT_ADAPTER, classic.new_state
    else:
        raise CommandError(f'the game log\'s "variant" is {variant!r}: it must be "monopoly" or "classic"')
    try:
        _, events = load_events(text, adapter, variant)
    except LogFormatError as exc:
        raise CommandError(str(exc)) from None
    if not events:
        raise CommandError("the game log has no events: it must start with a 'start' event")
    log: GameLog[Any] = GameLog(factory)
    for i, event in enumerate(events, 1):
        try:
            log.push(event)
        except (RulesError, ValueError) as exc:  # some rules checks (positions) raise a plain ValueError
            raise CommandError(f"event {i} ({event.type}) is refused by the rules: {exc}") from None
    return variant, log.state


def _classic_summary(state: classic.ClassicState) -> dict[str, Any]:
    return {
        "variant": classic.VARIANT,
        "finished": state.finished,
        "end_reason": state.end_reason,
        "players": [{"name": p, "score": state.scores[p]} for p in state.players],
        "winner": state.winner() if state.finished else None,
        "bag": state.bag_count,
        "turns": len(state.turns),
    }


def _money(amount: int) -> str:
    return f"M{amount:,}"


def format_monopoly(s: dict[str, Any]) -> str:
    lines = [f"Monopoly Scrabble, {len(s['players'])} players, "
             + (f"game over ({s['end_reason']})" if s["finished"] else f"in progress: {s['next']}")]
    lines.append(f"{'player':<10} {'cash':>9} {'cards':>9} {'wealth':>9}  position / status")
    for p in s["players"]:
        status = "eliminated" if p["eliminated"] else f"{p['position']} {p['space']}" + (" (in Jail)" if p["in_jail"] else "")
        lines.append(f"{p['name']:<10} {_money(p['cash']):>9} {_money(p['card_value']):>9} {_money(p['wealth']):>9}  "
                     f"{status}")
    lines.append(f"Free Parking pot: {_money(s['pot'])}; Bank: {_money(s['bank'])}; "
                 f"bag: {s['bag']} tiles; Bank rack: {s['bank_rack']}")
    owned: dict[str, list[str]] = {}
    for group, owner in s["owners"].items():
        owned.setdefault(owner, []).append(group)
    lines.append("Property Cards: " + "; ".join(f"{o}: {', '.join(g)}" for o, g in owned.items()))
    if s["eliminated"]:
        lines.append("Eliminated: " + ", ".join(s["eliminated"]))
    if s["winner"]:
        lines.append("Winner: " + " and ".join(s["winner"]))
    return "\n".join(lines)


def format_classic(s: dict[str, Any]) -> str:
    lines = ["Classic Scrabble, " + (f"game over ({s['end_reason'] or 'settled'})" if s["finished"] else "in progress")]
    lines += [f"{p['name']:<10} {p['score']:>5}" for p in s["players"]]
    if s["winner"]:
        lines.append("Winner: " + " and ".join(s["winner"]))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    variant, state = replay_text(_read(Path(args.path)))
    summary = state.summary() if variant == monopoly.VARIANT else _classic_summary(state)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(format_monopoly(summary) if variant == monopoly.VARIANT else format_classic(summary))
    return 0
