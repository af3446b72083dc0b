"""The referee page in a 360x740 Chromium: every kind of check, by tap and by typing, in English
and German, with and without JavaScript. Screenshots go to test-artifacts/screenshots/."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

# A 400 for a card that can't be read is the answer we ask for; htmx logs it. A verdict asked
# while the one before is on its way replaces it (`hx-sync="this:replace"`): htmx logs the
# abort as two errors (on a busy machine a tap can land while the last verdict is in flight).
# A request that fails outright still shows, as `htmx:sendError` or `htmx:responseError`.
EXPECTED = (
    "status of 400",
    "Response Status Error Code 400",
    "htmx:sendAbort",
    "htmx:afterRequest",
)


def unexpected(errors: list[str]) -> list[str]:
    return [text for text in errors if not any(known in text for known in EXPECTED)]


def tap(page: Page, *codes: str) -> None:
    for code in codes:
        page.locator(f'.cp-pad [data-card="{code}"]').tap()


def verdict_is(page: Page, word: str) -> None:
    """Wait for the big word of the verdict (htmx answers a moment after the tap)."""
    expect(page.locator("#verdict .verdict .ref-mark")).to_have_text(word)


def fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("window.__cspViolations") == []
    sizes = page.locator(".cp-pad button:visible, .ref-tabs a, .ref-submit").evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
    )
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes
    # No label spills out of its key ("Rückgängig" did, in German, four keys to a row).
    spilled = page.locator(".cp-tool:visible, .ref-tabs a, .ref-submit").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert spilled == []


def test_meld_by_tapping_in_english(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    page.goto(f"{live_server}/referee?lang=en")
    tap(page, "7H", "8H", "JK")
    expect(page.locator("#cards")).to_have_value("7♥ 8♥ JK")
    verdict_is(page, "✓ Valid")
    expect(page.locator("#verdict")).to_contain_text("The joker stands for 6♥.")
    # The badge counts, the address is the check.
    expect(page.locator('.cp-pad [data-card="7H"] .cp-badge')).to_have_attribute("data-count", "1")
    assert "cards=7%E2%99%A5+8%E2%99%A5+JK" in page.url or "cards=7%E2%99%A5%208" in page.url
    # A wrong card turns it red and says why; a tap on a chip takes it out again.
    tap(page, "9S")
    verdict_is(page, "✗ Not valid")
    page.locator("[data-cp-field=cards] .cp-chip", has_text="9♠").tap()
    expect(page.locator("#cards")).to_have_value("7♥ 8♥ JK")
    verdict_is(page, "✓ Valid")
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-meld-en-360.png"), full_page=True)
    assert unexpected(console_errors) == []


def test_meld_typed_in_german_syncs_the_grid(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    page.goto(f"{live_server}/referee?lang=de")
    page.locator("#cards").fill("D♣ D♥ D♠ D♠")
    # Typed text lights up the grid: the queen of spades twice, with German letters.
    expect(page.locator('.cp-pad [data-card="QS"] .cp-badge')).to_have_attribute("data-count", "2")
    expect(page.locator('.cp-pad [data-card="QS"]')).to_have_attribute(
        "aria-label", "D, Pik-Dame, 2 gewählt"
    )
    expect(page.locator("[data-cp-field=cards] .cp-chip")).to_have_text(["D♣", "D♥", "D♠", "D♠"])
    verdict_is(page, "✓ Gültig")
    expect(page.locator("#verdict")).to_contain_text("Gültig: Das ist ein Satz.")
    # A card the table cannot read is named, in German, and nothing typed is lost.
    page.locator("#cards").fill("D♣ D♥ X♠")
    expect(page.locator("#verdict .form-errors")).to_contain_text("„X♠“ ist keine Karte")
    expect(page.locator("#cards")).to_have_value("D♣ D♥ X♠")
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-meld-de-360.png"), full_page=True)
    assert unexpected(console_errors) == []


def test_contract_going_out_in_the_last_round_in_german(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    page.goto(f"{live_server}/referee?lang=de&check=contract&round=5&variant=short")
    with page.expect_navigation():
        page.locator("#variant").select_option("contract")
    expect(page.locator("#round")).to_have_value("1")  # the short game's round 5 is not kept
    with page.expect_navigation():
        page.locator("#round").select_option("7")
    expect(page.locator("#round")).to_have_value("7")
    tap(page, "3H", "4H", "5H", "6H", "7H")  # 12 dealt + 1 drawn: the whole hand is 13
    page.locator(".cp-pad [data-cp-action=next]").tap()
    tap(page, "3S", "4S", "5S", "6S")
    page.locator(".cp-pad [data-cp-action=next]").tap()
    page.locator("#melds").press("End")  # typing and tapping mix: the last meld is typed
    page.locator("#melds").type("8♣ 9♣ 10♣ B♣")
    verdict_is(page, "✗ Ungültig")
    expect(page.locator("#verdict")).to_contain_text("nur durch Hinausgehen")
    page.locator("#going_out").check()
    verdict_is(page, "✓ Gültig")
    expect(page.locator("#verdict")).to_contain_text("der Spieler geht hinaus")
    expect(page.locator("[data-cp-field=melds] .cp-group")).to_have_text(
        ["Meldung 1", "Meldung 2", "Meldung 3"]
    )
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-contract-de-360.png"), full_page=True)
    assert unexpected(console_errors) == []


def test_layoff_with_two_fields_sharing_the_grid(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    page.goto(f"{live_server}/referee?lang=en&check=layoff")
    tap(page, "7H", "8H", "9H")
    page.locator(".cp-target", has_text="To lay off").tap()
    expect(page.locator(".cp-target", has_text="To lay off")).to_have_attribute(
        "aria-pressed", "true"
    )
    tap(page, "10H", "JH")
    expect(page.locator("#meld")).to_have_value("7♥ 8♥ 9♥")
    expect(page.locator("#cards")).to_have_value("10♥ J♥")
    verdict_is(page, "✓ Valid")
    expect(page.locator("#verdict .ref-meld .card")).to_have_text(["7♥", "8♥", "9♥", "10♥", "J♥"])
    page.locator(".cp-pad [data-cp-action=undo]").tap()
    expect(page.locator("#cards")).to_have_value("10♥")
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-layoff-en-360.png"), full_page=True)
    assert unexpected(console_errors) == []


def test_joker_swap_in_german(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    page.goto(f"{live_server}/referee?lang=de&check=swap")
    tap(page, "7H", "JK", "9H")
    page.locator(".cp-target", has_text="Die Karte").tap()
    tap(page, "8S")
    verdict_is(page, "✗ Ungültig")
    tap(page, "8H")  # one card only: a tap replaces it
    expect(page.locator("#card")).to_have_value("8♥")
    verdict_is(page, "✓ Gültig")
    expect(page.locator("#verdict")).to_contain_text("Der Joker stand für 8♥")
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-swap-de-360.png"), full_page=True)
    assert unexpected(console_errors) == []


def test_solve_a_hand_in_english(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    page.goto(f"{live_server}/referee?lang=en&check=solve&round=1")
    page.locator("#hand").fill("7H 7S 7D QH QS 2C")
    verdict_is(page, "✗ Not possible")
    expect(page.locator("#verdict .ref-missing .card")).to_have_text(["Q♣"])
    tap(page, "JK")
    verdict_is(page, "✓ Valid")
    expect(page.locator("#verdict")).to_contain_text("5 points stay in the hand")
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-solve-en-360.png"), full_page=True)
    assert unexpected(console_errors) == []


@pytest.fixture
def no_js_page(browser: Browser, browser_context_args: dict[str, Any]) -> Iterator[Page]:
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["de", "en"])
def test_contract_without_javascript_is_a_plain_form(
    no_js_page: Page, live_server: str, screenshot_dir: Path, lang: str
) -> None:
    page = no_js_page
    page.goto(f"{live_server}/referee?lang={lang}&check=contract&round=1")
    expect(page.locator(".cp-pad")).to_be_hidden()
    queens = "D♣ D♥ D♠" if lang == "de" else "Q♣ Q♥ Q♠"
    page.locator("#melds").fill(f"{queens}\n7C 7H JK")
    with page.expect_navigation():
        page.locator(".ref-submit").click()
    assert "melds=" in page.url
    mark_text = str(page.locator("#verdict .ref-mark").text_content()).strip()
    assert mark_text == ("✓ Gültig" if lang == "de" else "✓ Valid")
    assert page.evaluate is not None
    # The address reproduces the check in a fresh page.
    url = page.url
    page.goto(url)
    assert str(page.locator("#verdict .ref-mark").text_content()).strip() == mark_text
    page.locator("#melds").fill("7C 7H XX")
    with page.expect_navigation():
        page.locator(".ref-submit").click()
    expect(page.locator("[data-cp-field=melds] .field-errors")).to_contain_text("XX")
    expect(page.locator("#melds")).to_have_value("7C 7H XX")
    assert re.search(r"[?&]melds=", page.url)
    page.screenshot(path=str(screenshot_dir / f"referee-nojs-{lang}-360.png"), full_page=True)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "en",
            {
                "question": "When did your own contract go down?",
                "this_turn": "This turn",
                "earlier": "Earlier",
                "valid": "✓ Valid",
                "invalid": "✗ Not valid",
                "condition": "Valid once your contract is down, from your next turn.",
                "too_early": "Lay-offs start on your next turn",
            },
        ),
        (
            "de",
            {
                "question": "Wann hast du deinen eigenen Kontrakt ausgelegt?",
                "this_turn": "In diesem Zug",
                "earlier": "Früher",
                "valid": "✓ Gültig",
                "invalid": "✗ Ungültig",
                "condition": "Gültig, sobald dein Kontrakt ausliegt, ab deinem nächsten Zug.",
                "too_early": "Anlegen darfst du erst ab deinem nächsten Zug",
            },
        ),
    ],
)
def test_layoff_timing_is_one_small_question(
    page: Page,
    live_server: str,
    console_errors: list[str],
    screenshot_dir: Path,
    lang: str,
    words: dict[str, str],
) -> None:
    """RULES.md, timing: contract lays off from the turn after its own contract. Unasked, the
    verdict names the condition; one tap on the answer decides it."""
    page.goto(f"{live_server}/referee?lang={lang}&check=layoff&variant=contract")
    question = page.locator("fieldset.ref-timing")
    expect(question.locator("legend")).to_have_text(words["question"])
    page.locator("#meld").fill("4C 5C 6C 7C")
    page.locator("#cards").fill("8C")
    verdict_is(page, words["valid"])
    expect(page.locator("#verdict .ref-conditions")).to_have_text(words["condition"])
    page.locator("#verdict").screenshot(
        path=str(screenshot_dir / f"referee-timing-condition-{lang}-360.png")
    )
    question.locator("label", has_text=words["this_turn"]).tap()
    verdict_is(page, words["invalid"])
    expect(page.locator("#verdict")).to_contain_text(words["too_early"])
    expect(page.locator("#verdict .ref-conditions")).to_have_count(0)
    assert "contract_down=this_turn" in page.url
    chips = question.locator("label.ref-chip")
    sizes = chips.evaluate_all(
        "els => els.map(e => [e.getBoundingClientRect().width, e.getBoundingClientRect().height,"
        " e.scrollWidth - e.clientWidth])"
    )
    assert len(sizes) == 3 and all(w >= 44 and h >= 44 and spill <= 1 for w, h, spill in sizes)
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / f"referee-timing-{lang}-360.png"), full_page=True)
    question.locator("label", has_text=words["earlier"]).tap()
    verdict_is(page, words["valid"])
    expect(page.locator("#verdict .ref-conditions")).to_have_count(0)
    # Where the timing changes nothing, nothing is asked.
    with page.expect_navigation():
        page.locator("#variant").select_option("rummy")
    expect(page.locator("fieldset.ref-timing")).to_have_count(0)
    assert unexpected(console_errors) == []


def test_zioncheck_going_out_names_the_card_taken_from_the_pile_in_spanish(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    """RULES.md, third reading: zioncheck-nl's card taken from the discard pile is not the
    discard of the same turn. A third field joins the grid, and the phone still holds it."""
    page.goto(
        f"{live_server}/referee?lang=es&check=contract&variant=zioncheck-nl&round=4&going_out=1"
    )
    # A whole hand (10 dealt + 1 drawn): zioncheck-nl's first deal cannot go out in melds alone.
    page.locator("#melds").fill("7H 7S 7D 7C\n9C 9D 9S 9H\nKC KD KS")
    page.locator("#discard").fill("4C")
    verdict_is(page, "✓ Válido")
    page.locator(".cp-target", has_text="Tomadas").tap()
    tap(page, "4C")
    expect(page.locator("#from_discard_pile")).to_have_value("4♣")
    verdict_is(page, "✗ No válido")
    expect(page.locator("#verdict")).to_contain_text("se tomó de la pila de descartes")
    assert "from_discard_pile=4" in page.url
    page.locator("#from_discard_pile").fill("4C 9S")  # of several cards taken, one may go again
    verdict_is(page, "✓ Válido")
    spilled = page.locator(".cp-target").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert spilled == []
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-taken-card-es-360.png"), full_page=True)
    assert unexpected(console_errors) == []


def test_zioncheck_swap_asks_whose_meld_in_dutch(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    """Seed 001: a joker comes only from another player's run."""
    page.goto(f"{live_server}/referee?lang=nl&check=swap&variant=zioncheck-nl")
    page.locator("#meld").fill("5H JK 7H")
    page.locator("#card").fill("6H")
    verdict_is(page, "✓ Geldig")
    expect(page.locator("#verdict .ref-conditions")).to_contain_text("van een andere speler")
    whose = page.locator("fieldset.ref-timing", has_text="Van wie is de combinatie")
    whose.locator("label", has_text="Mijn eigen").tap()
    verdict_is(page, "✗ Ongeldig")
    expect(page.locator("#verdict")).to_contain_text("niet uit je eigen")
    assert "whose_meld=own" in page.url
    whose.locator("label", has_text="Van een andere speler").tap()
    verdict_is(page, "✓ Geldig")
    fits_the_phone(page)
    page.screenshot(path=str(screenshot_dir / "referee-swap-whose-nl-360.png"), full_page=True)
    assert unexpected(console_errors) == []


