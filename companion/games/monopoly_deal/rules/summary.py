"""Monopoly Deal's `summary()` as the plain text `companion replay` prints.
"""

from __future__ import annotations

from typing import Any

from companion.rules.money import money_millions as money


def format_summary(s: dict[str, Any]) -> str:
    """`DealState.summary()` as the plain text `companion replay` prints."""
    if not s.get("players"):
        return "Monopoly Deal: not started"
    lines = []
    for p, d in s["players"].items():
        sets = "; ".join(
            f"{x['colour']} {len(x['cards'])}{' complete' if x['complete'] else ''}"
            + (" +house" if x["house"] else "") + (" +hotel" if x["hotel"] else "") for x in d["sets"]) or "none"
        lines.append(f"{p}: bank {money(d['bank_total'])} ({len(d['bank'])} cards), hand {d['hand']}, sets: {sets}")
    lines.append(f"Draw pile {s['draw_pile']}, discard pile {len(s['discard_pile'])}")
    lines.append(f"Winner: {s['winner']}" if s["winner"] else f"Waiting: {s['waiting_for']['sentence']}")
    return "\n".join(lines)
