"""Referee app speed in a real browser (headless Chromium) on localhost.

    python benchmarks/app.py [--runs 3] [--photo PATH]

Measures, per run, on a fresh app process each time:
- first screen: from `page.goto` to the "New game" button usable (target <= 3 s);
- photo read: from handing the upload to the browser to the read board with its score shown
  (the real reader, `vision.read.read_board`, on a real photo);
- confirm to money: from tapping "Confirm play" to the new cash shown in the players strip
  (target <= 2 s; the Monopoly engine, store write and re-render).
Wall times are medians over the runs; the app process's CPU time (user + system, from /proc) for the
whole run is printed too, as the machine may be shared and wall time noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from browser.harness import Tab, app_server, cpu_seconds, launch, server_pid

DEFAULT_PHOTO = Path(__file__).resolve().parents[2] / "shared" / "data" / "boards" / "cava_ro" / "1_01.jpg"


def one_run(playwright: object, photo: Path) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as data, app_server(Path(data)) as url:
        pid = server_pid(url)
        browser = launch(playwright)
        try:
            ctx = browser.new_context(viewport={"width": 390, "height": 1100})
            page = ctx.new_page()
            tab = Tab(page, url)
            t0 = time.perf_counter()
            tab.open()
            tab.button("New game").first.wait_for(timeout=30_000)
            first = time.perf_counter() - t0
            tab.click("New game")
            tab.click("Start game")
            tab.text("Ann to play")
            with page.expect_file_chooser() as fc:
                tab.click("Upload photo")
            t1 = time.perf_counter()
            fc.value.set_files(str(photo))
            tab.wait_ident("play-score", timeout=60_000)
            read = time.perf_counter() - t1
            page.wait_for_timeout(300)
            t2 = time.perf_counter()
            tab.click("Confirm play", timeout=10_000)
            tab.text("M1,500", timeout=10_000)
            money = time.perf_counter() - t2
            cpu = cpu_seconds(pid)
        finally:
            browser.close()
    return {"first": first, "read": read, "money": money, "app_cpu": cpu}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--photo", type=Path, default=DEFAULT_PHOTO)
    args = ap.parse_args()
    if not args.photo.exists():
        print(f"photo not found: {args.photo} (the shared data folder sits beside the checkout)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as p:
        for i in range(args.runs):
            r = one_run(p, args.photo)
            results.append(r)
            print(f"run {i + 1}: first screen {r['first']:.2f} s, photo read {r['read']:.2f} s, "
                  f"confirm to money {r['money']:.2f} s (app CPU for the whole run {r['app_cpu']:.2f} s)")
    med = {k: statistics.median(r[k] for r in results) for k in results[0]}
    print(f"median over {len(results)} runs: first screen {med['first']:.2f} s (target <= 3), photo read "
          f"{med['read']:.2f} s, confirm to money {med['money']:.2f} s (target <= 2); app CPU per run "
          f"{med['app_cpu']:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
