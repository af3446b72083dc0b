"""Issue 31's "Done when" for check-in: 12 players check themselves in from 12 browser contexts
(headless Chromium, 360 px; the evening speaks German, one phone French), each sees their own
table, seat and dealer when series 1 is drawn (the evening's stream brings it), one checks
out, the host undoes that on the host's page, and a check-in link touches no other player
(403) and not the evening. The pages are axe clean in light and dark, never scroll sideways,
and hold a 24-letter name; screenshots go to test-artifacts/screenshots/check-in-*."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page, expect
from table_phones import sideways
from test_accessibility_browser import _in_both_schemes

from referee.engine.names import MAX_NAME
from referee.web.clubs import service as clubs_service
from referee.web.events import check_in, service

SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
MEMBERS = ["Bartholomäus", "Christabella", "Dominique", "Evangelina", "Friedemann", "Gwendolyn",
           "Hildegard", "Ingrid", "Jo", "Kit"]  # fmt: skip
LONGEST = "Maximiliane Falkenhausen"  # 24 letters: the longest name there is
NEW = [LONGEST, "Lu"]


def _evening(app: Flask, base: str, browser: Browser) -> dict[str, Any]:
    """A club with ten members and a German evening of 3 series (by the API, to save time)."""
    api = browser.new_context()
    club = api.request.post(f"{base}/api/v1/clubs", data={"name": "Donnerstag", "lang": "de"})
    club_data = club.json()
    auth = {"Authorization": f"Bearer {club_data['edit_token']}"}
    made = api.request.post(f"{base}/api/v1/clubs/{club_data['id']}/events", headers=auth,
                            data={"name": "Clubabend", "variant": "contract", "series": 3,
                                  "series_rounds": 1, "lang": "de"}).json()  # fmt: skip
    api.close()
    with app.app_context():
        clubs_service.add_members(club_data["id"], MEMBERS)
        key = check_in.key_of(club_data["id"], made["id"])
    path = f"/clubs/{club_data['id']}/events/{made['id']}"
    return {"club": club_data["id"], "event": made["id"], "auth": auth, "key": key,
            "link": f"{base}{path}/check-in/{key}", "base": f"{base}{path}",
            "host": f"{base}{path}/edit/{club_data['edit_token']}",
            "api": f"{base}/api/v1{path}"}  # fmt: skip


def _shot(page: Page, name: str, part: str | None) -> None:
    assert sideways(page) == 0, name
    if part is None:
        page.screenshot(path=str(SHOTS / f"check-in-{name}.png"), full_page=True)
    else:
        page.locator(part).screenshot(path=str(SHOTS / f"check-in-{name}.png"))


def _clean(page: Page, name: str, part: str | None = None) -> None:
    """Axe clean in light and dark, no sideways scroll; a screenshot of each (of `part`)."""
    assert _in_both_schemes(page) == {"light": [], "dark": []}, name
    _shot(page, f"{name}-light", part)
    page.emulate_media(color_scheme="dark")
    _shot(page, f"{name}-dark", part)
    page.emulate_media(color_scheme="light")


def test_twelve_phones_check_in_see_their_seats_and_touch_only_their_own_player(
    app: Flask, live_server: str, browser: Browser, browser_context_args: dict[str, Any]
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    assert len(LONGEST.replace(" ", "")) <= MAX_NAME and len(LONGEST) == 24
    evening = _evening(app, live_server, browser)
    contexts = [browser.new_context(**browser_context_args, bypass_csp=index in (0, 1, 10))
                for index in range(12)]  # fmt: skip
    try:
        phones = [context.new_page() for context in contexts]
        # Ten members tap their names; two type new ones (one of 24 letters).
        first = phones[0]
        first.goto(evening["link"])
        expect(first.locator("h1")).to_have_text("Clubabend")
        expect(first.locator("#pick-title")).to_have_text("Wer sind Sie?")
        _clean(first, "pick-de")
        phones[1].goto(f"{evening['link']}?lang=fr")
        expect(phones[1].locator("#pick-title")).to_have_text("Qui êtes-vous ?")
        phones[1].locator("#new_name").fill("Bart")  # typing finds the name in the list
        expect(phones[1].locator(".check-in-name:visible")).to_have_count(1)
        _clean(phones[1], "pick-fr-filtered")
        for phone, name in zip(phones, [*MEMBERS, *NEW], strict=True):
            if phone is not phones[1]:
                phone.goto(evening["link"])
            if name in MEMBERS:
                phone.locator(".check-in-name", has_text=name).tap()
            else:
                phone.locator("#new_name").fill(name)
                phone.locator(".check-in-new button").tap()
            expect(phone.locator("#me-title")).to_contain_text(name)
        _clean(phones[10], "checked-in-de-longest-name")
        _clean(phones[1], "checked-in-fr")
        # The host draws and starts series 1: every phone shows its seat by the stream.
        drawn = contexts[0].request.post(f"{evening['api']}/series", headers=evening["auth"],
                                         data={"series": 1})  # fmt: skip
        assert drawn.ok
        with app.app_context():
            stored = service.load(evening["event"])
        assert stored is not None
        series = stored.event.series[0]
        for phone, name in zip(phones, [*MEMBERS, *NEW], strict=True):
            table = series.table_of(name)
            assert table is not None
            expect(phone.locator(".my-seat-table")).to_have_text(
                re.compile(rf"(Tisch|Table) {table.number}$")
            )
            seat = table.seats.index(name) + 1
            expect(phone.locator(".my-seat-seat")).to_have_text(
                re.compile(rf"(Platz|Place) {seat}$")
            )
            expect(phone.locator(".my-seat a.button")).to_have_attribute(
                "href", re.compile(f"/games/{table.game_id}/edit/")
            )
        _clean(phones[10], "seat-de-longest-name")
        _clean(phones[1], "seat-fr")
        # A phone cannot check another player out (a forged post), nor touch the evening.
        other: dict[str, str | float | bool] = {"action": "check_out", "name": MEMBERS[3]}
        forged = phones[2].request.post(evening["link"], form=other)
        assert forged.status == 403
        drawn_by_link = phones[2].request.post(f"{evening['base']}/edit/{evening['key']}/series",
                                               form={"series": "2"})  # fmt: skip
        assert drawn_by_link.status == 403
        # One checks out on their own phone; the host undoes it.
        leaver = phones[5]
        leaver.locator(".check-out summary").tap()
        leaver.locator(".check-out button").tap()
        expect(leaver.locator(".check-in-state")).to_contain_text(MEMBERS[5])
        host = contexts[0].new_page()
        host.goto(f"{evening['host']}#check-in-link")
        undo = host.locator(".self-service li", has_text=MEMBERS[5]).locator("button")
        expect(host.locator(".self-service")).to_contain_text(f"{MEMBERS[5]} hat sich abgemeldet")
        expect(host.locator(".self-service .check-in-mark")).to_have_count(2)  # the two new
        _clean(host, "host-de", "#check-in-link")
        with host.expect_navigation():
            undo.tap()
        expect(host.locator(".self-service")).not_to_contain_text(MEMBERS[5])
        with app.app_context():
            stored = service.load(evening["event"])
        assert stored is not None and stored.event.player(MEMBERS[5]).present  # type: ignore[union-attr]
        expect(leaver.locator("#me-title")).to_contain_text(MEMBERS[5])  # the stream again
    finally:
        for context in contexts:
            context.close()
