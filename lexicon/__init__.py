"""Word lists, the word judge and the move generator.

- `lexicon.store`: lexicons by name (`ENABLE` ships in `assets/lexicon/`) or path, compiled to a word
  graph (`lexicon.graph`) and cached under the user's cache folder keyed by a hash of the source.
- `lexicon.wordlist`: reading a user's list (bad lines reported by number, long words dropped).
- `lexicon.judge`: ACCEPTABLE / UNACCEPTABLE for the words of a play or a placement on a board.
- `lexicon.movegen`: every legal placement with its score; `has_any_play`, `best_plays` for the rules.
  Its search runs in the optional C extension `lexicon._movegen` when built, else in pure Python.
"""

from lexicon.judge import NotAWordError, Ruling, judge_placement, judge_words
from lexicon.movegen import Move, RackError, best_plays, generate_moves, has_any_play
from lexicon.store import Lexicon, LexiconError, available_lexicons, load_lexicon

__all__ = [
    "Lexicon", "LexiconError", "Move", "NotAWordError", "RackError", "Ruling", "available_lexicons",
    "best_plays", "generate_moves", "has_any_play", "judge_placement", "judge_words", "load_lexicon",
]
