"""Issue 32: a session of the trainer by thumb in a 360-px Chromium, large text: German in light,
Dutch in dark. Ten questions answered (tapped, or typed in the table's notation), two of them
wrong and explained by the referee's own reason in the phone's language; the phone remembers
the missed rules ("my rules", with the rule card of exactly those rules) and asks for their
kinds first in the next session; axe clean, nothing sideways. Screenshots go to
$TRAINER_SCREENSHOTS (default: test-artifacts/screenshots/)."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from table_phones import sideways
from test_accessibility_browser import AXE

from referee.engine.cards import parse_cards
from referee.web.training.session import QUESTIONS, draw
from referee.web.vocabulary.words import cards_notation

WORDS = {
    "de": {
        "level": "Schwer",
        "start": "Los geht’s",
        "right": "✓ Richtig",
        "wrong": "✗ Nicht richtig",
        "answer": "Antwort prüfen",
        "yes": "Ja, mit diesen Meldungen:",
        "no": "Nein",
        "next": "Nächste Frage",
        "last": "Dein Ergebnis",
        "done": "von 10 richtig",
        "why": "Warum:",
    },
    "nl": {
        "level": "Moeilijk",
        "start": "Beginnen",
        "right": "✓ Goed",
        "wrong": "✗ Niet goed",
        "answer": "Antwoord controleren",
        "yes": "Ja, met deze combinaties:",
        "no": "Nee",
        "next": "Volgende vraag",
        "last": "Je resultaat",
        "done": "van 10 goed",
        "why": "Waarom:",
    },
}


def _axe(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations"""
    )
    return [f"{v['id']}: {v['help']}" for v in found if v["impact"] in ("serious", "critical")]


def _session(app: Flask, url: str, lang: str) -> Any:
    parts = urlsplit(url)
    args = {name: values[0] for name, values in parse_qs(parts.query).items()}
    with app.test_request_context(f"/?lang={lang}"):
        return draw(parts.path.rsplit("/", 1)[1], args)


def _typed(app: Flask, melds: list[list[str]], lang: str) -> str:
    with app.test_request_context(f"/?lang={lang}"):
        return "\n".join(cards_notation(parse_cards(meld), lang) for meld in melds)


def _answer(
    page: Page, app: Flask, drill: dict[str, Any], words: dict[str, str], wrong: bool
) -> None:
    """Answer by thumb: a choice tapped, points or melds typed in the table's notation."""
    if drill["choices"] is not None:
        index = drill["choices"].index(drill["answer"])
        index = (index + 1) % len(drill["choices"]) if wrong else index
        page.locator(".trainer-choice").nth(index).tap()
    elif drill["kind"] == "value":
        page.locator("#answer").fill(str(drill["answer"] + (5 if wrong else 0)))
        page.get_by_role("button", name=words["answer"]).tap()
    else:
        answer = drill["answer"]
        if answer["can_meet_contract"]:
            page.get_by_text(words["yes"]).tap()
            lang = page.evaluate("document.documentElement.lang")
            page.locator("#melds").fill(_typed(app, answer["melds"], lang))
        else:
            page.get_by_text(words["no"], exact=True).tap()
        page.get_by_role("button", name=words["answer"]).tap()


def _to_miss(drills: list[dict[str, Any]]) -> list[int]:
    """Two questions with choices and reasons to answer wrong, whose rules no later question of
    the session gives again (one answered right would move the rule up a box, and the session's
    seed is drawn anew each run)."""
    chosen: list[int] = []
    for number in range(len(drills) - 1, -1, -1):
        drill = drills[number]
        later = {r["code"] for d in drills[number + 1 :] for r in d["reasons"]}
        codes = {r["code"] for r in drill["reasons"]}
        if drill["choices"] and codes and not codes & later and len(chosen) < 2:
            chosen.insert(0, number)
    return chosen


def _play(
    page: Page, app: Flask, lang: str, shots: Path, tag: str
) -> tuple[Any, list[int], set[str]]:
    """A session of level 3 started on the start page and played by thumb to its end: two
    questions answered wrong and explained. The session, the numbers missed, their rules."""
    words = WORDS[lang]
    page.get_by_text(words["level"], exact=True).tap()
    page.get_by_role("button", name=words["start"]).tap()
    page.wait_for_url(re.compile(r"/training/contract\?level=3&seed=\d+"))
    session = _session(app, page.url, lang)
    explained = _to_miss(session.drills)
    assert len(explained) == 2, page.url
    missed: set[str] = set()
    for number, drill in enumerate(session.drills):
        expect(page.locator("h1")).to_have_text(drill["prompt"])
        assert sideways(page) == 0, number
        if number == 0:
            assert _axe(page) == []
            page.screenshot(path=str(shots / f"trainer-{tag}-question.png"))
        wrong = number in explained
        _answer(page, app, drill, words, wrong)
        verdict = page.locator(".trainer-verdict")
        expect(verdict.locator(".trainer-mark")).to_have_text(words["wrong" if wrong else "right"])
        if wrong:  # the referee's own reason, in the phone's language, and the rule card
            missed |= {reason["code"] for reason in drill["reasons"]}
            expect(verdict).to_contain_text(words["why"])
            for reason in drill["reasons"]:
                expect(verdict).to_contain_text(reason["message"])
            assert "/rules/contract?lang=" + lang in (
                verdict.locator("a").get_attribute("href") or ""
            )
            assert sideways(page) == 0
            assert _axe(page) == []
            page.screenshot(path=str(shots / f"trainer-{tag}-wrong-{number}.png"), full_page=True)
        elif drill["kind"] in ("solve", "value"):
            page.screenshot(path=str(shots / f"trainer-{tag}-{drill['kind']}.png"), full_page=True)
        last = number == QUESTIONS - 1
        page.get_by_role("link", name=words["last" if last else "next"]).tap()
    expect(page.locator("h1")).to_have_text(f"{QUESTIONS - 2} {words['done']}")
    return session, explained, missed