# -- each table's suit letters, and the verdict in view above the pad (issue 22 item 9) ----------

SUIT_WORDS = {
    # the hint's suits, the word of a verdict, a run of diamonds as the table types it
    "nl": ("Kleuren: K/C ♣ · R/D ♦ · H ♥ · S ♠.", "✓ Geldig", "✗ Ongeldig", "7R 8R 9R"),
    "de": ("Farben: C ♣ · D ♦ · H ♥ · S ♠.", "✓ Gültig", "✗ Ungültig", "7D 8D 9D"),
}


@pytest.mark.parametrize("lang", list(SUIT_WORDS))
def test_the_tables_suit_letters_are_read_and_named_in_the_hint(
    page: Page, live_server: str, lang: str
) -> None:
    suits, valid, _invalid, run = SUIT_WORDS[lang]
    page.goto(f"{live_server}/referee?check=meld&lang={lang}")
    expect(page.locator("#cards-hint")).to_contain_text(suits)
    page.locator("#cards").fill(run)
    verdict_is(page, valid)
    # the grid reads the same letters: the three diamonds are marked as chosen
    for code in ("7D", "8D", "9D"):
        expect(page.locator(f'.cp-pad [data-card="{code}"] .cp-badge')).to_have_attribute(
            "data-count", "1"
        )
    page.locator("#cards").fill("7R 8R 9R")  # R is ruiten only at a Dutch table
    if lang == "nl":
        verdict_is(page, valid)
    else:
        expect(page.locator("#verdict")).to_contain_text("„7R“ ist keine Karte")


