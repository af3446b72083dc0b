"""axe-core on every page, light and dark: no serious or critical violation.

Each page is set up once and scanned in both schemes (the scheme is switched on the open page:
dark mode is CSS alone, `prefers-color-scheme`), the pages in two halves for the two workers.

axe is a test tool, so it lives with the tests: `tests/browser/vendor/axe-<version>.min.js` is
the single built file of the npm package (MPL-2.0, its licence header kept), checked in rather
than fetched, so the tests need no Node toolchain and no network, and the version is pinned by
its name.
Playwright injects it into each page (the context bypasses the CSP for this one script).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

AXE = next((Path(__file__).parent / "vendor").glob("axe-*.min.js"))
NAMES = ["Anne-Marie K", "Bartholomeus", "Christabella", "Dominique L."]


def _violations(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations"""
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


@pytest.fixture
def scanned_page(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**browser_context_args, color_scheme="light", bypass_csp=True)
    yield context.new_page()
    context.close()


def _in_both_schemes(page: Page) -> dict[str, list[str]]:
    """The page's violations in light and in dark, the page as it is (no reload between)."""
    found = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
        found[scheme] = _violations(page)
    page.emulate_media(color_scheme="light")
    return found


def _game(page: Page, base: str, rounds: int, variant: str = "shanghai") -> dict[str, Any]:
    game: dict[str, Any] = page.request.post(
        f"{base}/api/v1/games", data={"variant": variant, "players": NAMES}
    ).json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for number in range(1, rounds + 1):
        buys = {"buys": 1} if variant == "shanghai" else {}  # contract buys only by house rule
        results = [{"player": NAMES[0], "went_out": True, **buys}] + [
            # round 7 is laid down only by going out: the others still hold the whole deal
            {"player": name, "penalty": 5 * (seat + number) + (60 if number == 7 else 0)}
            for seat, name in enumerate(NAMES[1:])
        ]
        entered = page.request.post(
            f"{base}/api/v1/games/{game['id']}/rounds",
            data={"round": number, "results": results},
            headers=auth,
        )
        assert entered.status == 200, entered.text()
    return game


def _problems(page: Page) -> None:
    page.locator("#seat-1-penalty").fill("7")
    page.get_by_role("button", name="Save the round").tap()
    expect(page.locator("#error-summary")).to_be_focused()


def _hand(page: Page) -> None:
    page.locator("#seat-1-cards-open").tap()
    page.locator('#seat-1-hand .cp-key[data-card="KS"]').tap()


