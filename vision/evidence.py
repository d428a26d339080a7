"""What vouches for each letter read, besides the letter network's own probability.

A network is sure of shapes it never saw: on a board in a new style it can read an N as A with 1.00. So a
letter is sure only when evidence that does not come from the network's weights agrees with it
(`vision.confidence.assess` applies the rule). The evidence per tile, as tags (`LetterEvidence.tags`):

- `number`: the tile's point number (`vision.points`, read by a reader trained on rendered and photographed
  digits, never on letters) reads the letter's value in the game's tile set; `!number`: it clearly reads
  another value (a tile showing 3 is no O).
- `shape`: the stored training example nearest the glyph (`MlpRecogniser.shape_letters`: a reading by
  nearest example, not by the network's weights) is of the same letter; `!shape`: of another letter.
- `tesseract`: Tesseract (`vision.recognise.TesseractRecogniser`, single-character mode on the glyph with its
  point number cut off; an OCR engine trained on text, never on these tiles) reads the same letter with
  confidence >= TESSERACT_AGREES; `!tesseract`: it reads another letter so surely (>= TESSERACT_AGAINST).
  Asked only where the number does not vouch and only with the in-process engine (tesserocr), so a reading
  without it carries no such tag.

`vision.stages.letter_evidence_grid` adds `cut_apart` where a piece of the letter's mark was cut off as its point
number while the number stands apart (`vision.stages.cut_beside_its_number`): a doubt, never a witness.

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
# Tesseract's confidence (MeanTextConf / 100) from which its letter counts: for it (the same letter as the
# grid's) or against it (another letter). Chosen on umich and jheidel, each read by models trained without it
# (`benchmarks/vision_styles.py --sets umich_kwwangkw,jheidel`, then `benchmarks/vision_agree.py`): of the
# letters no number vouched for (1085 and 621), Tesseract read the network's letter 698 and 351 times; 2 of
# those were wrong (umich's thin I read L, Tesseract at 0.36 and 0.58, the network unsure), none from 0.7 up
# (268 and 174 letters). At 0.8 (233 and 155 agreed, none wrong) the rule makes 104 and 90 letters sure, none
# wrong. Never tuned on other sets nor on the styles held out blind.
TESSERACT_AGREES = 0.8
TESSERACT_AGAINST = 0.9


@dataclass(frozen=True)
class LetterEvidence:
    number: int  # 1 the number reads the letter's value, -1 another value, 0 no clear number
    shape: int  # 1 the nearest stored example is of this letter, -1 of another, 0 none stored
    tesseract: int = 0  # 1 Tesseract reads this letter, -1 clearly another, 0 not asked or unclear

    @property
    def tags(self) -> str:
        out = []
        if self.number:
            out.append("number" if self.number > 0 else "!number")
        if self.shape:
            out.append("shape" if self.shape > 0 else "!shape")
        if self.tesseract:
            out.append("tesseract" if self.tesseract > 0 else "!tesseract")
        return ",".join(out)


def tesseract_vote(letter: str, read: tuple[str, float] | None) -> int:
    """1 when Tesseract's (letter, confidence) is the tile's letter surely enough, -1 when it is another
    letter read surely, else 0 (not asked, no letter, unsure)."""
    if read is None or not read[0].isalpha():
        return 0
    if read[0] == letter:
        return 1 if read[1] >= TESSERACT_AGREES else 0
    return -1 if read[1] >= TESSERACT_AGAINST else 0


def letter_evidence(letters: Sequence[str], numbers: Sequence[Mapping[int, float] | None],
                    shapes: Sequence[str], values: Mapping[str, int],
                    tesseract: Sequence[tuple[str, float] | None] | None = None) -> list[LetterEvidence]:
    """Per tile: its letter read, the number reader's value probabilities (None: no number found), the
    nearest example's letter ("" none), the tile set's values and Tesseract's (letter, confidence) (None:
    not asked)."""
    out = []
    reads = tesseract if tesseract is not None else [None] * len(letters)
    for letter, q, shape, read in zip(letters, numbers, shapes, reads, strict=True):
        number = 0
        if q is not None and letter in values:
            mine = q.get(values[letter], 0.0)
            if mine >= NUMBER_AGREES:
                number = 1
            elif mine < NUMBER_AGAINST_LETTER_BELOW and max(q.values(), default=0.0) >= NUMBER_AGAINST:
                number = -1
        out.append(LetterEvidence(number, 0 if not shape else (1 if shape == letter else -1),
                                  tesseract_vote(letter, read)))
    return out
