"""Events of the games played on the 15x15 word board (classic Scrabble, Monopoly Scrabble): a word laid
on the board and a challenge of it. Each game extends them with what only it records."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from companion.events import Event, PlayerEvent


class WordPlay(PlayerEvent):
    """Tiles placed: `position` as `8D`/`D8`, `word` in GCG form (`.` = tile already on the board, lower
    case = a blank)."""

    type: Literal["play"] = "play"
    position: str
    word: str
    rack: str | None = Field(default=None, description="the player's own rack before the play, when known")


class WordChallenge(Event):
    """A ruling on the latest play: `acceptable` is the word judge's verdict on the whole play."""

    type: Literal["challenge"] = "challenge"
    challenger: str
    acceptable: bool | None = None
    lexicon: str = ""
    words: list[str] = Field(default_factory=list)
