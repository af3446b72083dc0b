"""Seating rules (issue 31, point 4) in headless Chromium on the host's phone at 360 px, in
German (dark, large text) and French (light), axe clean in both schemes, nothing sideways,
with 24-letter names: the host keeps a couple apart and gives two players a fixed table by
thumb, draws, and sees the couple apart, one player at table 2, and the rule the draw could
not honour (table 3 of an evening of two tables) said with its reason."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from test_events_second_pass_browser import LONG, PHONE, _clean, _evening, _post
from test_events_second_pass_browser import open_page as phone_page

SHOTS = Path("/tmp/seating-shots")
WORDS = {
    "de": {"apart": "nie an einem Tisch", "table": "immer an Tisch 2",
           "unmet": "Nicht eingehalten", "why": "diese Serie hat weniger Tische"},
    "fr": {"apart": "jamais à la même table", "table": "toujours à la table 2",
           "unmet": "Non respectée", "why": "cette série a moins de tables"},
}  # fmt: skip


#: The phones of the second pass's host-page tests: their console and CSP complaints kept.
seating_phone = phone_page


def _add(
    host: Page, keep: str, first: str, second: str | None = None, table: str | None = None
) -> None:
    form = host.locator(".seating-form")
    form.locator(f"input[name=keep][value={keep}]").tap()
    form.locator("select[name=first]").select_option(first)
    if second is not None:
        form.locator("select[name=second]").select_option(second)
    if table is not None:
        form.locator("select[name=table]").select_option(table)
    _post(host, form.locator("button[name=add]"), "seating")


@pytest.mark.parametrize(
    ("lang", "scheme", "large"), [("de", "dark", True), ("fr", "light", False)]
)
def test_the_host_keeps_a_couple_apart_and_a_fixed_table_by_thumb_and_sees_them_honoured(
    app: Flask, live_server: str, seating_phone: Any, lang: str, scheme: str, large: bool
) -> None:
    client = app.test_client()
    names = LONG[:9]  # 9 players: tables of 4 and 5; a fixed table may be 1 to 3
    evening = _evening(client, names, lang=lang)
    host = seating_phone(360, 740, lang, scheme, **PHONE)
    if large:
        host.goto(f"{live_server}/text/large")
    host.goto(live_server + evening["host"])
    _add(host, "apart", names[0], names[1])
    _add(host, "table", names[2], table="2")
    _add(host, "table", names[3], table="3")
    rules = host.locator("#seating .seating-rule")
    expect(rules).to_have_count(3)
    expect(rules.nth(0)).to_contain_text(WORDS[lang]["apart"])
    expect(rules.nth(1)).to_contain_text(f"{names[2]} {WORDS[lang]['table']}")
    SHOTS.mkdir(parents=True, exist_ok=True)
    host.screenshot(path=str(SHOTS / f"rules-{lang}-{scheme}.png"), full_page=True)
    host.locator("#seating").screenshot(path=str(SHOTS / f"seating-{lang}-{scheme}.png"))
    _clean(host)
    _post(host, host.locator(".draw-form button[type=submit]"), "draw")
    tables = host.locator("#draw .event-table")
    expect(tables).to_have_count(2)
    seated = [tables.nth(n).locator(".seat-name").all_inner_texts() for n in range(2)]
    at = {name: number for number, seats in enumerate(seated, start=1) for name in seats}
    assert at[names[0]] != at[names[1]]
    assert at[names[2]] == 2
    unmet = host.locator("#draw .seating-unmet")
    expect(unmet).to_contain_text(WORDS[lang]["unmet"])
    expect(unmet).to_contain_text(names[3])
    expect(unmet).to_contain_text(WORDS[lang]["why"])
    host.emulate_media(color_scheme=scheme)  # the axe check above looked at both schemes
    host.screenshot(path=str(SHOTS / f"drawn-{lang}-{scheme}.png"), full_page=True)
    unmet.screenshot(path=str(SHOTS / f"unmet-{lang}-{scheme}.png"))
    _clean(host)
    # A rule removed by its own button.
    remove = host.locator("#seating .seating-rules li").nth(2).locator("button[name=remove]")
    _post(host, remove, "seating")
    expect(host.locator("#seating .seating-rule")).to_have_count(2)
    assert host.complaints == []
