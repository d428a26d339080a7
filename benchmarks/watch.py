"""Watch mode over whole games filmed by a camera standing over the table (issue #22).

    nice -n 10 python benchmarks/watch.py [--games rendered,cava_ro,jheidel] [--faults clean,glare,...]
                                          [--fps 1] [--settle 4] [--quick-next] [--settle-sweep 1,2,3,4,5]
                                          [--models shipped|heldout] [--rendered N] [--show]
                                          [--write-frames DIR]

Streams (`vision.stream.build_stream`) are built from every photographed game in ../shared/data/boards
(the three cava_ro games, walked by their per-move labels, and the jheidel photo series, labels in
tests/data/board_labels/jheidel.json, walked as `benchmarks/vision_sequence.py` walks them: each step from
one photo to the next is a change whose tiles are the labels' difference) and from games rendered by
`vision.synth` (so a figure exists without ../shared). A stream starts on its first photo's board (the
watcher is told that board) and shows each later change: a hand and arm reaching in (sizes, skin tones),
the tiles appearing one or two at a time with pauses of up to 2.5 s with the hand off the board, then the
board left alone. Frames are 2 MP (1632 x 1224) JPEG bytes, as a phone's camera hands them over, at
`--fps`. Faults, from the second change on: glare, a nudged known tile, the camera bumped, a lighting
change, motion blur (`clean`: none).

The watcher is driven as the app drives it (`vision.watch.Watcher`): a commit is recorded at once
(`set_board` with its board); a question is answered by the referee with the true board once the move is
laid; a change neither committed nor asked by its end needs a tap (counted) and the true board is set.
Per game and fault it prints: changes committed exactly (tiles and score), asked, silently wrong (a commit
that differs from the change and was not asked: must be 0), partial placements committed (must be 0),
changes that needed a tap though nothing was doubtful (must be 0), and latency from the last frame with a
hand over the board to the proposal of the whole move (median, frames' time and wall time: frames' time
plus the wall time of the call that proposed). At the end: reading cost per frame (CPU, one thread, median
and p90 over every frame) and how many watched tables one 2-core server carries at this frame rate (2 cores
divided by CPU seconds per second of watching).

`--settle-sweep` runs the rendered games' clean streams with each settle time and prints partial commits
and the time from the move being laid to its commit: the default `WatchConfig.settle_seconds` is the
smallest value with no partial commit plus a margin. `--models heldout` reads with models trained without
the game (cached by `python -m vision.train --eval-only --cache DIR`, as benchmarks/vision_sequence.py);
`shipped` (the default) uses assets/vision/, whose training saw these photos.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from benchmarks.vision_sequence import label_change
from companion.rules.tiles import load_tileset
from vision import stream as streams
from vision.watch import Phase, WatchConfig, Watcher

EMPTY = ["." * 15] * 15


@dataclass
class Game:
    name: str
    tiles: str
    keyframes: list[streams.Keyframe]
    truth: list[tuple[list[tuple[int, int, str]], int | None]]  # per change: new tiles, score (None: unscored)
    models: tuple[Any, Any] = (None, None)


@dataclass
class Tally:
    changes: int = 0
    empty: int = 0
    exact: int = 0
    asked: int = 0
    silent: int = 0
    partial: int = 0
    taps: int = 0
    spurious: int = 0  # commits on a change that put no tile down
    latency: list[float] = field(default_factory=list)
    latency_wall: list[float] = field(default_factory=list)
    latency_cpu: list[float] = field(default_factory=list)
    commit_after_laid: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    # every new tile of every commit: (confidence, evidence tags, letter right, vouched by the words)
    tiles: list[tuple[float, str, bool, bool | None]] = field(default_factory=list)
    # every move committed or asked for the ask policy only: its new tiles (confidence, evidence tags, the
    # words vouch) and whether the reading was right (tiles and score)
    policy_moves: list[tuple[list[tuple[float, str, bool]], bool]] = field(default_factory=list)
    moves_below_sure: int = 0  # commits holding a new tile below SURE (what "any doubt asks" would ask)
    unsure_asked: int = 0  # questions asked only because a new tile was below WatchConfig.sure_new_tile
    unsure_asked_right: int = 0  # ... whose reading was right (committing it would have been exact)
    # questions by reason (`ask_reason`), and of them those on an ordinary move (`ordinary`)
    reasons: Counter[str] = field(default_factory=Counter)
    reasons_ordinary: Counter[str] = field(default_factory=Counter)
    ordinary_changes: int = 0  # changes that are ordinary moves (see `ordinary`)

    def add(self, other: Tally) -> None:
        for name in ("changes", "empty", "exact", "asked", "silent", "partial", "taps", "spurious",
                     "moves_below_sure", "unsure_asked", "unsure_asked_right", "ordinary_changes"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.latency += other.latency
        self.latency_wall += other.latency_wall
        self.latency_cpu += other.latency_cpu
        self.commit_after_laid += other.commit_after_laid
        self.cpu += other.cpu
        self.seconds += other.seconds
        self.tiles += other.tiles
        self.policy_moves += other.policy_moves
        self.reasons += other.reasons
        self.reasons_ordinary += other.reasons_ordinary


def _clean(grid: list[str]) -> list[str]:
    return [row.replace("#", ".") for row in grid]


def photo_games(only: set[str], models: str, cache: Path) -> list[Game]:
    """The photographed games as keyframes and true changes (`benchmarks/vision_sequence.py`'s walk)."""
    from benchmarks.vision_sequence import PHOTO_SERIES, games

    out = []
    for (set_name, game), photos in games().items():
        if set_name not in only:
            continue
        tiles = "ro" if set_name == "cava_ro" else "en"
        tileset = load_tileset(tiles)
        keys, truth = [], []
        for k, photo in enumerate(photos):
            grid = _clean(photo.grid)
            keys.append(streams.Keyframe(cv2.imread(str(photo.image)), photo.corners, grid))
            if k == 0:
                continue
            if set_name in PHOTO_SERIES:
                truth.append(label_change(keys[k - 1].grid, grid, tileset))
            else:
                want = sorted((t["row"], t["col"], t["letter"]) for t in photo.meta["new_tiles"])
                truth.append((want, int(photo.meta["move_score"])))
        loaded: tuple[Any, Any] = (None, None)
        if models == "heldout":
            loaded = _heldout(set_name, photos[0], cache)
        out.append(Game(f"{set_name} {game}", tiles, keys, truth, loaded))
    return out


def _heldout(set_name: str, photo: Any, cache: Path) -> tuple[Any, Any]:
    from benchmarks.vision_sequence import PHOTO_SERIES
    from vision.mlp import Mlp
    from vision.occupancy import OccupancyModel
    from vision.train import fold_of, train_without

    if set_name in PHOTO_SERIES:
        occ, let = train_without(set_name, cache, lambda msg: print(msg, file=sys.stderr, flush=True))
        return OccupancyModel(Mlp.load(occ)), Mlp.load(let)
    fold = fold_of(photo)
    return (OccupancyModel(Mlp.load(cache / "folds" / f"{fold}_occupancy.npz")),
            Mlp.load(cache / "folds" / f"{fold}_letters.npz"))


def rendered_games(count: int, moves: int = 6) -> list[Game]:
    styles = ("cream_blue_letters", "black_tiles", "coloured_plastic", "worn_wood", "cream_red_letters")
    out = []
    tileset = load_tileset("en")
    for k in range(count):
        style = styles[k % len(styles)]
        keys = streams.rendered_game(style, seed=k + 1, moves=moves)
        truth = [label_change(a.grid, b.grid, tileset) for a, b in itertools.pairwise(keys)]
        out.append(Game(f"rendered {style} {k + 1}", "en", keys, truth))
    return out


def _tiles_of(reading: Any) -> list[tuple[int, int, str]]:
    return sorted((int(t.square[1:]) - 1, ord(t.square[0]) - 65, t.letter) for t in reading.new_tiles or [])


def _after(before: list[str], tiles: list[tuple[int, int, str]]) -> list[str]:
    grid = [list(r) for r in before]
    for r, c, ch in tiles:
        grid[r][c] = ch
    return ["".join(r) for r in grid]


def watch_game(game: Game, fault: str, fps: float, settle: float, quick_next: bool, seed: int,
               show: bool, write_to: Path | None = None, sure_new_tile: float = WatchConfig().sure_new_tile,
               patient: bool = False) -> Tally:
    """Build the game's stream with `fault`, watch it, and tally what the watcher did."""
    st = streams.build_stream(game.keyframes, fps=fps, fault=fault, seed=seed, settle=settle,
                              quick_next=quick_next, jpeg_quality=90)
    if write_to is not None:  # the stream as a folder of frames, for `companion watch FOLDER`
        folder = write_to / f"{game.name.replace(' ', '_')}_{fault}"
        folder.mkdir(parents=True, exist_ok=True)
        for t, data in st.frames:
            (folder / f"t{t:08.3f}.jpg").write_bytes(data)
    boards = [game.keyframes[0].grid]
    for tiles, _ in game.truth:
        boards.append(_after(boards[-1], tiles))
    watcher = Watcher(game.keyframes[0].grid, WatchConfig(settle_seconds=settle, tiles=game.tiles,
                                                           sure_new_tile=sure_new_tile),
                      occupancy_model=game.models[0], letters_net=game.models[1], words=_words(game.tiles))
    tally = Tally(seconds=st.frames[-1][0] + 1 / fps)
    resolved = [False] * len(st.moves)
    got: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
    pending_answer: int | None = None
    proposed_at: dict[int, tuple[float, float, float]] = {}
    deadline = [m.end for m in st.moves]
    if quick_next or patient:
        # The referee waits until the next move has been laid: a move still open when the next player's
        # tiles appear is committed by the watcher then (the issue's "new tiles of the next player seen
        # first" rule), or counted a tap at the end of the next move.
        deadline = [st.moves[min(i + 1, len(st.moves) - 1)].end for i in range(len(st.moves))]

    def first_open() -> int | None:
        return next((i for i, done in enumerate(resolved) if not done and game.truth[i][0]), None)

    for i, (tiles, score) in enumerate(game.truth):
        if not tiles:
            resolved[i] = True
            tally.empty += 1
        tally.ordinary_changes += ordinary(tiles, score)
    tally.changes = len(game.truth) - tally.empty
    for t, data in st.frames:
        window = next((i for i, m in enumerate(st.moves) if t <= m.end), len(st.moves) - 1)
        if pending_answer is not None and t >= st.moves[pending_answer].laid:
            watcher.set_board(boards[pending_answer + 1])
            pending_answer = None
        wall0, cpu0 = time.perf_counter(), time.process_time()
        status = watcher.feed(data, t)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        tally.cpu.append(cpu)
        m = first_open()
        if status.proposal is not None and m is not None and m not in proposed_at \
                and _tiles_of(status.proposal) == game.truth[m][0]:
            proposed_at[m] = (t, wall, cpu)
        if status.commit is not None:
            tiles = _tiles_of(status.commit)
            if m is None or not st.moves[window].tiles and window != m:
                tally.spurious += 1
                tally.notes.append(f"t={t}: commit {tiles} where no tile was put down")
                watcher.set_board(boards[window + 1])
                continue
            want, score = game.truth[m]
            got[m] += tiles
            _tally_tiles(tally, status.commit, watcher.board, want, score, game.tiles)
            if score is None and set(tiles) < set(want) and set(got[m]) < set(want) and st.moves[m].tiles:
                # a change of several plays between two photos, committed one play at a time: so far right
                watcher.set_board(watcher.board)
                continue
            if score is None and sorted(got[m]) == want:
                tiles = want  # the last of its plays: the change is on the board exactly
            if tiles == want and (score is None or status.commit.score == score):
                tally.exact += 1
                if m in proposed_at:
                    p_t, p_wall, p_cpu = proposed_at[m]
                    tally.latency.append(p_t - st.moves[m].last_hand)
                    tally.latency_wall.append(p_t - st.moves[m].last_hand + p_wall)
                    tally.latency_cpu.append(p_t - st.moves[m].last_hand + p_cpu)
                tally.commit_after_laid.append(t - st.moves[m].laid)
            elif set(tiles) < set(want):
                tally.partial += 1
                tally.notes.append(f"t={t}: PARTIAL commit {tiles} of {want}")
            else:
                tally.silent += 1
                tally.notes.append(f"t={t}: SILENTLY WRONG commit {tiles} score {status.commit.score}, "
                                   f"change {want} score {score}")
            resolved[m] = True
            if tiles != want:
                watcher.set_board(boards[m + 1])  # the referee corrects the record (counted above)
            else:
                watcher.set_board(watcher.board)
        elif status.phase is Phase.ASKING and m is not None and pending_answer is None:
            tally.asked += 1
            reason = ask_reason(status.question or "", status.squares, watcher.reading)
            tally.reasons[reason] += 1
            if ordinary(*game.truth[m]):
                tally.reasons_ordinary[reason] += 1
                tally.notes.append(f"t={t}: asked on an ordinary move, change {m + 1} {game.truth[m][0]}: "
                                   f"[{reason}] {status.question}")
            if (status.question or "").startswith("not sure of the letter") and watcher.reading is not None:
                # asked only for the ask policy: would committing the reading have been right?
                reading = watcher.reading
                from vision.watch import merged_rows

                _tally_tiles(tally, reading, merged_rows(watcher.board, reading), game.truth[m][0],
                             game.truth[m][1], game.tiles)
                tally.unsure_asked += 1
                right = _tiles_of(reading) == game.truth[m][0] and (game.truth[m][1] in (None, reading.score))
                tally.unsure_asked_right += right
                if not right:
                    tally.notes.append(f"t={t}: the ask policy caught a wrong reading of change {m + 1}: "
                                       f"{_tiles_of(reading)} score {reading.score}")
            if show:
                tally.notes.append(f"t={t}: asked about change {m + 1}: {status.question}")
            resolved[m] = True
            pending_answer = m
        for i, d in enumerate(deadline):
            if not resolved[i] and t >= d:
                resolved[i] = True
                tally.taps += 1
                tally.notes.append(f"t={t}: change {i + 1} {game.truth[i][0]} neither committed nor asked "
                                   f"(last: {status.phase.value}: {status.message})")
                watcher.set_board(boards[i + 1])
    return tally


def ordinary(tiles: list[tuple[int, int, str]], score: int | None) -> bool:
    """An ordinary move: tiles put down that are one legal play (a score exists: not two plays between
    two photos), none of them a blank. Nothing about it is doubtful in itself, so the watcher should
    commit it with no question; a question on it costs the referee a tap that no real doubt called for
    (unless the fault of the stream made one: a bump, glare over the move...)."""
    return bool(tiles) and score is not None and all(letter != "?" for _, _, letter in tiles)


# What a question is about, from the sentence `vision.watch.Watcher` asks with (its start), in the order
# `Watcher._doubt` / `_unexplained` / `_judge` ask them; "letter" and "not one legal play" are split
# further by `ask_reason`.
ASK_REASONS = (
    ("a tile of the game's board looks gone", "a known tile gone or moved"),
    ("a blank tile was played", "a blank"),
    ("the new tiles are not one legal play", "not one legal play"),
    ("the reader is unsure of this move", "the reader's own doubt about the move"),
    ("the move cannot be scored", "the move cannot be scored"),
    ("not sure of the letter", "letter"),
    ("the board looks changed on", "a change on the move's line where no tile is read"),
    ("tiles were added in the line", "tiles added in the move's line from another side"),
)


def ask_reason(question: str, squares: Any, reading: Any) -> str:
    """The reason a question was asked, for the asks table (`ASK_REASONS`). A letter question is split by
    the ask policy's rule that raised it (`vision.watch.Watcher._unsure_letters`): evidence against the
    letter (its point number reads another letter's value, or its nearest stored example is another
    letter) or a confidence below `sure_new_tile` with nothing vouching; "not one legal play" by whether
    the new tiles, as read, lie in one line."""
    reason = next((name for start, name in ASK_REASONS if question.startswith(start)), "other: " + question[:40])
    if reason == "not one legal play" and reading is not None:
        new = [(int(t.square[1:]) - 1, ord(t.square[0]) - 65) for t in reading.new_tiles or []]
        in_line = len({r for r, _ in new}) == 1 or len({c for _, c in new}) == 1
        return "not one legal play: " + ("in one line (a gap, or not joined)" if in_line else "not in one line")
    if reason == "letter":
        tags: set[str] = set()
        if reading is not None and reading.evidence:
            for r, c in squares:
                tags |= set(reading.evidence[r][c].split(","))
        if "!number" in tags:
            return "letter: its point number reads another letter's value"
        if "!shape" in tags:
            return "letter: its nearest stored example is another letter"
        return "letter: below the sure band, nothing vouching"
    return reason


def _asks_table(t: Tally, indent: str = "  ") -> str:
    """The asks by reason, each with how many were on ordinary moves (`ordinary`)."""
    if not t.reasons:
        return f"{indent}(no questions)"
    rows = [f"{indent}{n:4d} {reason} (on ordinary moves {t.reasons_ordinary[reason]})"
            for reason, n in t.reasons.most_common()]
    return "\n".join(rows)


def _tally_tiles(tally: Tally, reading: Any, rows: list[str], want: list[tuple[int, int, str]],
                 score: int | None, tiles: str) -> None:
    """A move committed, or asked about only for the ask policy: each new tile's confidence and evidence,
    whether its letter is right and whether the word list vouches for it (`vision.watch.word_vouched` on
    `rows`, the board after the move; None without a word list for the tile set)."""
    from vision.confidence import SURE
    from vision.watch import word_vouched

    words = _words(tiles)
    below = False
    record = []
    for tile in reading.new_tiles or []:
        r, c = int(tile.square[1:]) - 1, ord(tile.square[0]) - 65
        conf = float(reading.confidence[r][c])
        evidence = reading.evidence[r][c] if reading.evidence else ""
        vouch = None if words is None else word_vouched(rows, (r, c), words)
        tally.tiles.append((conf, evidence, (r, c, tile.letter) in want, vouch))
        if tile.letter != "?":
            record.append((conf, evidence, bool(vouch)))
            below |= conf < SURE
    tally.moves_below_sure += below
    if score is None:  # a change of several plays between two photos (jheidel): each play is judged alone,
        # right when every tile it lays is one of the change's (as the tally of commits judges it); judged as
        # the whole change, every play but the last counted as silently wrong in this line only
        right = bool(_tiles_of(reading)) and set(_tiles_of(reading)) <= set(want)
    else:
        right = _tiles_of(reading) == want and score == reading.score
    tally.policy_moves.append((record, right))


_WORDS: dict[str, Any] = {}


def _words(tiles: str) -> Any:
    """The word list's membership test for a tile set (English: the shipped default), None when none."""
    if tiles != "en":
        return None
    if "en" not in _WORDS:
        from lexicon.store import load_lexicon

        lex = load_lexicon()
        _WORDS["en"] = lex.__contains__
    return _WORDS["en"]


def _policy(t: Tally) -> str:
    """What each ask policy asks about the moves committed or asked about for the policy only: (sure
    below, ask when evidence contradicts a letter). Wrong readings a policy does not ask about would be
    committed silently wrong."""
    from vision.confidence import SURE, vouched

    def asks(record: list[tuple[float, str, bool]], below: float, contradicted: bool) -> bool:
        return any((contradicted and bool({"!number", "!shape"} & set(ev.split(","))))
                   or (conf < below and not vouch and not vouched(ev)) for conf, ev, vouch in record)

    parts = []
    for name, below, contradicted in (("reader's doubt only (0, no)", 0.0, False),
                                      ("default (0.9, evidence against asks)", 0.9, True),
                                      (f"any doubt ({SURE}, evidence against asks)", SURE, True)):
        asked = [right for record, right in t.policy_moves if asks(record, below, contradicted)]
        silent = sum(not right for record, right in t.policy_moves if not asks(record, below, contradicted))
        parts.append(f"{name}: asks {len(asked)} of {len(t.policy_moves)} moves (wrong readings caught "
                     f"{sum(not r for r in asked)}), silently wrong {silent}")
    lettered = t.tiles
    below_sure = [x for x in lettered if x[0] < SURE]
    return ("; ".join(parts) + f". New tiles {len(lettered)} (letter wrong {sum(not x[2] for x in lettered)}); "
            f"below {SURE}: {len(below_sure)}, the point number against {sum('!number' in x[1] for x in below_sure)}, "
            f"vouched by the words {sum(bool(x[3]) for x in below_sure)} (wrong among those "
            f"{sum(bool(x[3]) and not x[2] for x in below_sure)})")


def _median(values: list[float]) -> str:
    return f"{statistics.median(values):.2f}" if values else "-"


def _p90(values: list[float]) -> str:
    return f"{float(np.percentile(values, 90)):.3f}" if values else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default="rendered,cava_ro,jheidel")
    ap.add_argument("--faults", default=",".join(streams.FAULTS))
    ap.add_argument("--fps", type=float, default=1.0)
    ap.add_argument("--settle", type=float, default=WatchConfig().settle_seconds)
    ap.add_argument("--sure-new-tile", type=float, default=WatchConfig().sure_new_tile,
                    help="WatchConfig.sure_new_tile: a new tile read below it asks unless the words vouch "
                         "(0: only the reader's own doubt asks, the rule before the ask policy)")
    ap.add_argument("--quick-next", action="store_true",
                    help="the next player lays tiles before the earlier move's countdown ends")
    ap.add_argument("--patient", action="store_true",
                    help="a tap is counted only when a move is still open at the end of the next move (the "
                         "next player's tiles commit an open move); default: at the end of its own still "
                         "period (settle + 3 s after it was laid)")
    ap.add_argument("--rendered", type=int, default=3, help="rendered games (6 moves each)")
    ap.add_argument("--settle-sweep", default="", help="settle times to compare on the rendered games")
    ap.add_argument("--models", choices=["shipped", "heldout"], default="shipped")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/vision-train-cache"))
    ap.add_argument("--show", action="store_true", help="print every question and every miss")
    ap.add_argument("--policy-log", type=Path, metavar="FILE",
                    help="write the moves the ask policy judges (new tiles' confidence, evidence, words vouch; "
                         "reading right) as JSON, to compare policies")
    ap.add_argument("--write-frames", type=Path, metavar="DIR",
                    help="also write each stream as a folder of JPEG frames (for companion watch FOLDER)")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    wanted = set(args.games.split(","))
    games: list[Game] = []
    if "rendered" in wanted:
        games += rendered_games(args.rendered)
    photo_sets = wanted - {"rendered"}
    if photo_sets:
        found = photo_games(photo_sets, args.models, args.cache)
        if not found:
            print("no photographed games found (../shared/data/boards absent?): rendered games only")
        games += found
    if args.settle_sweep:
        for settle in (float(v) for v in args.settle_sweep.split(",")):
            total = Tally()
            for k, g in enumerate(g for g in games if g.name.startswith("rendered")):
                tally = watch_game(g, "clean", args.fps, settle, False, k + 1, args.show)
                total.add(tally)
                if args.show:
                    for note in tally.notes:
                        print(f"      {g.name}: {note}")
            print(f"settle {settle:4.1f} s: exact {total.exact}/{total.changes}, asked {total.asked}, partial commits "
                  f"{total.partial}, silently wrong {total.silent}, taps {total.taps}, laid -> committed median "
                  f"{_median(total.commit_after_laid)} s", flush=True)
        return 0
    print(f"{len(games)} games, faults {args.faults}, {args.fps:g} frames/s, settle {args.settle:g} s, "
          f"sure new tile {args.sure_new_tile:g}"
          f"{', next player quick' if args.quick_next else ''}, models {args.models}, frames 1632x1224 JPEG")
    grand = Tally()
    per_fault: dict[str, Tally] = defaultdict(Tally)
    for fault in args.faults.split(","):
        for k, game in enumerate(games):
            tally = watch_game(game, fault, args.fps, args.settle, args.quick_next, k + 1, args.show,
                               args.write_frames, args.sure_new_tile, args.patient)
            per_fault[fault].add(tally)
            grand.add(tally)
            extra = f" (+{tally.empty} unchanged photos, commits on them {tally.spurious})" if tally.empty else ""
            print(f"{fault:5s} {game.name:28s} exact {tally.exact}/{tally.changes}{extra}, asked {tally.asked}, "
                  f"silently wrong {tally.silent}, partial {tally.partial}, taps {tally.taps}; "
                  f"latency median {_median(tally.latency)} s (wall {_median(tally.latency_wall)} s)", flush=True)
            if args.show or tally.silent or tally.partial or tally.spurious:
                for note in tally.notes:
                    print(f"      {note}")
    for fault, t in per_fault.items():
        print(f"all games {fault:5s}: exact {t.exact}/{t.changes}, asked {t.asked}, silently wrong {t.silent}, "
              f"partial {t.partial}, taps {t.taps}, spurious {t.spurious}; latency median {_median(t.latency)} s "
              f"(wall {_median(t.latency_wall)} s)")
        print(f"  asked by reason ({t.asked}; on ordinary moves {sum(t.reasons_ordinary.values())} of "
              f"{t.ordinary_changes} ordinary moves: one legal play, no blank):")
        print(_asks_table(t, "    "))
    cpu_per_second = sum(grand.cpu) / max(grand.seconds, 1e-9)
    print(f"all: exact {grand.exact}/{grand.changes}, asked {grand.asked}, silently wrong {grand.silent}, "
          f"partial {grand.partial}, taps {grand.taps}, spurious {grand.spurious}")
    print(f"ask policy: {_policy(grand)}")
    if args.policy_log is not None:
        import json

        args.policy_log.write_text(json.dumps(grand.policy_moves), encoding="utf-8")
    print(f"latency last hand -> proposal: median {_median(grand.latency)} s frames' time, "
          f"{_median(grand.latency_wall)} s wall (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores), "
          f"{_median(grand.latency_cpu)} s with the proposing call's CPU time; laid -> committed median "
          f"{_median(grand.commit_after_laid)} s")
    print(f"reading cost per frame (2 MP JPEG, CPU, one thread): median {statistics.median(grand.cpu):.3f} s, "
          f"p90 {_p90(grand.cpu)} s over {len(grand.cpu)} frames")
    print(f"CPU per second of watching at {args.fps:g} frames/s: {cpu_per_second:.3f} s -> one 2-core server "
          f"carries {2 / cpu_per_second:.0f} watched tables (at 100% CPU; {1.4 / cpu_per_second:.0f} at 70%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
