"""Monopoly Scrabble's `summary()` as the plain text `companion replay` prints.
"""

from __future__ import annotations

from typing import Any

from companion.rules.money import money_prefixed as money


def format_summary(s: dict[str, Any]) -> str:
    """`MonopolyScrabbleState.summary()` as the plain text `companion replay` prints."""
    lines = [f"Monopoly Scrabble, {len(s['players'])} players, "
             + (f"game over ({s['end_reason']})" if s["finished"] else f"in progress: {s['next']}")]
    lines.append(f"{'player':<10} {'cash':>9} {'cards':>9} {'wealth':>9}  position / status")
    for p in s["players"]:
        status = "eliminated" if p["eliminated"] else f"{p['position']} {p['space']}" + (" (in Jail)" if p["in_jail"] else "")
        lines.append(f"{p['name']:<10} {money(p['cash']):>9} {money(p['card_value']):>9} {money(p['wealth']):>9}  "
                     f"{status}")
    lines.append(f"Free Parking pot: {money(s['pot'])}; Bank: {money(s['bank'])}; "
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
