"""The round screen at a real table, in headless Chromium: 2 to 8 players with 12-letter names
on 320- and 360-px phones, typed rounds counted in taps, problems in view, undo that asks, the
game's language, the first dealer by name, a conflict between two phones, rematch and sharing."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from table_phones import in_view, sideways

NAMES = [
    "Anne-Marie K", "Bartholomeus", "Christabella", "Dominique L.",
    "Evangelina M", "Friedemann O", "Gwendolyn P.", "Hildegard Q.",
]  # fmt: skip
assert all(len(name) == 12 for name in NAMES)

# Pointer activations the page receives: what a thumb does (typed digits are not taps).
COUNT_TAPS = """
window.__taps = 0;
document.addEventListener("pointerdown", () => { window.__taps += 1; }, true);
"""


def _game(page: Page, base: str, players: int, rounds: int = 1, **extra: Any) -> dict[str, Any]:
    """A game by the API: contract for 3 to 8 players, rummy for 2; `rounds` entered already."""
    names = NAMES[:players]
    variant = "contract" if players > 2 else "rummy"
    body = {"variant": variant, "players": names, **extra}
    game: dict[str, Any] = page.request.post(f"{base}/api/v1/games", data=body).json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for number in range(1, rounds + 1):
        results = [{"player": names[0], "went_out": True}] + [
            # round 7 is laid down only by going out: the others still hold the whole deal
            {"player": name, "penalty": 5 * (seat + number) + (60 if number == 7 else 0)}
            for seat, name in enumerate(names[1:])
        ]
        page.request.post(
            f"{base}/api/v1/games/{game['id']}/rounds",
            data={"round": number, "results": results},
            headers=auth,
        )
    return game


class Thumb:
    """Taps only what is in view; when something is not, swipes once to it and counts that."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.scrolls = 0

    def tap(self, target: Locator) -> None:
        target.wait_for(state="visible")
        if not in_view(target):
            self.scrolls += 1
            target.evaluate("(el) => el.scrollIntoView({block: 'center'})")
        assert in_view(target)
        box = target.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

    def type(self, text: str, into: Locator) -> None:
        expect(into).to_be_focused()
        self.page.keyboard.type(text)


# -- no sideways scroll, any table, any entry method --------------------------------------------


@pytest.mark.parametrize("width", [320, 360])
def test_no_sideways_scroll_on_any_entry_method_and_problemsin_view(
    phone: Any, live_server: str, screenshot_dir: Path, width: int
) -> None:
    page = phone(width)
    for players in (2, 4, 6, 8):
        _check_the_round_screen(page, live_server, screenshot_dir, width, players)


def _check_the_round_screen(
    page: Page, live_server: str, screenshot_dir: Path, width: int, players: int
) -> None:
    game = _game(page, live_server, players, rounds=2)
    page.goto(game["edit_url"])
    assert not sideways(page), ("the round screen", players)
    # the card picker under a player's row, a few cards tapped
    page.locator("#seat-1-cards-open").tap()
    for card in ("10H", "KS"):
        page.locator(f'#seat-1-hand .cp-key[data-card="{card}"]').tap()
    assert not sideways(page), ("the card picker", players)
    badge = page.locator('#seat-1-hand .cp-key[data-card="10H"] .cp-badge')
    expect(badge).to_have_attribute("data-count", "1")
    suit = page.locator('#seat-1-hand .cp-key[data-card="10H"] span[aria-hidden]').first
    badge_box, suit_box = badge.bounding_box(), suit.bounding_box()
    assert badge_box and suit_box and badge_box["y"] >= suit_box["y"] + suit_box["height"] - 1
    # counting by value (where the variant has few enough classes to count by)
    if page.locator("#seat-2-count-open").count():
        page.locator("#seat-2-count-open").tap()
        page.locator("#seat-2-hand .stepper").first.locator("button").last.tap()
        assert not sideways(page), ("counting by value", players)
    if players == 8:
        page.screenshot(path=str(screenshot_dir / f"round-{width}-{players}-hand.png"))
    # Saved with points no hand can hold for the last player: the problems are in view, focused
    page.locator("label.out-toggle:has(#went-out-0)").tap()
    last = players - 1
    page.locator(f"#seat-{last}-penalty").fill("9999")
    page.get_by_role("button", name="Save the round").tap()
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    assert in_view(summary.locator("li").first)
    assert not sideways(page), ("the problems", players)
    expect(summary).to_contain_text(NAMES[last])
    expect(page.locator(f"#seat-{last}-problems")).to_contain_text(NAMES[last])
    if players == 8:
        page.screenshot(path=str(screenshot_dir / f"round-{width}-{players}-problems.png"))
    summary.locator(f'a[href="#seat-{last}-penalty"]').tap()
    expect(page.locator(f"#seat-{last}-penalty")).to_be_focused()
    assert in_view(page.locator(f"#seat-{last}-penalty"))
    # the score table, watched
    page.goto(game["view_url"])
    assert not sideways(page), ("the score table", players)
    if players == 8:
        page.locator("#scores").scroll_into_view_if_needed()
        page.screenshot(path=str(screenshot_dir / f"table-{width}-{players}.png"))


