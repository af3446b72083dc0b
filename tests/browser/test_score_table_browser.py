"""The score table through a whole game, in headless Chromium on 320- and 360-px phones, in
English and German (issue 22 item 5, issue 19): the names stay pinned as the rounds scroll,
each head is the start of a name (initials where two players share a start) with the full name
for screen readers, no name or fact is broken inside a word, and every figure is a number of its
own with eight players at 320 px."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_phones import NAMES, broken_words, enter_by_api, figures_apart, new_game, sideways

SHARING = ["Bonifacio Ro", "Bonifacio Jo", "Diederik Jan", "Diederik Piet"]


def _finished(page: Page, base: str, names: list[str], lang: str) -> dict[str, Any]:
    """Seven rounds with three-digit totals, the widest figures a table shows (rummy, the game
    of two, ends at 100: four deals)."""
    if len(names) == 2:
        return new_game(page, base, 2, rounds=4, names=names, lang=lang)
    game = new_game(page, base, len(names), rounds=6, names=names, lang=lang)
    enter_by_api(
        page,
        base,
        game,
        7,
        [{"player": names[0], "went_out": True}]
        + [{"player": name, "penalty": 100 + 5 * seat} for seat, name in enumerate(names[1:])],
    )
    return game


def _heads(page: Page) -> list[str]:
    """What each player's head shows (the round's column left out)."""
    texts: list[str] = page.locator(".score-table thead th:not(.round-col)").evaluate_all(
        """(cells) => cells.map((cell) => [...cell.children]
             .filter((part) => part.getBoundingClientRect().width > 1)
             .map((part) => part.innerText.trim()).join(""))"""
    )
    return texts


def _names_pinned(page: Page) -> None:
    """Scrolled on to the last rounds, the first rounds gone under the game's pinned head, the
    names are in view just under that head."""
    head = page.locator("#game-head")
    first_row = page.locator(".score-table tbody tr").first
    page.evaluate(
        """() => { const row = document.querySelector(".score-table tbody tr");
                   const head = document.getElementById("game-head").offsetHeight;
                   const names = document.querySelector(".score-table thead").offsetHeight;
                   const bottom = row.getBoundingClientRect().bottom + window.scrollY;
                   window.scrollTo(0, bottom - head - names); }"""
    )
    head_box, row_box = head.bounding_box(), first_row.bounding_box()
    names_box = page.locator(".score-table thead th").last.bounding_box()
    assert head_box is not None and row_box is not None and names_box is not None
    head_bottom = head_box["y"] + head_box["height"]
    # the first round is gone under the pinned names
    assert row_box["y"] + row_box["height"] <= names_box["y"] + names_box["height"] + 1
    for cell in page.locator(".score-table thead th").all():
        box = cell.bounding_box()
        assert box is not None
        assert abs(box["y"] - head_bottom) <= 1, "pinned just under the game's head"
        seen = cell.evaluate(
            """(cell) => { const r = cell.getBoundingClientRect();
                 const hit = document.elementFromPoint(r.left + r.width / 2, r.bottom - 3);
                 return !!hit && cell.contains(hit); }"""
        )
        assert seen, cell.inner_text()


# Each size in one of the two languages; German (the longest names and words) at the tightest.
@pytest.mark.parametrize(
    ("lang", "width", "players"), [("en", 360, 4), ("de", 320, 2), ("en", 320, 5), ("de", 320, 8)]
)
def test_the_score_table_names_pinned_whole_words_and_figures_apart(
    phone: Any, live_server: str, lang: str, width: int, players: int
) -> None:
    page = phone(width)
    names = NAMES[:players] if players != 4 else ["Konstantinos", *NAMES[1:4]]
    game = _finished(page, live_server, names, lang)
    page.goto(game["view_url"])
    assert sideways(page) == 0
    # each head is the start of its player's name; the full name is the head's for a screen
    # reader, and in the key under the table
    for name, head in zip(names, _heads(page), strict=True):
        assert name.startswith(head) and head, (name, head)
        expect(page.get_by_role("columnheader", name=name, exact=True)).to_have_count(1)
    for name in names:
        if name not in _heads(page):
            expect(page.locator(".names-key")).to_contain_text(name)
    # nothing broken inside a word: the heads, the key, the round's facts, the head of the game
    for part in (".score-table thead", ".names-key", "#deal-facts", "#game-head"):
        if page.locator(part).count():
            assert broken_words(page.locator(part).first) == [], part
    # every figure its own number, every row, the totals too
    for row in page.locator(".score-table tbody tr, .score-table tfoot tr").all():
        assert figures_apart(row) == [], row.inner_text()
    assert figures_apart(page.locator(".score-table thead tr"), gap=2) == []
    _names_pinned(page)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_players_who_share_a_start_are_told_apart_by_their_initials(
    phone: Any, live_server: str, lang: str
) -> None:
    page = phone(360)
    game = _finished(page, live_server, SHARING, lang)
    page.goto(game["edit_url"])
    assert _heads(page) == ["BR", "BJ", "DJ", "DP"]
    for name in SHARING:  # a screen reader hears the whole name
        expect(page.get_by_role("columnheader", name=name, exact=True)).to_have_count(1)
    expect(page.locator(".names-key")).to_contain_text("BJ: Bonifacio Jo")
    assert sideways(page) == 0


def test_a_wide_screen_shows_the_whole_names(phone: Any, live_server: str) -> None:
    page = phone(800, 1200)  # a tablet held upright
    game = _finished(page, live_server, SHARING, "en")
    page.goto(game["view_url"])
    assert _heads(page) == SHARING
    expect(page.locator(".names-key")).to_be_hidden()