@pytest.mark.parametrize("lang", list(SUIT_WORDS))
def test_on_the_card_picker_the_verdict_is_in_view_above_the_pad(
    page: Page, live_server: str, lang: str
) -> None:
    _suits, valid, invalid, _run = SUIT_WORDS[lang]
    page.goto(f"{live_server}/referee?check=meld&lang={lang}")
    for code in ("7S", "8S", "9S", "10S"):  # the last rows of the pad: the page scrolls down
        key = page.locator(f'.cp-pad [data-card="{code}"]')
        key.scroll_into_view_if_needed()
        key.tap()
    verdict_is(page, valid)
    key = page.locator('.cp-pad [data-card="KH"]')
    key.scroll_into_view_if_needed()
    key.tap()
    verdict_is(page, invalid)
    headline = page.locator("#verdict .verdict .ref-mark")
    pinned = page.locator(".ref-pad-verdict")
    # tapping on down the pad, the verdict above it has scrolled away: its words are pinned
    # above the keys, in view
    page.locator(".cp-pad").evaluate("(pad) => pad.scrollIntoView({block: 'start'})")
    page.evaluate("window.scrollBy(0, 150)")  # on down to the last rows
    assert headline.evaluate("(el) => el.getBoundingClientRect().bottom") <= 0
    expect(pinned).to_be_visible()
    expect(pinned).to_contain_text(invalid)
    box = pinned.bounding_box()
    assert box is not None and abs(box["y"]) <= 1 and box["height"] < 100
    # back up where the verdict itself is in view, nothing is said twice
    headline.scroll_into_view_if_needed()
    expect(pinned).to_be_hidden()
    # a screen reader hears the verdict itself, not its copy
    assert pinned.get_attribute("aria-hidden") == "true"