# -- taps and scrolls of a typed round ------------------------------------------------------------


def _typed_round(page: Page, players: int, thumb: Thumb) -> None:
    thumb.tap(page.locator("label.out-toggle:has(#went-out-0)"))
    for seat in range(1, players):
        thumb.tap(page.locator("#next-player" if seat > 1 else f"#seat-{seat}-penalty"))
        thumb.type(str(5 * (seat + 2)), page.locator(f"#seat-{seat}-penalty"))
    thumb.tap(page.get_by_role("button", name="Save the round"))


@pytest.mark.parametrize(("players", "most_taps", "most_scrolls"), [(4, 8, 0), (8, 16, 1)])
def test_a_typed_round_takes_few_taps_and_at_most_one_scroll(
    phone: Any, live_server: str, players: int, most_taps: int, most_scrolls: int
) -> None:
    page = phone(360, 740)
    game = _game(page, live_server, players)
    page.goto(game["edit_url"])
    thumb = Thumb(page)
    _typed_round(page, players, thumb)
    expect(page.get_by_role("heading", name="Enter round 3")).to_be_visible()
    taps = page.evaluate("window.__taps")
    assert taps == players + 1  # out, the first field, Next for each other player, save
    assert taps <= most_taps and thumb.scrolls <= most_scrolls
    saved = page.request.get(f"{live_server}/api/v1/games/{game['id']}").json()
    assert list(saved["rounds"][1]["scores"].values()) == [
        0,
        *(5 * (s + 2) for s in range(1, players)),
    ]


# -- undo asks first ------------------------------------------------------------------------------


def test_undo_cannot_remove_a_round_by_one_stray_tap(
    page: Page, live_server: str, screenshot_dir: Path
) -> None:
    page.add_init_script(COUNT_TAPS)
    game = _game(page, live_server, 4, rounds=1)
    page.goto(game["edit_url"])
    undo = page.locator("#undo > summary")
    undo.scroll_into_view_if_needed()
    box = undo.bounding_box()
    assert box is not None
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.touchscreen.tap(*middle)  # a stray tap, and another on the same spot
    page.touchscreen.tap(*middle)
    page.wait_for_timeout(500)
    assert len(page.request.get(f"{live_server}/api/v1/games/{game['id']}").json()["rounds"]) == 1
    # One deliberate question and answer: "Undo round 1?" "Yes, undo it"
    undo.tap()
    expect(page.locator(".undo-question")).to_have_text("Undo round 1?")
    confirm = page.locator("#undo-confirm")
    confirm_box = confirm.bounding_box()
    assert confirm_box is not None and confirm_box["y"] > box["y"] + box["height"]  # not under it
    page.screenshot(path=str(screenshot_dir / "round-undo-asks.png"))
    confirm.tap()
    restore = page.locator("#restore")
    expect(restore).to_have_text("Restore round 1")
    assert page.request.get(f"{live_server}/api/v1/games/{game['id']}").json()["rounds"] == []
    page.screenshot(path=str(screenshot_dir / "round-undone.png"))
    restore.tap()
    expect(page.locator(".score-table tbody tr")).to_have_count(1)
    page.locator(".history summary").tap()
    expect(page.locator(".history li").first).to_contain_text("Restored: round 1")


# -- the game's language --------------------------------------------------------------------------


