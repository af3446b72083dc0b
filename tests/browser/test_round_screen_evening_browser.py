"""A whole evening by thumb on the round screen, in headless Chromium at 360 px (320 px where
the screen is at its tightest), in English and in German (issue 22): a conflict settled lands
on the next round, its table fits the phone, what was opened stays in view, a form the game
moved under says so at once, bad numbers are the app's to say, undo is within reach."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from table_phones import (
    NAMES,
    enter_by_api,
    figures_apart,
    in_view,
    new_game,
    saved_rounds,
    sideways,
)

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "enter": "Enter round {n}",
        "save": "Save the round",
        "mine": "Save mine instead",
        "keep": "Keep the saved one",
        "conflict": "Round {n} was saved on another phone",
        "cannot": "This round cannot be saved yet",
        "not_whole": "“1x7” is not a whole number.",
        "not_between": "-5 is not between 0",
        "undo": "Undo the last change",
        "undo_yes": "Yes, undo it",
        "undone": "Undone: round {n} taken back",
        "restore": "Restore round {n}",
        "moved_on": "Round {n} was saved on another phone. What is typed here stays.",
        "moved_back": "Round {n} was taken back on another phone. What is typed here stays.",
        "go_on": "Go on with round {n}",
    },
    "de": {
        "enter": "Runde {n} eintragen",
        "save": "Runde speichern",
        "mine": "Meinen Eintrag speichern",
        "keep": "Gespeichertes behalten",
        "conflict": "Runde {n} wurde auf einem anderen Handy gespeichert",
        "cannot": "Diese Runde kann noch nicht gespeichert werden",
        "not_whole": "„1x7“ ist keine ganze Zahl.",
        "not_between": "-5 liegt nicht zwischen 0",
        "undo": "Letzte Änderung rückgängig machen",
        "undo_yes": "Ja, zurücknehmen",
        "undone": "Rückgängig: Runde {n} zurückgenommen",
        "restore": "Runde {n} wiederherstellen",
        "moved_on": "Runde {n} wurde auf einem anderen Handy gespeichert. Was hier eingetragen "
        "ist, bleibt.",
        "moved_back": "Runde {n} wurde auf einem anderen Handy zurückgenommen. Was hier "
        "eingetragen ist, bleibt.",
        "go_on": "Weiter mit Runde {n}",
    },
}
LANGS = list(WORDS)


def _say(lang: str, key: str, **values: Any) -> str:
    return WORDS[lang][key].format(**values)


def _type_round(page: Page, lang: str, out: int, points: dict[int, int]) -> None:
    page.locator(f"label.out-toggle:has(#went-out-{out})").tap()
    for seat, value in points.items():
        page.locator(f"#seat-{seat}-penalty").fill(str(value))
    page.get_by_role("button", name=_say(lang, "save")).tap()


def _into_a_conflict(page: Page, base: str, players: int, lang: str) -> dict[str, Any]:
    """This phone types round 1 while another phone saves it first: the conflict view."""
    game = new_game(page, base, players, lang=lang)
    page.goto(game["edit_url"])
    names = NAMES[:players]
    enter_by_api(
        page,
        base,
        game,
        1,
        [{"player": names[0], "went_out": True}]
        + [{"player": name, "penalty": 20} for name in names[1:]],
    )
    _type_round(page, lang, 0, {seat: 30 + 5 * seat for seat in range(1, players)})
    expect(page.locator("#conflict")).to_contain_text(_say(lang, "conflict", n=1))
    return game


# -- 1. settling a conflict: the phone is on the next round -------------------------------------


@pytest.mark.parametrize(("lang", "choice"), [("en", "mine"), ("de", "keep")])
def test_after_either_choice_of_a_conflict_the_phone_is_on_the_next_round(
    phone: Any, live_server: str, lang: str, choice: str
) -> None:
    page = phone(360)
    game = _into_a_conflict(page, live_server, 4, lang)
    if choice == "mine":
        page.get_by_role("button", name=_say(lang, "mine")).tap()
    else:
        page.get_by_role("link", name=_say(lang, "keep")).tap()
    expect(page.locator("#conflict")).to_have_count(0)
    title = page.locator("#form-title")
    expect(title).to_have_text(_say(lang, "enter", n=2))
    assert in_view(title)
    expect(page.get_by_role("button", name=_say(lang, "mine"))).to_have_count(0)
    expect(page.locator('.round-link[href$="/rounds/1"]')).to_have_count(1)
    scores = [r["scores"][NAMES[1]] for r in saved_rounds(page, live_server, game)]
    assert scores == ([35] if choice == "mine" else [20])
    # the next round goes in as any other
    _type_round(page, lang, 1, {0: 5, 2: 10, 3: 15})
    expect(page.locator("#form-title")).to_have_text(_say(lang, "enter", n=3))
    assert len(saved_rounds(page, live_server, game)) == 2


# -- 2. the conflict table fits the phone ---------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "width", "players"), [("de", 360, 4), ("en", 360, 8), ("en", 320, 2), ("de", 320, 8)]
)
def test_the_conflict_table_fits_the_phone_with_this_phones_column_in_view(
    phone: Any, live_server: str, lang: str, width: int, players: int
) -> None:
    page = phone(width)
    _into_a_conflict(page, live_server, players, lang)
    assert sideways(page) == 0
    table = page.locator(".conflict-table")
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
    for cell in page.locator(".conflict-table tr > :last-child").all():
        cell_box = cell.bounding_box()
        assert cell_box is not None and cell_box["x"] + cell_box["width"] <= width
    # what this phone has is a number to compare, beside what was saved
    expect(page.locator(".conflict-table tbody tr").nth(1).locator("td")).to_have_text(
        ["20", re.compile(r"^35")]
    )


# -- 3. what was opened stays in view --------------------------------------------------------------


def _tap_in_view(page: Page, target: Any) -> None:
    """A thumb's tap: swiped to first if it is not in view."""
    if not in_view(target):
        target.evaluate("(el) => el.scrollIntoView({block: 'center'})")
    target.tap()