def _conflict(page: Page, base: str, game: dict[str, Any]) -> None:
    page.locator("label.out-toggle:has(#went-out-0)").tap()
    for seat in (1, 2, 3):
        page.locator(f"#seat-{seat}-penalty").fill(str(10 * seat))
    results = [{"player": NAMES[0], "went_out": True}] + [
        {"player": name, "penalty": 5} for name in NAMES[1:]
    ]
    page.request.post(
        f"{base}/api/v1/games/{game['id']}/rounds",
        data={"round": 3, "results": results},
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    page.get_by_role("button", name="Save the round").tap()
    expect(page.locator("#conflict")).to_be_visible()


def _undo_open(page: Page) -> None:
    page.locator("#undo > summary").tap()


def _large_text(page: Page) -> None:
    page.locator(".lang-picker summary").tap()
    page.get_by_role("link", name="Large text").tap()
    expect(page.locator("html")).to_have_attribute("data-text", "large")
    page.locator("#seat-1-cards-open").tap()


def _moved(page: Page, base: str, game: dict[str, Any]) -> None:
    """Another phone saves the round this form is for: the form says so in its save bar."""
    results = [{"player": NAMES[0], "went_out": True}] + [
        {"player": name, "penalty": 10} for name in NAMES[1:]
    ]
    number = len(page.request.get(f"{base}/api/v1/games/{game['id']}").json()["rounds"]) + 1
    saved = page.request.post(
        f"{base}/api/v1/games/{game['id']}/rounds",
        data={"round": number, "results": results},
        headers={"Authorization": f"Bearer {game['edit_token']}"},
    )
    assert saved.status == 200, saved.text()
    expect(page.locator("#form-moved")).to_be_visible(timeout=10_000)


def _pad_verdict(page: Page) -> None:
    for code in ("7S", "8S", "KH"):
        key = page.locator(f'.cp-pad [data-card="{code}"]')
        key.scroll_into_view_if_needed()
        key.tap()
    expect(page.locator("#verdict .verdict")).to_be_visible()
    page.locator(".cp-pad").evaluate("(pad) => pad.scrollIntoView({block: 'start'})")
    page.evaluate("window.scrollBy(0, 150)")
    expect(page.locator(".ref-pad-verdict")).to_be_visible()


def _too_many(page: Page) -> None:
    for index in range(4):
        page.locator(f"#new_names-{index}").fill(f"New {index}")
    page.locator(".club-new-game select[name=variant]").select_option("shanghai")
    expect(page.locator("#players-count")).to_have_class("players-count js-only is-off")


def _house_rules(page: Page) -> None:
    page.locator("#house-rules-summary").tap()
    expect(page.locator('input[name="hr_buying"]')).to_be_visible()


PAGES: dict[str, tuple[str, Callable[..., None] | None]] = {
    "start": ("/", None),
    "start, house rules open": ("/", _house_rules),
    "round screen": ("edit", None),
    "round screen, a hand on the picker": ("edit", _hand),
    "round screen, problems": ("edit", _problems),
    "round screen, a conflict": ("edit", _conflict),
    "round screen, undo asks": ("edit", _undo_open),
    "round screen, the game moved on": ("edit", _moved),
    "correction": ("correct", None),
    "score table": ("view", None),
    "finished game": ("finished", None),
    "referee": ("/referee", None),
    "referee, the verdict above the pad": ("/referee", _pad_verdict),
    "rules": ("/rules", None),
    "rules of a variant": ("/rules/contract", None),
    "not found": ("/no-such-page", None),
    "clubs": ("/clubs", None),
    "a club": ("club view", None),
    "a club's edit page": ("club edit", None),
    "a club's new game, too many": ("club edit", _too_many),
    "offline": ("/offline", None),
    "the API's docs": ("/api/v1/docs", None),
    # last: the choice is kept for the pages after it
    "round screen, large text": ("edit", _large_text),
}


def _club(page: Page, base: str, game_rounds: int) -> dict[str, Any]:
    """A club with one finished game of its four members, so its page has stats and a ladder."""
    club: dict[str, Any] = page.request.post(
        f"{base}/api/v1/clubs", data={"name": "Thursday table"}
    ).json()
    body = {"variant": "contract", "players": NAMES, "club": club["id"]}
    game = page.request.post(
        f"{base}/api/v1/games",
        data=body,
        headers={"Authorization": f"Bearer {club['edit_token']}"},
    ).json()
    auth = {"Authorization": f"Bearer {game['edit_token']}"}
    for number in range(1, game_rounds + 1):
        results = [{"player": NAMES[0], "went_out": True}] + [
            {"player": name, "penalty": 60 + 5 * seat} for seat, name in enumerate(NAMES[1:])
        ]
        entered = page.request.post(
            f"{base}/api/v1/games/{game['id']}/rounds",
            data={"round": number, "results": results},
            headers=auth,
        )
        assert entered.status == 200, entered.text()
    return club


@pytest.mark.parametrize("half", [0, 1])
def test_no_serious_or_critical_violations_on_any_page_light_or_dark(
    scanned_page: Page, live_server: str, half: int
) -> None:
    page = scanned_page
    game = _game(page, live_server, rounds=2)
    finished = _game(page, live_server, rounds=7, variant="contract")
    urls = {
        "edit": game["edit_url"],
        "correct": f"{game['edit_url']}/rounds/1",
        "view": game["view_url"],
        "finished": finished["edit_url"],
    }
    club = _club(page, live_server, game_rounds=7)
    urls.update({"club view": club["view_url"], "club edit": club["edit_url"]})
    found = {}
    names = list(PAGES)
    middle = len(names) // 2
    for name in names[:middle] if half == 0 else names[middle:]:  # large text stays last
        where, then = PAGES[name]
        page.goto(urls.get(where, live_server + where))
        if then in (_conflict, _moved):
            then(page, live_server, game)
        elif then is not None:
            then(page)
        if name == "finished game":
            expect(page.locator(".banner-winner")).to_be_visible()
        if name == "a club":
            expect(page.locator("main")).to_contain_text("Anne-Marie K")
        for scheme, violations in _in_both_schemes(page).items():
            found[f"{name} ({scheme})"] = violations
    assert len(found) == 2 * (middle if half == 0 else len(names) - middle)
    assert {name: v for name, v in found.items() if v} == {}
