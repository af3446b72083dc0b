"""Taps and scrolls per round: a round entered by thumb in headless Chromium, counted.

Plain script, not run in CI: `python bench/round_taps.py [--width 360 --height 740]` (~1 min).

A person is modelled as a thumb that only taps what it can see: before each tap, if the target
is not fully in the viewport and on top (nothing sticky over it), the page is swiped just far
enough to bring it in, and each swipe of up to three quarters of a screen counts as one scroll.
Taps are pointer activations the page itself receives (`pointerdown`); typed digits are not taps.
(Headless Chromium has no on-screen keyboard: the scroll a phone makes by itself to show the
focused field above its keyboard is not counted, nor needed by this model.)

Each entry method is measured over rounds 2 and 3 of a game (round 1 opens the page fresh; from
round 2 on, the page is wherever the last save left it), 4 and 8 players with 12-letter names:
- typed: mark who went out, type each other hand's points, save;
- picker: mark who went out, tap three cards for each other hand on the card picker, save;
- count: mark who went out, count each other hand by value (two low cards and a face card), save.

The drivers know both round screens: the one before issue 11 (a list of fieldsets with one
shared card picker below them) and the one after (a row per player, the picker inline).
"""

from __future__ import annotations

import argparse
import logging
import math
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import Locator, Page, expect, sync_playwright

from bench.common import serve
from referee.web import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
NAMES = [
    "Anne-Marie K", "Bartholomeus", "Christabella", "Dominique L.",
    "Evangelina M", "Friedemann O", "Gwendolyn P.", "Hildegard Q.",
]  # fmt: skip
# Each hand, by round (a round the same as the one before would be asked about: they differ).
POINTS = {1: "20", 2: "25", 3: "20"}
CARDS = {1: ["7H", "KS", "4D"], 2: ["7H", "KS", "QD"], 3: ["7H", "KS", "4D"]}  # 20, 25, 20
COUNTS = {1: [(0, 2), (1, 1)], 2: [(0, 1), (1, 2)], 3: [(0, 2), (1, 1)]}  # by value: the same

# A thumb is not a script: a moment between one action and the next (typing into a field at
# once after the tap that focuses it loses keys now and then in headless Chromium).
PAUSE_MS = 150

COUNT_TAPS = """
window.__taps = 0;
document.addEventListener("pointerdown", () => { window.__taps += 1; }, true);
"""


