"""The word list as the watcher's evidence (issue #22): what loading it costs, and what it saves at the
fake camera's 640x480.

    nice -n 10 python benchmarks/watch_words.py [--repeat 5] [--styles a,b] [--seeds 1,2,3] [--skip-streams]

1. Loading (medians of `--repeat` runs, each in a fresh process so nothing is cached in memory):
   ENABLE from the compiled cache, ENABLE compiled from its text (an empty cache folder: the first start
   on a new machine), and the time `TableWatch.start()` takes on the event loop for a table whose list is
   not loaded yet (it must not wait for the list: `companion.ui.watching.WatchWords` loads it on a thread).
2. The ask policy at 640x480 (the browser tests' camera; `tests/browser/watch_game.build`, a rendered board
   of real words: HOTEL 8D, NOT E7, HEN 10D, HOE 9G, 2 frames a second): the watcher with no word list
   watches the stream; each move's decision (its commit, or its first question, answered with the true
   board) is judged again, on the reading it was made on, by `vision.watch`'s policy without a word list,
   with ENABLE (what the app now passes), and with a variant where a word list that vouches for the
   letter also overrules a point number read as another letter's value (not a stored example of another
   letter), and with a variant where a tile below the reader's sure band (0.98) in a line that is not a
   word of the list asks (a misread letter seldom makes a word; a phony played on purpose would ask too).
   A question about anything but a letter is asked by all of them. Printed: moves asked about,
   wrong readings committed (silently wrong), and the new tiles' evidence.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

PLAYS = (("8D", "HOTEL"), ("E7", "NOT"), ("10D", "HEN"), ("9G", "HOE"))
STYLES = ("cream_blue_letters", "black_tiles", "coloured_plastic", "worn_wood", "cream_red_letters")

# One timing in a fresh interpreter (with a filled cache folder: from the cache; an empty one: compiled).
LOAD = "import time; from lexicon.store import load_lexicon; t=time.perf_counter(); load_lexicon('ENABLE'); " \
             "print(time.perf_counter()-t)"
START = """
import time, vision.watch
from companion.games.classic.table import new_classic
from companion.ui.table import PlayerInfo
from companion.ui.watching import TableWatch
game = new_classic([PlayerInfo('Ann', 'red'), PlayerInfo('Bob', 'blue')])
watch = TableWatch(game)
t = time.perf_counter()
watch.start(lambda check, moves: '', lambda view: None, lambda: None)
started = time.perf_counter() - t
watch.words.load()  # waits for the loading thread
print(started, watch.words.load_seconds)
"""


def _timed(code: str, cache: str) -> list[float]:
    env = {**os.environ, "COMPANION_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    return [float(v) for v in out.stdout.split()]


def loading(repeat: int) -> None:
    with tempfile.TemporaryDirectory() as warm:
        _timed(LOAD, warm)  # fills the cache
        cached = [_timed(LOAD, warm)[0] for _ in range(repeat)]
        fresh = []
        starts, loads = [], []
        for _ in range(repeat):
            with tempfile.TemporaryDirectory() as empty:
                fresh.append(_timed(LOAD, empty)[0])
            with tempfile.TemporaryDirectory() as empty:
                started, loaded = _timed(START, empty)
                starts.append(started)
                loads.append(loaded)
    print(f"ENABLE from the compiled cache: median {statistics.median(cached) * 1000:.1f} ms "
          f"(max {max(cached) * 1000:.1f}); compiled from its text (empty cache): median "
          f"{statistics.median(fresh):.2f} s (max {max(fresh):.2f})")
    print(f"TableWatch.start() on the event loop, list not loaded yet (empty cache): median "
          f"{statistics.median(starts) * 1000:.1f} ms (max {max(starts) * 1000:.1f}); the list meanwhile "
          f"loaded on its own thread in median {statistics.median(loads):.2f} s ({repeat} runs each, load "
          f"average {os.getloadavg()[0]:.1f})")


def _boards() -> list[list[str]]:
    from companion.games.classic.table import new_classic
    from companion.ui.table import PlayerInfo

    game = new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")])
    boards = [game.board.rows()]
    for position, word in PLAYS:
        game.play(position, word)
        boards.append(game.board.rows())
    return boards


def policy_at_640(styles: list[str], seeds: list[int], show: bool = False) -> None:
    import cv2
    from browser.watch_game import build

    from lexicon.store import load_lexicon
    from vision.confidence import SURE, vouched
    from vision.watch import Phase, WatchConfig, Watcher, _lines_through, merged_rows, word_vouched

    cv2.setNumThreads(1)
    words = load_lexicon("ENABLE").__contains__
    sure = WatchConfig().sure_new_tile
    boards = _boards()
    policies = ("no word list", "ENABLE (the app now)", "ENABLE, overruling a number against",
                "ENABLE, an unsure letter in a non-word asks")
    asked = dict.fromkeys(policies, 0)
    silent = dict.fromkeys(policies, 0)
    moves = tiles = wrong_tiles = unresolved = 0
    against = {"!number": [0, 0, 0], "!shape": [0, 0, 0]}  # tiles: all, letter wrong, vouched by ENABLE
    for style in styles:
        for seed in seeds:
            st = build(boards, seed=seed, style=style, hold=8.0, final_hold=6.0)
            # The watcher with no word list, driven as the app drives it; each move's decision (a commit,
            # or the first question) is judged again by each policy on the reading it was made on.
            watcher = Watcher(boards[0], WatchConfig())
            decided: list[tuple[Any, str]] = []  # (reading, question or '' for a commit), one per move
            for t, frame in st.frames:
                status = watcher.feed(frame, t)
                if len(decided) >= len(boards) - 1:
                    break
                if status.commit is not None:
                    decided.append((status.commit, ""))
                elif status.phase is Phase.ASKING:
                    decided.append((watcher.reading, status.question or ""))
                else:
                    continue
                watcher.set_board(boards[len(decided)])  # committed or answered: the true board
            unresolved += len(boards) - 1 - len(decided)
            for i, (reading, question) in enumerate(decided):
                truth = boards[i + 1]
                new = reading.new_tiles or []
                want = sorted((r, c, truth[r][c]) for r in range(15) for c in range(15)
                              if boards[i][r][c] in ".#" and truth[r][c] not in ".#")
                got = sorted((int(x.square[1:]) - 1, ord(x.square[0]) - 65, x.letter) for x in new)
                right = got == want
                after = merged_rows(boards[i], reading)
                moves += 1
                # A question about anything but a letter is asked by every policy.
                votes = dict.fromkeys(policies, bool(question) and not question.startswith("not sure of the letter"))
                for tile in new:
                    r, c = int(tile.square[1:]) - 1, ord(tile.square[0]) - 65
                    conf, ev = float(reading.confidence[r][c]), reading.evidence[r][c] if reading.evidence else ""
                    tags = set(ev.split(","))
                    vouch = word_vouched(after, (r, c), words)
                    tiles += 1
                    wrong_tiles += truth[r][c] != tile.letter
                    for tag, counts in against.items():
                        if tag in tags:
                            counts[0] += 1
                            counts[1] += truth[r][c] != tile.letter
                            counts[2] += vouch
                    below = conf < sure and not vouched(ev)
                    votes["no word list"] |= bool(tags & {"!number", "!shape"}) or below
                    votes["ENABLE (the app now)"] |= bool(tags & {"!number", "!shape"}) or (below and not vouch)
                    votes["ENABLE, overruling a number against"] |= ("!shape" in tags or ("!number" in tags and not vouch)
                                                                     or (below and not vouch))
                    in_non_word = not all(words(word) for word, _ in _lines_through(after, (r, c)))
                    votes["ENABLE, an unsure letter in a non-word asks"] |= (
                        bool(tags & {"!number", "!shape"}) or (below and not vouch) or (conf < SURE and in_non_word))
                for name in policies:
                    asked[name] += votes[name]
                    silent[name] += not votes[name] and not right
                if not right and not all(votes.values()) and show:
                    evidence = [(x.square, x.letter, round(float(reading.confidence[r][c]), 3),
                                 reading.evidence[r][c] if reading.evidence else "")
                                for x in new for r, c in [(int(x.square[1:]) - 1, ord(x.square[0]) - 65)]]
                    print(f"  {style} seed {seed} move {i + 1}: read {evidence} (true {want}): "
                          f"{', '.join(n for n in policies if not votes[n])} commit it wrongly")
    print(f"640x480, {len(styles)} styles x {len(seeds)} seeds, {moves} moves decided ({unresolved} neither "
          f"committed nor asked), {tiles} new tiles read ({wrong_tiles} letters wrong)")
    for tag, (n, wrong, vouch) in against.items():
        print(f"  tiles with evidence {tag}: {n} (letter wrong {wrong}, vouched by ENABLE {vouch})")
    for name in policies:
        print(f"  {name:44s}: asks about {asked[name]} of {moves} moves, silently wrong {silent[name]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--styles", default=",".join(STYLES))
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("--skip-streams", action="store_true", help="only the loading times")
    ap.add_argument("--skip-loading", action="store_true", help="only the ask policy at 640x480")
    ap.add_argument("--show", action="store_true", help="print each wrong reading a policy would commit")
    args = ap.parse_args(argv)
    if not args.skip_loading:
        loading(args.repeat)
    if not args.skip_streams:
        policy_at_640(args.styles.split(","), [int(s) for s in args.seeds.split(",")], args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
