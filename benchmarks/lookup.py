"""Word lookup and rack check speed: the server's work, and a real browser's tap to the ruling on screen.

    python benchmarks/lookup.py [--lookups 20]

- judge (server): `JUDGE.judge` on one word, as the lookup screen calls it (ENABLE loaded), over a
  sample of words in and out of the list: median and maximum.
- rack check (server): `WordTable.rack_check` on the positions of a real Quackle game
  (`../shared/data/gcg`, every turn's board with the rack its player held): yes/no and best play.
- open (browser): from the tap on "Look up a word" to the word field in the page.
- tap to ruling (browser): from the tap on "Judge" to the ruling's text in the page, timed inside
  the page (performance.now() at the click, a MutationObserver on the semantics tree the ruling
  lands in), so Playwright's own round trips are not counted. Target: under 0.2 s.
Medians over the runs; the app process's CPU time is printed, as the machine may be shared.
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

from browser.harness import Tab, app_server, block_outside, cpu_seconds, launch, server_pid

GCG = Path(__file__).resolve().parents[2] / "shared" / "data" / "gcg" / "quackle_selfplay" / "traditional"
WORDS = ["QUIZ", "QI", "ZA", "CAT", "XYST", "JAROVIZE", "OXYPHENBUTAZONE", "AA", "EUOI", "WEET", "RAJA",
         "PELON", "TUBIFEX", "FUGIO", "ZZZ", "QAT", "SYZYGY", "BRANDIED", "AECIUM", "SKY"]

# Tap the button, then resolve with the milliseconds until the ruling's text is in the semantics tree.
TAP_TO_RULING = """([button, expected]) => new Promise((resolve, reject) => {
  const shown = () => {
    const node = document.querySelector('[flt-semantics-identifier="verdict"]');
    return node !== null && (node.textContent + ' ' + (node.getAttribute('aria-label') || '') +
      ' ' + document.body.innerText).includes(expected);
  };
  const t0 = performance.now();
  const observer = new MutationObserver(() => {
    if (shown()) { observer.disconnect(); resolve(performance.now() - t0); }
  });
  observer.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  setTimeout(() => { observer.disconnect(); reject(new Error('no ruling within 10 s')); }, 10000);
  button.dispatchEvent(new MouseEvent('click', {bubbles: true}));
})"""


def server_judge(repeats: int = 50) -> list[float]:
    from companion.ui.adapters import JUDGE

    JUDGE.warm()
    times = []
    for _ in range(repeats):
        for word in WORDS:
            t0 = time.perf_counter()
            JUDGE.judge([word])
            times.append(time.perf_counter() - t0)
    return times


def server_rack_checks(games: int = 5) -> tuple[list[float], list[float]]:
    """Every play of a few real games: the rack check (yes/no) and the best play, on the board it was played on."""
    from companion.games.classic.gcg import classic_events_from_record
    from companion.games.classic.rules import Play
    from companion.games.classic.table import rebuild
    from companion.gcg import read_gcg

    yes_no: list[float] = []
    best: list[float] = []
    for path in sorted(GCG.glob("*.gcg"))[:games]:
        events = classic_events_from_record(read_gcg(path))
        for i, event in enumerate(events):
            if isinstance(event, Play) and event.rack and i > 0:
                table = rebuild("bench", {}, events[:i])
                for ask_best, into in ((False, yes_no), (True, best)):
                    t0 = time.perf_counter()
                    table.rack_check(event.rack, ask_best)
                    into.append(time.perf_counter() - t0)
    return yes_no, best


def browser_lookups(playwright: object, lookups: int) -> tuple[list[float], list[float], float]:
    with tempfile.TemporaryDirectory() as data, app_server(Path(data)) as url:
        pid = server_pid(url)
        browser = launch(playwright)
        try:
            ctx = browser.new_context(viewport={"width": 390, "height": 1000})
            block_outside(ctx)
            tab = Tab(ctx.new_page(), url)
            tab.open()
            tab.button("New game").first.wait_for(timeout=30_000)
            opens: list[float] = []
            rulings: list[float] = []
            t0 = time.perf_counter()
            tab.click("Look up a word")
            tab.page.get_by_role("textbox", name="Words").first.wait_for(timeout=30_000)
            opens.append(time.perf_counter() - t0)
            for n in range(lookups):
                word = WORDS[n % len(WORDS)]
                tab.fill("Words", word)
                tab.page.wait_for_timeout(150)  # the typed text reaches the server first
                button = tab.button("Judge").first.element_handle(timeout=30_000)
                rulings.append(tab.page.evaluate(TAP_TO_RULING, [button, word]) / 1000)
                tab.tap_ident("verdict")
                if n % 5 == 4:  # also time opening the lookup from another screen
                    tab.click("Back")
                    tab.button("New game").first.wait_for(timeout=30_000)
                    t1 = time.perf_counter()
                    tab.click("Look up a word")
                    tab.page.get_by_role("textbox", name="Words").first.wait_for(timeout=30_000)
                    opens.append(time.perf_counter() - t1)
            cpu = cpu_seconds(pid)
        finally:
            browser.close()
    return opens, rulings, cpu


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.2f} ms, max {max(values) * 1000:.2f} ms (n={len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lookups", type=int, default=20)
    args = parser.parse_args()
    judge = server_judge()
    print(f"judge (server, one word, ENABLE): median {statistics.median(judge) * 1e6:.1f} us, "
          f"max {max(judge) * 1e6:.1f} us (n={len(judge)})")
    if GCG.is_dir():
        yes_no, best = server_rack_checks()
        print(f"rack check yes/no (server, real positions): {ms(yes_no)}")
        print(f"rack check best play (server, real positions): {ms(best)}")
    else:
        print(f"rack check: skipped, {GCG} is absent")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        opens, rulings, cpu = browser_lookups(p, args.lookups)
    print(f"open the lookup (browser, tap to word field): {ms(opens)}")
    print(f"tap Judge to ruling shown (browser): {ms(rulings)}")
    print(f"app process CPU for the browser run: {cpu:.2f} s")


if __name__ == "__main__":
    main()