class Thumb:
    """Taps what it sees, swipes to what it doesn't, and counts both."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.scrolls = 0
        self.taps = 0
        viewport = page.viewport_size
        assert viewport is not None
        self.height = viewport["height"]

    def _hittable(self, target: Locator) -> bool:
        return bool(
            target.evaluate(
                """(el) => {
                  const r = el.getBoundingClientRect();
                  if (r.top < 0 || r.bottom > window.innerHeight || r.height === 0) return false;
                  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return !!hit && (el === hit || el.contains(hit) || hit.contains(el) ||
                                   (el.labels && [...el.labels].some((l) => l.contains(hit))));
                }"""
            )
        )

    def _swipe_to(self, target: Locator) -> None:
        box = target.bounding_box()
        assert box is not None
        margin = 16
        if box["y"] < 0:
            delta = box["y"] - margin - self._top_cover()
        else:
            delta = box["y"] + box["height"] - self.height + margin + self._bottom_cover()
        travelled = 0.0
        for _ in range(6):
            self.page.evaluate("(d) => window.scrollBy(0, d)", delta)
            travelled += abs(delta)
            if self._hittable(target):
                break
            delta = 48 if delta > 0 else -48
        self.scrolls += max(1, math.ceil(travelled / (0.75 * self.height)))

    def _top_cover(self) -> float:
        return float(self.page.evaluate(_COVER, "top"))

    def _bottom_cover(self) -> float:
        return float(self.page.evaluate(_COVER, "bottom"))

    def tap(self, target: Locator) -> None:
        target.wait_for(state="visible")
        if not self._hittable(target):
            self._swipe_to(target)
        box = target.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        self.taps += 1
        self.page.wait_for_timeout(PAUSE_MS)

    def type(self, text: str, into: Locator) -> None:
        """Digits into the field the last tap focused (a tap's focus comes a moment later)."""
        expect(into).to_be_focused()
        self.page.keyboard.type(text)
        self.page.wait_for_timeout(PAUSE_MS)


# The height of what sticks to the top or bottom of the viewport (a bar that covers content).
_COVER = """(edge) => {
  let cover = 0;
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el);
    if (style.position !== "sticky" && style.position !== "fixed") continue;
    const r = el.getBoundingClientRect();
    if (r.height === 0 || r.height > window.innerHeight / 2) continue;
    if (edge === "top" && r.top <= 1) cover = Math.max(cover, r.bottom);
    if (edge === "bottom" && r.bottom >= window.innerHeight - 1)
      cover = Math.max(cover, window.innerHeight - r.top);
  }
  return cover;
}"""


# -- the two round screens -------------------------------------------------------------------


def _is_rows_screen(page: Page) -> bool:
    return page.locator("form.round-form .player-row").count() > 0


def _mark_out(page: Page, thumb: Thumb, seat: int) -> None:
    if _is_rows_screen(page):
        thumb.tap(page.locator(f"label.out-toggle:has(#went-out-{seat})"))
    else:
        thumb.tap(page.locator(f'fieldset.seat[data-seat="{seat}"] .out-toggle'))


def enter_typed(page: Page, thumb: Thumb, players: int, number: int) -> None:
    _mark_out(page, thumb, 0)
    rows = _is_rows_screen(page)
    for seat in range(1, players):
        if rows and seat > 1:
            thumb.tap(page.locator("#next-player"))  # "Next" in the save bar moves on
        else:
            thumb.tap(page.locator(f"#seat-{seat}-penalty"))
        thumb.type(POINTS[number], page.locator(f"#seat-{seat}-penalty"))


def enter_picked(page: Page, thumb: Thumb, players: int, number: int) -> None:
    _mark_out(page, thumb, 0)
    if _is_rows_screen(page):
        for seat in range(1, players):
            if seat == 1:
                thumb.tap(page.locator(f"#seat-{seat}-cards-open"))
            else:  # "Next" moves the picker on to the next player
                thumb.tap(page.locator("#next-player"))
            page.locator(f"#seat-{seat}-hand .cp-pad").wait_for()
            for card in CARDS[number]:
                thumb.tap(page.locator(f'.cp-pad .cp-key[data-card="{card}"]'))
        return
    thumb.tap(page.locator("details.by-cards > summary"))
    for seat in range(1, players):
        if seat > 1:  # the picker moved to the first seat not out by itself
            thumb.tap(page.locator(".cp-targets button").nth(seat))
        for card in CARDS[number]:
            thumb.tap(page.locator(f'.cp-key[data-card="{card}"]'))


def enter_counted(page: Page, thumb: Thumb, players: int, number: int) -> None:
    _mark_out(page, thumb, 0)
    rows = _is_rows_screen(page)
    for seat in range(1, players):
        if rows:
            if seat == 1:
                thumb.tap(page.locator(f"#seat-{seat}-count-open"))
            else:  # "Next" moves the count on to the next player
                thumb.tap(page.locator("#next-player"))
            box = page.locator(f'.by-class[data-seat="{seat}"]')
            box.wait_for()
        else:
            box = page.locator(f'fieldset.seat[data-seat="{seat}"] details.by-class')
            thumb.tap(box.locator("summary"))
        for index, times in COUNTS[number]:
            plus = box.locator(".stepper").nth(index).locator("button").last
            for _ in range(times):
                thumb.tap(plus)


METHODS: dict[str, Callable[[Page, Thumb, int, int], None]] = {
    "typed": enter_typed,
    "picker": enter_picked,
    "count": enter_counted,
}


def play_round(page: Page, method: str, players: int, number: int) -> tuple[int, int, int]:
    """Round `number` entered by `method`: (taps counted here, taps the page saw, scrolls)."""
    page.wait_for_function(
        "(n) => [...document.querySelectorAll('h2')].some((h) => h.textContent.includes(n))",
        arg=f"round {number}",
    )
    page.evaluate("window.__taps = 0")
    thumb = Thumb(page)
    METHODS[method](page, thumb, players, number)
    seen = int(page.evaluate("window.__taps")) + 1  # and the tap on save
    thumb.tap(page.locator("form.round-form button[name=save]").first)
    try:
        page.wait_for_function(
            "(n) => [...document.querySelectorAll('h2')].some((h) => h.textContent.includes(n))",
            arg=f"round {number + 1}",
            timeout=10_000,
        )
    except Exception:
        page.screenshot(path="/tmp/taps-fail.png", full_page=True)
        raise
    return thumb.taps, seen, thumb.scrolls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=360)
    parser.add_argument("--height", type=int, default=740)
    parser.add_argument("--players", type=int, nargs="*", default=[4, 8])
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    folder = Path(tempfile.mkdtemp(prefix="rummy-taps-"))
    app = create_app(
        {"SECRET_KEY": "bench", "DATABASE_URL": f"sqlite:///{folder / 'taps.sqlite3'}"},
        instance_path=str(folder / "instance"),
    )
    base = serve(app)
    print(f"viewport {args.width}x{args.height}; rounds 2 and 3 of a game, per round\n")
    print(f"{'method':8} {'players':>7} {'taps':>6} {'scrolls':>8}")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for players in args.players:
            for method in METHODS:
                context = browser.new_context(
                    viewport={"width": args.width, "height": args.height},
                    device_scale_factor=2,
                    is_mobile=True,
                    has_touch=True,
                )
                page = context.new_page()
                page.add_init_script(COUNT_TAPS)
                game = page.request.post(
                    base + "/api/v1/games",
                    data={"variant": "contract", "players": NAMES[:players]},
                ).json()
                page.goto(game["edit_url"])
                taps, scrolls = [], []
                for number in (1, 2, 3):
                    counted, seen, swiped = play_round(page, method, players, number)
                    assert counted == seen, (method, players, number, counted, seen)
                    if number > 1:
                        taps.append(counted)
                        scrolls.append(swiped)
                saved = page.request.get(f"{base}/api/v1/games/{game['id']}").json()
                wanted = {name: 0 if seat == 0 else 65 for seat, name in enumerate(NAMES[:players])}
                assert saved["totals"] == wanted, saved["totals"]  # every round went in as meant
                print(
                    f"{method:8} {players:>7} {statistics.mean(taps):>6.1f} "
                    f"{statistics.mean(scrolls):>8.1f}"
                )
                context.close()
        browser.close()


if __name__ == "__main__":
    main()