@pytest.mark.parametrize(
    ("lang", "width", "players", "first", "then"),
    [
        ("en", 360, 4, "cards", "count"),
        ("de", 360, 4, "count", "cards"),
        ("de", 320, 8, "cards", "count"),
        ("en", 320, 8, "count", "cards"),
    ],
)
def test_opening_one_players_count_or_picker_keeps_it_in_view(
    phone: Any, live_server: str, lang: str, width: int, players: int, first: str, then: str
) -> None:
    page = phone(width)
    game = new_game(page, live_server, players, rounds=1, lang=lang)
    page.goto(game["edit_url"])
    _tap_in_view(page, page.locator(f"#seat-1-{first}-open"))
    if first == "cards":
        for card in ("7H", "KS", "4D"):
            _tap_in_view(page, page.locator(f'#seat-1-hand .cp-key[data-card="{card}"]'))
    else:
        _tap_in_view(page, page.locator("#seat-1-hand .stepper button").last)
    tool = page.locator(f"#seat-2-{then}-open")
    _tap_in_view(page, tool)
    expect(tool).to_have_attribute("aria-expanded", "true")
    # what was opened is in view: the player's row and the first keys of what opened
    assert in_view(page.locator("#seat-2-penalty"))
    opened = (
        page.locator('#seat-2-hand .cp-key[data-card="AC"]')
        if then == "cards"
        else page.locator("#seat-2-hand .stepper button").first
    )
    expect(opened).to_be_visible()
    assert in_view(opened)
    assert not in_view(page.locator(".share summary").first)
    # and what the first player counted is kept
    assert page.locator("#seat-1-penalty").input_value() != ""


# -- 6. bad numbers are the app's to say, all at once, and nothing typed is changed ---------------


