"""What vouches for each letter read, besides the letter network's own probability.

A network is sure of shapes it never saw: on a board in a new style it can read an N as A with 1.00. So a
letter is sure only when evidence that does not come from the network's weights agrees with it
(`vision.confidence.assess` applies the rule). The evidence per tile, as tags (`LetterEvidence.tags`):

- `number`: the tile's point number (`vision.points`, read by a reader trained on rendered and photographed
  digits, never on letters) reads the letter's value in the game's tile set; `!number`: it clearly reads
  another value (a tile showing 3 is no O).
- `shape`: the stored training example nearest the glyph (`MlpRecogniser.shape_letters`: a reading by
  nearest example, not by the network's weights) is of the same letter; `!shape`: of another letter.

Nothing here is tuned on the rendered styles held out blind (`benchmarks/vision_styles.py`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

# The number reads the letter's value when that value gets at least NUMBER_AGREES; it reads against the letter
# when another value gets at least NUMBER_AGAINST and the letter's value under NUMBER_AGAINST_LETTER_BELOW.
NUMBER_AGREES = 0.5
NUMBER_AGAINST = 0.9
NUMBER_AGAINST_LETTER_BELOW = 0.05


@dataclass(frozen=True)
class LetterEvidence:
    number: int  # 1 the number reads the letter's value, -1 another value, 0 no clear number
    shape: int  # 1 the nearest stored example is of this letter, -1 of another, 0 none stored

    @property
    def tags(self) -> str:
        out = []
        if self.number:
            out.append("number" if self.number > 0 else "!number")
        if self.shape:
            out.append("shape" if self.shape > 0 else "!shape")
        return ",".join(out)


def letter_evidence(letters: Sequence[str], numbers: Sequence[Mapping[int, float] | None],
                    shapes: Sequence[str], values: Mapping[str, int]) -> list[LetterEvidence]:
    """Per tile: its letter read, the number reader's value probabilities (None: no number found), the
    nearest example's letter ("" none) and the tile set's values."""
    out = []
    for letter, q, shape in zip(letters, numbers, shapes, strict=True):
        number = 0
        if q is not None and letter in values:
            mine = q.get(values[letter], 0.0)
            if mine >= NUMBER_AGREES:
                number = 1
            elif mine < NUMBER_AGAINST_LETTER_BELOW and max(q.values(), default=0.0) >= NUMBER_AGAINST:
                number = -1
        out.append(LetterEvidence(number, 0 if not shape else (1 if shape == letter else -1)))
    return out
