"""Reading a word list as a user supplies it: one word per line, any case.

Blank lines and `#` comments are ignored. A line holding anything but letters (digits, spaces inside a
word, punctuation) is reported by its line number and skipped; it never stops the load. Words longer
than the longest line a board has (15 squares) can never be played, so they are dropped and counted,
and the count is reported with the list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

MAX_WORD_LENGTH = 15


@dataclass
class WordListReport:
    """What happened while reading a list: words kept, lines skipped (with why), long words dropped."""

    words: list[str] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line number, reason)
    too_long: int = 0
    duplicates: int = 0

    def summary(self) -> str:
        parts = [f"{len(self.words)} words"]
        if self.too_long:
            parts.append(f"{self.too_long} longer than {MAX_WORD_LENGTH} letters dropped (they can never be played)")
        if self.duplicates:
            parts.append(f"{self.duplicates} duplicates ignored")
        if self.skipped:
            shown = ", ".join(str(n) for n, _ in self.skipped[:10])
            more = f" and {len(self.skipped) - 10} more" if len(self.skipped) > 10 else ""
            parts.append(f"{len(self.skipped)} lines skipped because they are not a word of letters (line {shown}{more})")
        return "; ".join(parts)


def parse_word_list(text: str, max_length: int = MAX_WORD_LENGTH) -> WordListReport:
    """Words of `text` in upper case, sorted and unique, with a report of what was left out."""
    report = WordListReport()
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if not line.isalpha():
            report.skipped.append((number, f"line {number}: '{line[:30]}' has characters that are not letters"))
            continue
        word = line.upper()
        if len(word) > max_length:
            report.too_long += 1
            continue
        if word in seen:
            report.duplicates += 1
            continue
        seen.add(word)
    report.words = sorted(seen)
    return report


def read_word_list(path: Path, max_length: int = MAX_WORD_LENGTH) -> WordListReport:
    """Read a word list file (UTF-8, or Latin-1 when it is not valid UTF-8, as older lists are)."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return parse_word_list(text, max_length)
