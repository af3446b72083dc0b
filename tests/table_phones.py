"""What the browser tests of a table's evening share: phones of any width and language, games
made by the API, and what a thumb can see (in view, nothing over it, no word broken, no figure
run into the next)."""

from __future__ import annotations

import itertools
from typing import Any

from playwright.sync_api import Locator, Page

NAMES = [
    "Anne-Marie K", "Bartholomeus", "Christabella", "Dominique L.",
    "Evangelina M", "Friedemann O", "Gwendolyn P.", "Hildegard Q.",
]  # fmt: skip


def new_game(
    page: Page,
    base: str,
    players: int,
    rounds: int = 0,
    *,
    names: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A game by the API: contract for 3 to 8 players, rummy for 2; `rounds` entered already
    (the first player out, the others 5 × (seat + round) points)."""
    names = names or NAMES[:players]
    variant = extra.pop("variant", "contract" if players > 2 else "rummy")
    body = {"variant": variant, "players": names, **extra}
    game: dict[str, Any] = page.request.post(f"{base}/api/v1/games", data=body).json()
    for number in range(1, rounds + 1):
        results = [{"player": names[0], "went_out": True}] + [
            {"player": name, "penalty": 5 * (seat + number) + (60 if number == 7 else 0)}
            for seat, name in enumerate(names[1:])
        ]
        enter_by_api(page, base, game, number, results)
    return game


def enter_by_api(
    page: Page, base: str, game: dict[str, Any], number: int, results: list[dict[str, Any]]
) -> None:
    """Another phone (a script) saves round `number`."""
    answer = page.request.post(
        f"{base}/api/v1/games/{game['id']}/rounds",
        data={"round": number, "results": results},
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert answer.status == 200, answer.text()


def saved_rounds(page: Page, base: str, game: dict[str, Any]) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = page.request.get(f"{base}/api/v1/games/{game['id']}").json()[
        "rounds"
    ]
    return rounds


def in_view(target: Locator) -> bool:
    """Whether a thumb can tap it as the screen stands: inside the viewport, nothing over it."""
    return bool(
        target.evaluate(
            """(el) => {
              const r = el.getBoundingClientRect();
              if (r.height === 0 || r.top < 0 || r.bottom > window.innerHeight) return false;
              const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
              return !!hit && (el.contains(hit) || hit.contains(el) ||
                               [...(el.labels || [])].some((label) => label.contains(hit)));
            }"""
        )
    )


def sideways(page: Page) -> int:
    """How many pixels the page is wider than the phone (0: none), once its stylesheets are in
    (a heading can be found before they are, on a busy machine, and the page measured bare)."""
    page.wait_for_load_state("load")
    wide: int = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    return max(0, wide)


# Every word of the text inside `root` that the browser set on more than one line.
BROKEN_WORDS = """(root) => {
  const broken = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest(".visually-hidden, [hidden]")) continue;
    if (getComputedStyle(parent).display === "none") continue;
    for (const match of node.data.matchAll(/[^\\s\\-–·]+/gu)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


def broken_words(target: Locator) -> list[str]:
    """The words inside `target` broken across lines ("Bartho/lomeus")."""
    found: list[str] = target.evaluate(BROKEN_WORDS)
    return found


# Each cell's text as drawn: its box, and whether it spills out of its cell.
FIGURES = """(row) => [...row.children].map((cell) => {
  const rects = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim() || node.parentElement.closest(".visually-hidden")) continue;
    let clipped = false;  // a part kept for screen readers only (1 px, clipped)
    for (let el = node.parentElement; el && el !== cell; el = el.parentElement) {
      if (el.getBoundingClientRect().width <= 1) clipped = true;
    }
    if (clipped) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    rects.push(...[...range.getClientRects()].filter((r) => r.width > 0));
  }
  const box = cell.getBoundingClientRect();
  return {
    text: cell.innerText.trim(),
    left: Math.min(...rects.map((r) => r.left)),
    right: Math.max(...rects.map((r) => r.right)),
    cellLeft: box.left, cellRight: box.right,
  };
})"""


def figures_apart(row: Locator, gap: float = 4) -> list[str]:
    """What runs together in a table row: two cells' texts closer than `gap` px, or a text
    wider than its cell ("70100" read for 70 and 100)."""
    cells: list[dict[str, Any]] = row.evaluate(FIGURES)
    problems = []
    for cell in cells:
        if cell["left"] < cell["cellLeft"] - 0.5 or cell["right"] > cell["cellRight"] + 0.5:
            problems.append(f"{cell['text']!r} spills out of its cell")
    for before, after in itertools.pairwise(cells):
        if after["left"] - before["right"] < gap:
            problems.append(f"{before['text']!r} runs into {after['text']!r}")
    return problems