def test_a_german_game_opens_in_german_on_an_english_phone(phone: Any, live_server: str) -> None:
    page = phone(360, locale="en-US")  # Accept-Language: en-US, and no language chosen
    game = _game(page, live_server, 4, rounds=1, lang="de")
    for link in (game["view_url"], game["edit_url"]):
        page.goto(link)
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("#scores-title")).to_have_text("Punkte")
    expect(page.get_by_role("heading", name="Runde 2 eintragen")).to_be_visible()
    sheet = page.request.get(f"{live_server}/games/{game['id']}/sheet.pdf")
    assert "-de-" in sheet.headers["content-disposition"]
    # This phone chooses English: it keeps its choice on the game's pages
    page.locator(".lang-picker summary").tap()
    page.locator('.lang-picker a[hreflang="en"]').tap()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(game["view_url"])
    expect(page.locator("#scores-title")).to_have_text("Scores")


# -- the first dealer, by name --------------------------------------------------------------------


def test_the_first_dealer_is_chosen_by_name(page: Page, live_server: str) -> None:
    page.goto(live_server + "/")
    dealer = page.locator("#first_dealer")
    expect(dealer).to_be_enabled()
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        page.locator(f"#players-{seat}").fill(name)
    expect(dealer.locator("option:not([hidden])")).to_have_text(["Ann", "Bo", "Cy"])
    dealer.select_option(label="Cy")
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".game-head .dealer")).to_have_text("Cy deals")


def test_without_javascript_the_first_dealer_is_a_second_step(
    browser: Browser, live_server: str
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(live_server + "/")
    expect(page.locator("#first_dealer")).to_be_hidden()
    for seat, name in enumerate(["Ann", "Bo", "Cy"]):
        page.locator(f"#players-{seat}").fill(name)
    page.get_by_role("button", name="Start the game").click()
    expect(page.get_by_role("group", name="Who deals first?")).to_be_visible()
    page.get_by_label("Bo").check()
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator(".game-head .dealer")).to_have_text("Bo deals")
    context.close()


def test_without_javascript_a_round_goes_in_by_the_plain_form(
    browser: Browser, live_server: str, screenshot_dir: Path
) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 320, "height": 740})
    page = context.new_page()
    game = _game(page, live_server, 3, rounds=0)
    page.goto(game["edit_url"])
    expect(page.locator("#next-player")).to_be_hidden()  # what only a script can work
    expect(page.locator("#seat-1-cards-open")).to_be_hidden()
    page.get_by_role("button", name="Save the round").click()
    summary = page.locator("#error-summary")
    expect(summary).to_contain_text("Mark who went out")
    assert page.url.endswith("#round-form")  # the page opens at the form and its problems
    page.screenshot(path=str(screenshot_dir / "round-no-js.png"), full_page=True)
    page.locator("#went-out-0").check()
    page.locator("#seat-1-hand > summary").click()  # the cards, by hand
    page.locator("#seats-1-cards").fill("QS 5H")
    page.locator("#seat-2-penalty").fill("20")
    page.get_by_role("button", name="Save the round").click()
    expect(page.get_by_role("heading", name="Enter round 2")).to_be_visible()
    assert not sideways(page)
    saved = page.request.get(f"{live_server}/api/v1/games/{game['id']}").json()
    assert list(saved["rounds"][0]["scores"].values()) == [0, 15, 20]
    context.close()


# -- two phones, one round ------------------------------------------------------------------------


def test_after_a_conflict_the_entry_stays_on_its_round_beside_the_saved_one(
    page: Page, phone: Any, live_server: str, screenshot_dir: Path
) -> None:
    game = _game(page, live_server, 3, rounds=0)
    other = phone(360)
    for each in (page, other):
        each.goto(game["edit_url"])
    for each, points in ((other, ("20", "30")), (page, ("25", "30"))):
        each.locator("label.out-toggle:has(#went-out-0)").tap()
        each.locator("#seat-1-penalty").fill(points[0])
        each.locator("#seat-2-penalty").fill(points[1])
        each.get_by_role("button", name="Save the round").tap()
        if each is other:
            expect(other.get_by_role("heading", name="Enter round 2")).to_be_visible()
    conflict = page.locator("#conflict")
    expect(conflict).to_contain_text("Round 1 was saved on another phone")
    expect(conflict.locator("tr.differs td")).to_have_text(["20", re.compile(r"^25")])
    expect(page.get_by_role("heading", name="Correct round 1")).to_be_visible()
    expect(page.locator("#seat-1-penalty")).to_have_value("25")  # this phone's entry, kept
    page.screenshot(path=str(screenshot_dir / "round-conflict.png"), full_page=True)
    page.get_by_role("button", name="Save mine instead").tap()
    # settled: the phone is on the next round (issue 22), not left on the conflict
    expect(page.get_by_role("heading", name="Enter round 2")).to_be_visible()
    expect(page.locator("#conflict")).to_have_count(0)
    saved = page.request.get(f"{live_server}/api/v1/games/{game['id']}").json()
    assert [r["scores"][NAMES[1]] for r in saved["rounds"]] == [25]


