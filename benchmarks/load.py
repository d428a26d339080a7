"""Load: one referee and N followers (default 20) on the real app; how long until every follower shows
each update.

    python benchmarks/load.py [--followers 20] [--updates 30] [--out /work/notes/bench/load.txt]

Starts `companion app --port <free> --data <tmp>` as a subprocess, starts a classic game from a referee
tab, opens N follower pages in headless Chromium (one browser, one context per follower, as separate
phones are) and waits until each shows "Watching (read-only)". Then it makes updates from the referee
tab, alternating "Pass" and "Undo last action" (each changes whose turn it is and is saved to the store;
passes alone would end the game after six scoreless turns), and for each update measures, per follower,
the time from the referee's tap to the follower showing the new "<player> to play".

How it is timed without busy polling: each follower page carries a MutationObserver that stamps
`Date.now()` when its text changes whose turn it shows; the script waits on each page with a 100 ms
`wait_for_function` poll and reads the stamps afterwards, so the wait order does not bias the figure.
The browser and Python share the system clock.

Then the same measure at the hub level (no browser): N subscribers on `companion.ui.hub.Hub` with the
real store; the time from `publish()` (which saves the turn first) until each callback ran.

Prints min / median / p90 / p99 / max and the share within 1 s, plus the app process's CPU time
(from /proc; the machine is shared, so wall times are noisy).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from browser.harness import PHONE, Tab, app_server, block_outside, cpu_seconds, launch, server_pid

OBSERVER = """() => {
  window.__state = null; window.__since = 0;
  const look = () => {
    const text = document.body.textContent || "";
    const s = text.includes("Ann to play") ? "Ann" : (text.includes("Bob to play") ? "Bob" : null);
    if (s !== null && s !== window.__state) { window.__state = s; window.__since = Date.now(); }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true, characterData: true,
                                                     attributes: true});
  look();
}"""


def distribution(values: list[float]) -> str:
    v = sorted(values)

    def pct(p: float) -> float:
        return v[min(len(v) - 1, round(p * (len(v) - 1)))]

    within = sum(1 for x in v if x <= 1.0) / len(v)
    return (f"n={len(v)} min {v[0]:.3f} s, median {statistics.median(v):.3f} s, p90 {pct(0.9):.3f} s, "
            f"p99 {pct(0.99):.3f} s, max {v[-1]:.3f} s; within 1 s: {within:.1%}")


def browser_load(followers: int, updates: int, out: list[str]) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, app_server(Path(tmp)) as url, sync_playwright() as p:
        pid = server_pid(url)
        browser = launch(p)
        ctx = browser.new_context(viewport=PHONE)
        block_outside(ctx)
        ref = Tab(ctx.new_page(), url)
        ref.open()
        ref.click("New game")
        ref.click("Classic Scrabble")
        ref.click("Start game")
        ref.text("Ann to play")
        pages: list[Any] = []
        t_open = time.perf_counter()
        for _ in range(followers):
            c = browser.new_context(viewport=PHONE)
            block_outside(c)
            tab = Tab(c.new_page(), url)
            tab.open(timeout=120_000)
            pages.append(tab.page)
        for page in pages:
            page.get_by_text("Watching (read-only)").first.wait_for(timeout=120_000)
            page.evaluate(OBSERVER)
        out.append(f"{followers} followers open and watching in {time.perf_counter() - t_open:.1f} s wall")
        cpu0 = cpu_seconds(pid)
        latencies: list[float] = []
        per_update: list[float] = []
        missed = 0
        for k in range(updates):
            name, expect = ("Pass", "Bob") if k % 2 == 0 else ("Undo last action", "Ann")
            btn = ref.button(name).first
            btn.wait_for(timeout=20_000)
            ref.page.wait_for_timeout(150)  # let the referee's semantics tree settle, as a person would
            t0 = time.time() * 1000
            btn.click()
            worst = 0.0
            for page in pages:
                try:
                    page.wait_for_function(f"window.__state === '{expect}'", polling=100, timeout=30_000)
                except Exception:  # noqa: BLE001 - a follower that never showed it is counted, not fatal
                    missed += 1
                    continue
                seen = float(page.evaluate("window.__since"))
                latencies.append((seen - t0) / 1000)
                worst = max(worst, (seen - t0) / 1000)
            per_update.append(worst)
            ref.text(f"{expect} to play")
        cpu = cpu_seconds(pid) - cpu0
        out.append(f"browser, {followers} followers x {updates} updates: tap -> follower shows it: "
                   + distribution(latencies))
        out.append("  slowest follower per update: " + distribution(per_update))
        out.append(f"  followers that never showed an update within 30 s: {missed}; app CPU during updates "
                   f"{cpu:.2f} s ({cpu / updates:.3f} s per update)")
        browser.close()


def hub_load(followers: int, updates: int, out: list[str]) -> None:
    import threading

    from companion.games.classic.table import new_classic
    from companion.ui.hub import Hub
    from companion.ui.table import PlayerInfo

    with tempfile.TemporaryDirectory() as tmp:
        hub = Hub()
        hub.configure(tmp)
        hub.set_game(new_classic([PlayerInfo("Ann", "red"), PlayerInfo("Bob", "blue")]))
        game = hub.game
        assert game is not None
        seen: dict[int, float] = {}
        lock = threading.Lock()

        def follower(i: int) -> Any:
            def cb() -> None:
                # What a follower's callback does first: read the shared game (page.run_task would render it).
                _ = (game.current_player, game.scores())
                with lock:
                    seen[i] = time.perf_counter()
            return cb

        for i in range(followers):
            hub.subscribe(f"f{i}", follower(i))
        latencies: list[float] = []
        c0 = time.process_time()
        for k in range(updates):
            seen.clear()
            t0 = time.perf_counter()
            game.pass_turn() if k % 2 == 0 else game.undo()
            hub.publish(exclude="referee")
            latencies += [seen[i] - t0 for i in range(followers)]
        cpu = time.process_time() - c0
        out.append(f"hub, {followers} subscribers x {updates} updates (store write + fan-out): "
                   + distribution(latencies) + f"; CPU {cpu / updates * 1000:.1f} ms per update")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--followers", type=int, default=20)
    parser.add_argument("--updates", type=int, default=30)
    parser.add_argument("--out", type=Path, default=Path("/work/notes/bench/load.txt"))
    parser.add_argument("--hub-only", action="store_true")
    args = parser.parse_args()
    header = (f"benchmarks/load.py --followers {args.followers} --updates {args.updates} "
              f"({time.strftime('%Y-%m-%d %H:%M:%S')}, load average {os.getloadavg()[0]:.1f} on "
              f"{os.cpu_count()} cores)")
    out: list[str] = [header]
    hub_load(args.followers, args.updates, out)
    print(out[-1], flush=True)
    if not args.hub_only:
        try:
            browser_load(args.followers, args.updates, out)
        except Exception as exc:  # noqa: BLE001 - say what the machine could not do, keep the hub figure
            out.append(f"browser load did not complete: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    text = "\n".join(out)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