# -- the players at the table (RULES.md, fourth reading) ------------------------------------

TABLE_WORDS = {
    # scheme, the check, the verdicts, the shoe lines (unknown, of 4), a size out of range
    "de": {
        "scheme": "light",
        "query": "check=meld&variant=contract",
        "field": "#cards",
        "cards": "7H 7H 7H",
        "largest": ("✓ Gültig", "bei 3 bis 8 Spielern gibt (3 Kartenspiele, 6 Joker)"),
        "of_four": ("✗ Ungültig", "an einem Tisch mit 4 Spielern (2 Kartenspiele, 4 Joker)"),
        "too_many": ("9", "Dieses Spiel ist für 3 bis 8 Spieler, nicht für 9."),
    },
    "nl": {
        "scheme": "dark",
        "query": "check=contract&round=1&variant=zioncheck-nl"
        "&house_rules=%7B%22max_players%22%3A8%7D",
        "field": "#melds",
        # two sets of jacks, the jack of clubs twice: the Dutch way to write it, never JK
        "cards": "BK BR BH\nBK BR BS",
        "largest": ("✓ Geldig", "bij 3 tot 8 spelers (2 kaartspellen, 2 jokers)"),
        "of_four": ("✗ Ongeldig", "aan een tafel van 4 (1 kaartspel, 1 joker)"),
        "too_many": ("12", "Dit spel is voor 3 tot 8 spelers, niet voor 12."),
    },
}