# -- the end: play again, share -------------------------------------------------------------------


def test_a_finished_game_offers_a_rematch_and_sharing(
    page: Page, live_server: str, screenshot_dir: Path
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    game = _game(page, live_server, 3, rounds=7, first_dealer=NAMES[2])
    page.goto(game["view_url"])
    expect(page.locator(".banner-winner")).to_contain_text("wins")
    page.locator("#share-result").tap()
    expect(page.locator(".share-status")).to_have_text("Link copied")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert game["view_url"] in copied and "Anne-Marie K 0" in copied
    page.screenshot(path=str(screenshot_dir / "round-finished.png"), full_page=True)
    page.get_by_role("button", name="Play again").tap()
    expect(page.get_by_role("heading", name="Enter round 1")).to_be_visible()
    expect(page.locator(".game-head .dealer")).to_have_text(f"{NAMES[0]} deals")  # after Chri…
    assert page.url != game["edit_url"] and "/edit/" in page.url


# -- a phone on its side --------------------------------------------------------------------------


def test_on_its_side_the_round_and_the_totals_are_side_by_side(
    phone: Any, live_server: str, screenshot_dir: Path
) -> None:
    page = phone(740, 360)
    game = _game(page, live_server, 6, rounds=4)
    page.goto(game["edit_url"])
    totals = page.locator(".score-table tfoot td").last  # its cells stick to the foot
    assert in_view(totals) and not sideways(page)
    for seat in (1, 5):  # typing down the round: the totals stay in view beside it
        page.locator(f"#seat-{seat}-penalty").focus()
        assert in_view(page.locator(f"#seat-{seat}-penalty")) and in_view(totals)
    page.screenshot(path=str(screenshot_dir / "round-landscape.png"))
    page.goto(game["view_url"])
    assert in_view(page.locator(".score-table tfoot td").last)
    assert not sideways(page)


# -- light and dark -------------------------------------------------------------------------------


def test_dark_mode_follows_the_phone_and_the_switch(
    phone: Any, live_server: str, screenshot_dir: Path
) -> None:
    page = phone(360, color_scheme="dark")
    game = _game(page, live_server, 4, rounds=2)
    page.goto(game["edit_url"])
    ground = "getComputedStyle(document.body).backgroundColor"
    assert page.evaluate(ground) == "rgb(21, 23, 26)"
    page.screenshot(path=str(screenshot_dir / "round-dark.png"))
    page.locator(".lang-picker summary").tap()
    page.locator(".theme-to-light").tap()  # this phone chooses light, whatever its scheme
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.wait_for_load_state("load")  # the new page's stylesheets, not only its first bytes
    assert page.evaluate(ground) == "rgb(255, 255, 255)"
    page.locator(".lang-picker summary").tap()
    page.locator(".theme-to-dark").tap()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.wait_for_load_state("load")
    assert page.evaluate(ground) == "rgb(21, 23, 26)"


def test_high_contrast_drops_the_greys(phone: Any, live_server: str) -> None:
    for scheme in ("light", "dark"):
        page = phone(360, color_scheme=scheme, contrast="more")
        page.goto(live_server + "/")
        colours = page.evaluate(
            """() => { const s = getComputedStyle(document.documentElement);
                       return [s.getPropertyValue("--muted"), s.getPropertyValue("--ink")]; }"""
        )
        muted = page.evaluate("getComputedStyle(document.querySelector('.variant-summary')).color")
        ink = page.evaluate("getComputedStyle(document.body).color")
        assert muted == ink, (scheme, colours)