@pytest.mark.parametrize(("lang", "scheme"), [("de", "light"), ("nl", "dark")])
def test_a_session_by_thumb(
    browser: Browser,
    browser_context_args: dict[str, Any],
    app: Flask,
    live_server: str,
    lang: str,
    scheme: str,
) -> None:
    shots = Path(os.environ.get("TRAINER_SCREENSHOTS", "test-artifacts/screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    words = WORDS[lang]
    context = browser.new_context(
        **{**browser_context_args, "locale": lang, "color_scheme": scheme, "bypass_csp": True}
    )
    context.add_cookies([{"name": "text", "value": "large", "url": live_server}])
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/training?variant=contract")
    expect(page.locator("html")).to_have_attribute("data-text", "large")
    assert sideways(page) == 0 and _axe(page) == []
    page.screenshot(path=str(shots / f"trainer-{lang}-{scheme}-start.png"), full_page=True)
    session, explained, missed = _play(page, app, lang, shots, f"{lang}-{scheme}")
    # The phone remembers what was missed: "my rules", and the rule card of exactly those.
    my_rules = page.locator("[data-trainer-my-rules]")
    expect(my_rules).to_be_visible()
    assert set(my_rules.locator("li").evaluate_all("els => els.map(e => e.dataset.code)")) == missed
    pdf = urlsplit(my_rules.locator("[data-trainer-pdf]").get_attribute("href") or "")
    assert pdf.path == "/rules/contract/my-rules.pdf"
    query = parse_qs(pdf.query)
    assert query["lang"] == [lang] and set(query["codes"][0].split(",")) == missed
    assert sideways(page) == 0 and _axe(page) == []
    page.screenshot(path=str(shots / f"trainer-{lang}-{scheme}-done.png"), full_page=True)
    # The next session asks first for the kinds of the rules in box 1 (a rule missed and then
    # answered right in the same session has moved up to box 2: it comes back a session later).
    box = page.evaluate("JSON.parse(localStorage.getItem('rummy-trainer')).rules.contract")
    assert set(box) == missed
    first = {rule["kind"] for rule in box.values() if rule["box"] == 1}
    assert first and first <= {session.drills[n]["kind"] for n in explained}
    page.locator("a.trainer-next").tap()
    page.get_by_role("button", name=words["start"]).tap()
    page.wait_for_url(re.compile(r"due="))
    due = parse_qs(urlsplit(page.url).query)["due"][0].split(",")
    assert set(due) == first
    assert errors == []
    context.close()


def _kept_packs(page: Page) -> int:
    count: int = page.evaluate(
        "async () => (await (await caches.open('trainer-v1')).keys()).length"
    )
    return count


def test_the_same_session_without_signal_after_one_visit(
    browser: Browser, browser_context_args: dict[str, Any], app: Flask, live_server: str
) -> None:
    """Point 4: the start page opened once with signal; then, without it, a session started,
    ten questions answered and judged (two wrong, explained), the end and "my rules", in
    German, dark: every page from the pack the service worker kept."""
    lang, scheme = "de", "dark"
    shots = Path(os.environ.get("TRAINER_SCREENSHOTS", "test-artifacts/screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(
        **{**browser_context_args, "locale": lang, "color_scheme": scheme, "bypass_csp": True}
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/training?variant=contract")
    page.evaluate("() => navigator.serviceWorker.ready")
    # The visit that installed the worker is kept: the start page and a pack for each level.
    deadline = time.monotonic() + 60
    while _kept_packs(page) < 3:
        assert time.monotonic() < deadline, "the worker kept no packs"
        page.wait_for_timeout(250)
    context.set_offline(True)
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-offline", "1")
    session, _, missed = _play(page, app, lang, shots, f"{lang}-{scheme}-offline")
    expect(page.locator("html")).to_have_attribute("data-offline", "1")
    my_rules = page.locator("[data-trainer-my-rules]")
    expect(my_rules).to_be_visible()
    assert set(my_rules.locator("li").evaluate_all("els => els.map(e => e.dataset.code)")) == missed
    assert sideways(page) == 0
    page.screenshot(path=str(shots / f"trainer-{lang}-{scheme}-offline-done.png"), full_page=True)
    # An answer that cannot be read is refused in words, as the server refuses it.
    number = next(n for n, d in enumerate(session.drills, 1) if d["kind"] != "solve")
    start = page.url.split("&q=")[0]
    refused = page.goto(f"{start}&q={number}&right=0&answer=viele")
    assert refused is not None and refused.status == 400
    expect(page.locator(".form-errors")).to_have_text(
        "Gib die Punkte als ganze Zahl ein, etwa 35."
        if session.drills[number - 1]["kind"] == "value"
        else "Wähle zuerst eine der Antworten."
    )
    expect(page.locator("h1")).to_have_text(session.drills[number - 1]["prompt"])
    page.screenshot(path=str(shots / f"trainer-{lang}-{scheme}-offline-refused.png"))
    context.set_offline(False)
    assert errors == []
    context.close()