@pytest.mark.parametrize("lang", LANGS)
def test_bad_numbers_are_said_by_the_app_all_at_once_and_kept_as_typed(
    phone: Any, live_server: str, lang: str
) -> None:
    page = phone(360, locale="fr-FR")  # the browser's own language is neither
    game = new_game(page, live_server, 4, rounds=1, lang=lang)
    page.goto(game["edit_url"])
    page.locator("#seat-1-penalty").fill("-5")
    page.locator("#seat-2-penalty").fill("1x7")
    # a count by value that is not a number leaves the points box as it is
    page.locator("#seat-3-count-open").tap()
    page.locator("#seat-3-penalty").fill("20")
    page.locator("#seats-3-classes-0").fill("2y")
    page.locator("#seat-3-hand .stepper").first.locator("button").last.tap()
    expect(page.locator("#seats-3-classes-0")).to_have_value("2y")
    expect(page.locator("#seat-3-penalty")).to_have_value("20")
    # nothing for the browser to stop: the app is asked, and answers everything at once
    assert page.evaluate("document.getElementById('round-form').checkValidity()")
    page.get_by_role("button", name=_say(lang, "save")).tap()
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text(_say(lang, "cannot"))
    expect(summary).to_contain_text(_say(lang, "not_whole"))
    expect(summary).to_contain_text(_say(lang, "not_between"))
    assert summary.locator("li").count() >= 4  # who went out, -5, 1x7, the count
    expect(page.locator("html")).to_have_attribute("lang", lang)
    for seat, typed in ((1, "-5"), (2, "1x7")):
        expect(page.locator(f"#seat-{seat}-penalty")).to_have_value(typed)
    expect(page.locator("#seats-3-classes-0")).to_have_value("2y")
    assert saved_rounds(page, live_server, game)[1:] == []


# -- 7. undo within reach -------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "width", "players"), [("de", 360, 4), ("en", 320, 8)])
def test_undo_and_what_it_did_are_in_view_without_scrolling(
    phone: Any, live_server: str, lang: str, width: int, players: int
) -> None:
    page = phone(width)
    game = new_game(page, live_server, players, rounds=1, lang=lang)
    page.goto(game["edit_url"])
    _type_round(page, lang, 0, {seat: 5 * seat + 10 for seat in range(1, players)})
    expect(page.locator("#form-title")).to_have_text(_say(lang, "enter", n=3))
    # The new page is in the DOM before htmx settles it and scrolls it to its top (20 ms later):
    # it must land there, but a reading between the two would see the old page's scroll.
    page.wait_for_function("() => window.scrollY === 0", timeout=3000)
    undo = page.get_by_text(_say(lang, "undo"))
    assert in_view(undo), "undo is in view where the save landed"
    undo.tap()
    confirm = page.get_by_role("button", name=_say(lang, "undo_yes"))
    assert in_view(confirm)
    confirm.tap()
    done = page.locator(".restore p")
    expect(done).to_contain_text(_say(lang, "undone", n=2))
    assert in_view(done), "what undo did is not under the pinned head"
    assert in_view(page.get_by_role("button", name=_say(lang, "restore", n=2)))
    assert len(saved_rounds(page, live_server, game)) == 1


# -- 4. a form the game moved under says so at once -----------------------------------------------


@pytest.mark.parametrize(("lang", "move"), [("en", "on"), ("de", "back")])
def test_a_form_the_game_moved_under_says_so_at_once_and_goes_on_keeping_what_was_typed(
    phone: Any, live_server: str, lang: str, move: str
) -> None:
    page = phone(360)
    game = new_game(page, live_server, 4, rounds=2, lang=lang)
    page.goto(game["edit_url"])
    expect(page.locator("#form-title")).to_have_text(_say(lang, "enter", n=3))
    page.locator("label.out-toggle:has(#went-out-1)").tap()
    page.locator("#seat-0-penalty").fill("25")
    page.locator("#seat-2-penalty").fill("30")
    if move == "on":  # another phone saves round 3
        enter_by_api(
            page,
            live_server,
            game,
            3,
            [{"player": NAMES[0], "went_out": True}]
            + [{"player": name, "penalty": 40} for name in NAMES[1:4]],
        )
        said, next_round = _say(lang, "moved_on", n=3), 4
    else:  # another phone takes round 2 back
        answer = page.request.post(
            f"{live_server}/api/v1/games/{game['id']}/undo",
            headers={"Authorization": f"Bearer {game['edit_token']}"},
        )
        assert answer.ok
        said, next_round = _say(lang, "moved_back", n=2), 2
    moved = page.locator("#form-moved")
    expect(moved).to_contain_text(said, timeout=10_000)  # the next poll: a few seconds
    assert in_view(moved), "said where the thumb is"
    go_on = page.get_by_role("button", name=_say(lang, "go_on", n=next_round))
    assert in_view(go_on)
    go_on.tap()
    expect(page.locator("#form-title")).to_have_text(_say(lang, "enter", n=next_round))
    expect(moved).to_be_hidden()
    expect(page.locator("#seat-0-penalty")).to_have_value("25")  # kept, as typed
    expect(page.locator("#went-out-1")).to_be_checked()
    page.locator("#seat-3-penalty").fill("35")
    page.get_by_role("button", name=_say(lang, "save")).tap()
    expect(page.locator("#form-title")).to_have_text(_say(lang, "enter", n=next_round + 1))
    rounds = saved_rounds(page, live_server, game)
    assert len(rounds) == next_round
    assert list(rounds[-1]["scores"].values()) == [25, 0, 30, 35]


