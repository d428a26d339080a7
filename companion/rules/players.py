"""Who may sit at the table: the player-name rules every game variant shares."""

from __future__ import annotations


def check_player_names(players: list[str]) -> list[str]:
    """The names stripped, or ValueError: every player needs a name, and no two may be the same
    (ignoring case), since names identify players in every event and on every screen."""
    names = [p.strip() for p in players]
    if any(not n for n in names):
        raise ValueError("every player needs a name")
    if len({n.lower() for n in names}) != len(names):
        raise ValueError("two players have the same name")
    return names
