"""THE REGISTRY: every game the app knows, one line each (id -> where its `GameSpec` is).

The id is what saved games and logs store as their variant: "classic" and "monopoly" stay as they are so
every saved game keeps opening. A game is imported only when first used (`GAMES.get(id)`), so importing
this module is cheap and a game that fails to import leaves the others working. To add a game, add its
folder (`companion/games/<game>/`, see docs/adding-a-game.md) and one line here. The order is the order
the setup screen offers them in.
"""

from companion.games.spec import GameSpec, GameUI, Registry, Screen, UnknownGame

GAMES = Registry({
    "monopoly": "companion.games.monopoly_scrabble:GAME",
    "classic": "companion.games.classic:GAME",
    "monopoly_deal": "companion.games.monopoly_deal:GAME",
    "monopoly_builder": "companion.games.monopoly_builder:GAME",
})

get = GAMES.get
register = GAMES.register
available = GAMES.available

__all__ = ["GAMES", "GameSpec", "GameUI", "Registry", "Screen", "UnknownGame", "available", "get", "register"]