# -- issue 19: each saved round, refusal and conflict said once, through one live region ----------

# Every text the page's live region is given, as it is given (installed on every page).
WATCH_ANNOUNCER = """
window.__said = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("announcer");
  if (!region) return;
  new MutationObserver(() => {
    const text = region.textContent.trim();
    if (text) window.__said.push(text);
  }).observe(region, {childList: true, characterData: true, subtree: true});
});
"""


def _live_regions(page: Page) -> list[tuple[str, str]]:
    """The live regions of the page's accessibility tree (Chromium's, by CDP): (politeness, the
    text inside), for the regions that hold any text."""
    cdp = page.context.new_cdp_session(page)
    nodes = {node["nodeId"]: node for node in cdp.send("Accessibility.getFullAXTree")["nodes"]}
    cdp.detach()

    def text(node: dict[str, Any]) -> str:
        own = node.get("name", {}).get("value", "") if node.get("role", {}).get("value") in (
            "StaticText", "text") else ""  # fmt: skip
        inner = " ".join(text(nodes[child]) for child in node.get("childIds", []) if child in nodes)
        return " ".join(part for part in (own, inner) if part).strip()

    regions = []
    for node in nodes.values():
        live = {p["name"]: p["value"].get("value") for p in node.get("properties", [])}.get("live")
        if live in ("polite", "assertive") and not node.get("ignored"):
            said = text(node)
            if said:
                regions.append((live, said))
    return regions


def _said_once(page: Page, text: str, *, besides: str = "") -> None:
    """`text` said once through a live region (`besides`: another sentence that holds it)."""
    page.wait_for_function(
        "([text, besides]) => window.__said.some((s) => s.includes(text) && s !== besides)",
        arg=[text, besides],
        timeout=10_000,
    )
    page.wait_for_timeout(300)  # anything said twice would be said by now
    said = [s for s in page.evaluate("window.__said") if text in s and s != besides]
    assert len(said) == 1, said
    regions = [r for r in _live_regions(page) if text in r[1] and r[1] != besides]
    assert len(regions) == 1, _live_regions(page)


@pytest.mark.parametrize("lang", LANGS)
def test_a_saved_round_a_refusal_and_a_conflict_are_each_said_once_through_a_live_region(
    phone: Any, live_server: str, lang: str
) -> None:
    page = phone(360)
    page.add_init_script(WATCH_ANNOUNCER)
    game = new_game(page, live_server, 3, rounds=0, lang=lang)
    page.goto(game["edit_url"])
    entered = {"en": "Round 1 entered", "de": "Runde 1 eingetragen"}[lang]
    _type_round(page, lang, 0, {1: 25, 2: 30})
    _said_once(page, entered)
    # refused: every problem, said once (the summary is focused, not an alert of its own)
    page.locator("#seat-1-penalty").fill("7")
    page.get_by_role("button", name=_say(lang, "save")).tap()
    expect(page.locator("#error-summary")).to_be_focused()
    _said_once(page, _say(lang, "cannot"))
    assert page.locator("[role=alert]").count() == 0
    # a conflict: another phone saved round 2 first
    enter_by_api(
        page,
        live_server,
        game,
        2,
        [{"player": NAMES[0], "went_out": True}]
        + [{"player": name, "penalty": 20} for name in NAMES[1:3]],
    )
    # The game's stream tells this phone at once: the form says the game moved on, once.
    moved = _say(lang, "moved_on", n=2)
    expect(page.locator("#form-moved")).to_contain_text(moved)
    _said_once(page, moved)
    page.locator("label.out-toggle:has(#went-out-0)").tap()
    page.locator("#seat-1-penalty").fill("10")
    page.locator("#seat-2-penalty").fill("15")
    page.get_by_role("button", name=_say(lang, "save")).tap()
    expect(page.locator("#conflict")).to_be_visible()
    _said_once(page, _say(lang, "conflict", n=2), besides=moved)


