"""Colours and sizes shared by the components (no game rules), and the board games' money style."""

from __future__ import annotations

import flet as ft

# Re-exported for the screens of the board games, which print money as their rules word it (M1,500).
from companion.rules.money import money_prefixed

TOKEN_HEX = {
    "red": "#D32F2F", "blue": "#1976D2", "green": "#388E3C", "amber": "#FFA000",
    "purple": "#7B1FA2", "teal": "#00897B", "grey": "#757575",
}
PREMIUM_BG = {"T": "#E53935", "D": "#F48FB1", "t": "#1E88E5", "d": "#90CAF9", ".": "#E8F0E0"}
PREMIUM_LABEL = {"T": "TW", "D": "DW", "t": "TL", "d": "DL", ".": ""}
TILE_BG = "#F6E3B4"
TILE_NEW = "#FFD54F"
TILE_LOW = "#B71C1C"
TILE_LOW_BG = "#FF8A65"
BOARD_LINE = "#5D7B5D"
PROPERTY_RING = "#6D4C41"
PRIMARY = "#1B5E20"
# Property Card groups (Monopoly colours); unknown groups get the plain ring colour.
GROUP_HEX = {
    "brown": "#795548", "light_blue": "#4FC3F7", "pink": "#D81B60", "orange": "#FB8C00", "red": "#C62828",
    "yellow": "#FBC02D", "green": "#2E7D32", "dark_blue": "#1A237E", "railroads": "#212121", "utilities": "#78909C",
}


def group(group_id: str) -> str:
    return GROUP_HEX.get(group_id, PROPERTY_RING)


def token(colour: str) -> str:
    return TOKEN_HEX.get(colour, TOKEN_HEX["grey"])


def theme() -> ft.Theme:
    return ft.Theme(color_scheme_seed=PRIMARY)



__all__ = ["BOARD_LINE", "GROUP_HEX", "PREMIUM_BG", "PREMIUM_LABEL", "PRIMARY", "PROPERTY_RING", "TILE_BG", "TILE_LOW",
           "TILE_LOW_BG", "TILE_NEW", "TOKEN_HEX", "group", "money_prefixed", "theme", "token"]
