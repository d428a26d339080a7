"""Monopoly Builder's `summary()` as the plain text `companion replay` prints.
"""

from __future__ import annotations

from typing import Any

from companion.games.monopoly_builder.rules.views import _chips
from companion.rules.money import money_prefixed as money


def format_summary(s: dict[str, Any]) -> str:
    """`BuilderState.summary()` as the plain text `companion replay` prints."""
    lines = [f"Monopoly Builder, {len(s['players'])} players, "
             + (f"game over ({s['end_reason']})" if s["finished"] else f"in progress: {s['next']}")]
    lines.append(f"{'player':<10} {'cash':>7} {'deeds':>5} {'chips':>5} {'build':>5} {'mono':>4} {'bill':>4} "
                 f"{'comm':>4} {'total':>5}  status")
    for p in s["players"]:
        sc = p["score"]
        status = "bankrupt" if p["bankrupt"] else f"{p['position']} {p['space']}" + (" (in Jail)" if p["in_jail"] else "")
        lines.append(f"{p['name']:<10} {money(p['cash']):>7} {len(p['deeds']):>5} {sum(p['resources'].values()):>5} "
                     f"{sc['building_points']:>5} {sc['monopoly_points']:>4} {sc['billionaire']:>4} "
                     f"{sc['community']:>4} {sc['total']:>5}  {status}")
    lines.append(f"Bank: {money(s['bank']['cash'])}, resources " + _chips(s["bank"]["resources"]))
    if s["buildings"]:
        lines.append("Buildings: " + ", ".join(
            f"{c} {b['owner']} {b['floors']}{'+P' if b['penthouse'] else ''}" for c, b in s["buildings"].items()))
    if s["winner"]:
        lines.append("Winner: " + " and ".join(s["winner"]))
    return "\n".join(lines)