def test_a_round_saved_from_the_outbox_is_said_once(phone: Any, live_server: str) -> None:
    page = phone(360)
    page.add_init_script(WATCH_ANNOUNCER)
    game = new_game(page, live_server, 3, rounds=0, lang="de")
    page.goto(game["edit_url"])
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    _type_round(page, "de", 0, {1: 25, 2: 30})
    _said_once(page, "Runde 1 eingetragen: wartet auf Netz")
    page.context.set_offline(False)
    _said_once(page, "Runde 1 eingetragen: gespeichert ✓")


# -- issue 19: large text, beside dark mode ------------------------------------------------------

LARGE = {"en": ("Large text", "Normal text"), "de": ("Große Schrift", "Normale Schrift")}


@pytest.mark.parametrize(("lang", "players"), [("en", 4), ("de", 8)])
def test_large_text_is_kept_and_the_round_screen_and_score_table_fit_360_px(
    phone: Any, live_server: str, lang: str, players: int
) -> None:
    page = phone(360)
    game = new_game(page, live_server, players, rounds=6, lang=lang)
    page.goto(game["edit_url"])
    page.locator(".lang-picker summary").tap()
    page.get_by_role("link", name=LARGE[lang][0]).tap()
    expect(page.locator("html")).to_have_attribute("data-text", "large")
    page.wait_for_load_state("load")  # the new page's stylesheets, not only its first bytes
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "27px"
    assert sideways(page) == 0, "the round screen"
    for what in ("cards", "count"):
        page.locator(f"#seat-1-{what}-open").tap()
        expect(page.locator(f"#seat-1-{what}-open")).to_have_attribute("aria-expanded", "true")
        assert sideways(page) == 0, what
        assert in_view(page.locator("#seat-1-penalty"))
    # kept on this phone, like the theme: the score table too, every figure its own number
    page.goto(game["view_url"])
    expect(page.locator("html")).to_have_attribute("data-text", "large")
    assert sideways(page) == 0, "the score table"
    for row in page.locator(".score-table tbody tr, .score-table tfoot tr").all():
        assert figures_apart(row) == [], row.inner_text()
    assert figures_apart(page.locator(".score-table thead tr"), gap=2) == [], "the names"
    total = page.locator(".score-table tfoot td").last
    size = float(total.evaluate("(cell) => parseFloat(getComputedStyle(cell).fontSize)"))
    assert size >= (24 if players <= 4 else 14)  # 150 % where eight columns leave room
    page.locator(".lang-picker summary").tap()
    page.get_by_role("link", name=LARGE[lang][1]).tap()
    expect(page.locator("html")).not_to_have_attribute("data-text", "large")
    page.wait_for_load_state("load")  # the new page's stylesheets, not only its first bytes
    assert page.evaluate("getComputedStyle(document.documentElement).fontSize") == "18px"


# -- 9. a Dutch table's suit letters on the round screen too ---------------------------------------


def test_a_dutch_table_types_its_hands_with_r_and_k(phone: Any, live_server: str) -> None:
    page = phone(360)
    game = new_game(page, live_server, 3, lang="nl")
    page.goto(game["edit_url"])
    page.locator("label.out-toggle:has(#went-out-0)").tap()
    page.locator("#seat-1-cards-open").tap()
    page.locator("#seats-1-cards").fill("HR 10K")  # heer van ruiten, klaveren tien
    expect(page.locator("#seat-1-penalty")).to_have_value("20")
    expect(page.locator('#seat-1-hand .cp-key[data-card="KD"] .cp-badge')).to_have_attribute(
        "data-count", "1"
    )
    page.locator("#seat-2-penalty").fill("15")
    page.get_by_role("button", name="Ronde opslaan").tap()
    expect(page.locator("#form-title")).to_have_text("Ronde 2 invoeren")
    assert list(saved_rounds(page, live_server, game)[0]["scores"].values()) == [0, 20, 15]