@pytest.mark.parametrize("lang", list(TABLE_WORDS))
def test_players_at_the_table_fix_the_shoe_and_stay_in_the_address(
    phone: Any, live_server: str, screenshot_dir: Path, lang: str
) -> None:
    """RULES.md, fourth reading: the page takes the table's size, keeps it in the address
    (`?players=`), and says under the verdict which shoe it judged by; without it, the largest
    shoe of the players in force (zioncheck-nl's house rule `max_players` extends them)."""
    from conftest import WATCH_CSP
    from test_accessibility_browser import _in_both_schemes

    words = TABLE_WORDS[lang]
    page = phone(360, 740, color_scheme=words["scheme"], bypass_csp=True)
    page.add_init_script(WATCH_CSP)
    page.goto(f"{live_server}/referee?lang={lang}&{words['query']}")
    field = page.locator(words["field"])
    if lang == "nl":  # the notation help: JK is always the joker, the jack of clubs is BK
        hint = page.locator(f"{words['field']}-hint")
        expect(hint).to_contain_text("JK is altijd de joker; de boer van klaveren is BK.")
    field.fill(words["cards"])
    mark, line = words["largest"]
    verdict_is(page, mark)
    expect(page.locator("#verdict .ref-shoe")).to_contain_text(line)
    assert re.search(r"players=\d", page.url) is None
    # The table's size: typed, and the page drawn again for its shoe.
    with page.expect_navigation():
        page.locator("#players").fill("4")
        page.locator("#players").blur()
    mark, line = words["of_four"]
    verdict_is(page, mark)
    expect(page.locator("#verdict .ref-shoe")).to_contain_text(line)
    assert "players=4" in page.url
    expect(page.locator("#players")).to_have_value("4")
    expect(page.locator("[data-ref-share]")).to_have_attribute("href", re.compile("players=4"))
    expect(page.locator(".ref-tabs a").first).to_have_attribute("href", re.compile("players=4"))
    page.screenshot(path=str(screenshot_dir / f"referee-players-{lang}-360.png"), full_page=True)
    fits_the_phone(page)
    assert {scheme: v for scheme, v in _in_both_schemes(page).items() if v} == {}
    # A link shared keeps the table: a fresh page of the same address judges the same.
    again = phone(320, 640, color_scheme=words["scheme"])
    again.goto(page.url)
    expect(again.locator("#verdict .ref-shoe")).to_contain_text(line)
    assert again.evaluate("document.documentElement.scrollWidth") <= 320
    # A size the rules in force do not allow: said under the field, nothing lost.
    typed, said = words["too_many"]
    with page.expect_navigation():
        page.locator("#players").fill(typed)
        page.locator("#players").blur()
    expect(page.locator("#players-errors")).to_have_text(said)
    expect(page.locator("#players")).to_have_value(typed)
    expect(page.locator("#players")).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_value(words["cards"])
    page.screenshot(
        path=str(screenshot_dir / f"referee-players-refused-{lang}-360.png"), full_page=True
    )
    assert {scheme: v for scheme, v in _in_both_schemes(page).items() if v} == {}
