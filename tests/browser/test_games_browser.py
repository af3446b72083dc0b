"""A whole game by thumb in headless Chromium at 360x740, watched live from a second phone."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
# Each round: who went out, and the others' points (one of them counted by class taps).
ROUNDS = [
    (0, {1: 25, 2: 30, 3: 15}),
    (1, {0: 10, 2: 40, 3: 5}),
    (2, {0: 35, 1: 20, 3: 50}),
    (3, {0: 5, 1: 15, 2: 10}),
    (0, {1: 60, 2: 25, 3: 30}),
    (1, {0: 15, 2: 20, 3: 15}),
    # Round 7 is laid down only by going out: every other hand still holds all 12 cards
    # dealt, 60 points at least.
    (2, {0: 60, 1: 85, 3: 70}),
]


# A hand tapped on the card picker: the points box adds it up with contract's values.
PICKED = {3: (3, ["JK", "AS", "10H", "QS"])}  # round 3, Di: 15 + 15 + 10 + 10 = 50


def _enter_round(
    page: Page, out: int, points: dict[int, int], first_class_taps: bool, number: int = 0
) -> None:
    page.locator(f"label.out-toggle:has(#went-out-{out})").tap()
    picked_seat, picked_cards = PICKED.get(number, (None, []))
    for seat, value in points.items():
        if seat == picked_seat:
            page.locator(f"#seat-{seat}-cards-open").tap()
            for card in picked_cards:
                page.locator(f'#seat-{seat}-hand .cp-key[data-card="{card}"]').tap()
            expect(page.locator(f"#seat-{seat}-penalty")).to_have_value(str(value))
            expect(page.locator(f"#seat-{seat}-sum")).to_have_text(f"{value} points")
            continue
        if first_class_taps and value == 15 and seat != out:
            # 15 = three low cards, counted by tapping "+" three times
            page.locator(f"#seat-{seat}-count-open").tap()
            plus = page.locator(f"#seat-{seat}-hand .stepper").first.locator("button").last
            for _ in range(3):
                plus.tap()
            expect(page.locator(f"#seat-{seat}-penalty")).to_have_value("15")
            continue
        field = page.locator(f"#seat-{seat}-penalty")
        field.tap()
        field.fill(str(value))
    page.get_by_role("button", name="Save the round").tap()


def test_a_whole_game_by_thumb(
    page: Page, browser: Browser, live_server: str, screenshot_dir: Path
) -> None:
    page.goto(live_server + "/")
    for seat, name in enumerate(PLAYERS):
        page.locator(f"#players-{seat}").fill(name)
    page.screenshot(path=str(screenshot_dir / "games-start.png"), full_page=True)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.get_by_role("heading", name=re.compile("Enter round 1"))).to_be_visible()
    expect(page.locator(".game-head .contract")).to_have_text("2 sets of 3")
    edit_url = page.url
    view_url = edit_url.split("/edit/")[0]

    watcher_context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    watcher = watcher_context.new_page()
    watcher.goto(view_url)
    expect(watcher.locator(".empty")).to_be_visible()

    totals = [0, 0, 0, 0]
    for number, (out, points) in enumerate(ROUNDS, start=1):
        _enter_round(page, out, points, first_class_taps=number in (1, 4), number=number)
        for seat, value in points.items():
            totals[seat] += value
        if number < 7:
            expect(
                page.get_by_role("heading", name=re.compile(f"Enter round {number + 1}"))
            ).to_be_visible()
        if number == 1:
            # the other phone sees it without reloading
            expect(watcher.locator(".score-table tfoot td").nth(1)).to_have_text("25", timeout=8000)
            page.screenshot(path=str(screenshot_dir / "games-round-2.png"), full_page=True)
            watcher.screenshot(path=str(screenshot_dir / "games-watching.png"), full_page=True)
        if number == 6:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(screenshot_dir / "games-entering.png"))

    foot = page.locator(".score-table tfoot td")
    expect(foot).to_have_text([str(t) for t in totals])
    assert totals == [125, 205, 125, 185]
    winner = "Cy"  # tied with Ann on 125: Cy's 0 in round 7 beats Ann's 60
    expect(page.locator(".banner-winner")).to_contain_text(winner)
    expect(watcher.locator(".banner-winner")).to_contain_text(winner, timeout=8000)
    page.screenshot(path=str(screenshot_dir / "games-finished.png"), full_page=True)

    # A correction: round 2, Cy had 45 not 40
    page.get_by_role("link", name="Correct round 2").tap()
    field = page.locator("#seat-2-penalty")
    expect(field).to_have_value("40")
    field.fill("45")
    page.screenshot(path=str(screenshot_dir / "games-correction.png"), full_page=True)
    page.get_by_role("button", name="Save the round").tap()
    # back on the game, and the address says so
    page.wait_for_url(re.compile(r"/edit/[^/]+#scores$"))
    expect(foot.nth(2)).to_have_text(str(totals[2] + 5))
    expect(watcher.locator(".score-table tfoot td").nth(2)).to_have_text(
        str(totals[2] + 5), timeout=8000
    )
    # ... and undone, after a question
    page.locator("#undo > summary").tap()
    expect(page.locator(".undo-question")).to_have_text("Undo the correction of round 2?")
    page.locator("#undo-confirm").tap()
    expect(foot.nth(2)).to_have_text(str(totals[2]))
    page.locator(".history summary").tap()
    expect(page.locator(".history li").first).to_contain_text("Undone")
    expect(page.locator("#restore")).to_have_text("Restore round 2")

    # Language switch
    page.locator(".lang-picker summary").tap()
    page.locator('.lang-picker a[hreflang="de"]').tap()
    expect(page.locator(".score-table thead th").first).to_have_text("Runde")
    expect(page.locator(".banner-winner")).to_contain_text("gewinnt")
    page.screenshot(path=str(screenshot_dir / "games-german.png"), full_page=True)
    watcher_context.close()


def test_buys_and_the_card_picker_under_each_player(
    page: Page, live_server: str, screenshot_dir: Path
) -> None:
    game = page.request.post(
        live_server + "/api/v1/games", data={"variant": "shanghai", "players": PLAYERS[:3]}
    ).json()
    page.goto(game["edit_url"])
    page.locator("#seat-0-cards-open").tap()
    expect(page.locator("#seat-0-hand .cp-pad")).to_be_visible()
    # Ann goes out: her hand closes (it is not counted), and Bo's cards open under his row
    page.locator("label.out-toggle:has(#went-out-0)").tap()
    expect(page.locator("#seat-0-hand")).not_to_have_attribute("open", "")
    page.locator("#seat-1-cards-open").tap()
    expect(page.locator("#seat-1-cards-open")).to_have_attribute("aria-expanded", "true")
    for card in ("KS", "QH"):
        page.locator(f'#seat-1-hand .cp-key[data-card="{card}"]').tap()
    expect(page.locator("#seat-1-penalty")).to_have_value("20")
    # Bo bought twice: "+" twice, and the form says what is left of the limit of 3
    buys = page.locator('.player[data-seat="1"] .buys')
    for _ in range(2):
        buys.locator(".stepper button").last.tap()
    expect(buys.locator("output")).to_have_text("Buys left: 1 of 3")
    page.locator('.player[data-seat="1"]').screenshot(
        path=str(screenshot_dir / "games-buys-left.png")
    )
    page.locator("#seat-2-penalty").fill("35")
    page.get_by_role("button", name="Save the round").tap()
    expect(page.locator(".score-table .buys-badge")).to_have_text(
        re.compile(r"^\s*2\s*\(2 buys\)$")
    )
    page.locator("#scores").screenshot(path=str(screenshot_dir / "games-buys.png"))
    # Correcting the round: Bo's cards and buys are as entered
    page.get_by_role("link", name="Correct round 1").tap()
    expect(page.locator("#seats-1-cards")).to_have_value("KS QH")
    expect(page.locator('.player[data-seat="1"] .buys output')).to_have_text("Buys left: 1 of 3")


def test_house_rules_open_on_the_start_page_and_start_the_game(
    page: Page, live_server: str, screenshot_dir: Path, console_errors: list[str]
) -> None:
    page.goto(live_server + "/")
    for seat, name in enumerate(PLAYERS[:3]):
        page.locator(f"#players-{seat}").fill(name)
    assert page.locator('input[name="hr_buying"]').count() == 0  # not drawn until opened
    page.locator("#house-rules-summary").tap()
    buying = page.locator('input[name="hr_buying"]')
    expect(buying).to_be_visible()
    expect(page.locator("#house-rules-summary")).to_be_focused()  # the tap's place is kept
    buying.check()
    # Another variant keeps the rules open, with its own values.
    page.locator("#variant").select_option("rummy")
    expect(page.locator('input[name="hr_target"]')).to_have_value("100")
    page.locator("#variant").select_option("contract")
    expect(page.locator('input[name="hr_target"]')).to_have_value("")  # contract's own, swapped in
    page.locator('input[name="hr_buying"]').check()
    page.screenshot(path=str(screenshot_dir / "games-house-rules.png"), full_page=True)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.get_by_role("heading", name=re.compile("Enter round 1"))).to_be_visible()
    expect(page.locator(".rules-in-force")).to_contain_text("1 house rule in force")
    assert console_errors == []


def test_house_rules_open_without_javascript(browser: Browser, live_server: str) -> None:
    context = browser.new_context(java_script_enabled=False, viewport={"width": 360, "height": 740})
    page = context.new_page()
    page.goto(live_server + "/")
    page.locator("#players-0").fill("Ann")
    page.locator("#house-rules-summary").click()
    page.get_by_role("button", name="Change the house rules").click()
    expect(page.locator('input[name="hr_buying"]')).to_be_visible()
    expect(page.locator("#players-0")).to_have_value("Ann")  # nothing typed is lost
    context.close()
