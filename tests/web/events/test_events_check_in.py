"""Players check themselves in by the evening's check-in link (issue 31, point 2), with the
test client: a tap or a new name, the phone's cookie, the seat once drawn, check-out; the
host's undo and close; and every refusal (a closed link, a name too long, another player's
cookie, a wrong key, the evening untouchable by the link)."""

from __future__ import annotations

import io
import re
from typing import Any

from check_in_fixture import new_evening
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.web import create_app
from referee.web.events import check_in, service
from referee.web.plumbing.database import database


def _state(client: FlaskClient, evening: dict[str, Any]) -> Any:
    with client.application.app_context():
        stored = service.load(evening["event"])
    assert stored is not None
    return stored.event


def _tap(client: FlaskClient, evening: dict[str, Any], name: str, **more: str) -> Any:
    return client.post(evening["link"], data={"action": "check_in", "name": name, **more})


def test_a_tap_checks_the_player_in_and_the_phone_remembers_them(client: FlaskClient) -> None:
    evening = new_evening(client)
    page = client.get(evening["link"])
    assert page.status_code == 200 and page.headers["Cache-Control"].startswith("no-store")
    text = page.get_data(as_text=True)
    assert "Friday night" in text and 'value="Ann"' in text and 'value="Hal"' in text
    answer = _tap(client, evening, "Ann")
    assert answer.status_code == 303
    cookie = client.get_cookie(check_in.COOKIE, path=evening["link"])
    assert cookie is not None and cookie.http_only and cookie.path == evening["link"]
    text = client.get(evening["link"]).get_data(as_text=True)
    assert "Hello, Ann" in text and "You're in from series 1." in text
    assert 'class="button check-in-name"' not in text  # no list to tap any more
    ann = _state(client, evening).player("Ann")
    assert ann.joined == 1 and ann.self_service and not ann.new


def test_a_new_name_becomes_a_member_marked_new_for_the_host(client: FlaskClient) -> None:
    evening = new_evening(client)
    assert _tap(client, evening, "", new_name="  Zoë  ").status_code == 303
    zoe = _state(client, evening).player("Zoë")
    assert zoe is not None and zoe.new and zoe.self_service
    host = client.get(evening["host"]).get_data(as_text=True)
    assert "Zoë checked in" in host and 'class="check-in-mark">new<' in host
    assert evening["link"] in host  # the host's page shows the link and its QR
    qr = client.get(f"{evening['host']}/check-in.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"


def test_the_seat_table_and_dealer_show_once_the_series_is_drawn(client: FlaskClient) -> None:
    evening = new_evening(client)
    for name in ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"):
        phone = client.application.test_client()
        assert _tap(phone, evening, name).status_code == 303
    drawn = client.post(f"{evening['api']}/series", json={"series": 1, "start": False},
                        headers=evening["auth"])  # fmt: skip
    assert drawn.status_code == 200
    table = _state(client, evening).series[0].table_of("Ann")
    text = client.get(evening["link"]).get_data(as_text=True)
    # This client checked nobody in: a phone is for one player, its own.
    assert "Hello" not in text
    phone = client.application.test_client()
    phone.set_cookie(check_in.COOKIE, _token(client, evening, "Ann"), path=evening["link"])
    text = phone.get(evening["link"]).get_data(as_text=True)
    assert f"Table {table.number}" in text
    assert f"Seat {table.seats.index('Ann') + 1}" in text
    dealer = table.seats[table.first_dealer]
    assert ("You deal first." if dealer == "Ann" else f"{dealer} deals first.") in text
    assert "round screen comes here then" in text  # not started: no link yet
    client.post(f"{evening['api']}/series", json={"series": 1, "action": "start"},
                headers=evening["auth"])  # fmt: skip
    text = phone.get(evening["link"]).get_data(as_text=True)
    link = re.search(r'href="([^"]+)">Your table&#39;s round screen', text) or re.search(
        r'href="([^"]+)">Your table.s round screen', text
    )
    assert link is not None
    assert "/edit/" in link.group(1) and phone.get(link.group(1)).status_code == 200


def _token(client: FlaskClient, evening: dict[str, Any], name: str) -> str:
    with client.application.test_request_context():
        return check_in.player_token(evening["event"], name)


def test_a_player_checks_out_with_their_own_phone_only(client: FlaskClient) -> None:
    evening = new_evening(client)
    ann, bo = client.application.test_client(), client.application.test_client()
    _tap(ann, evening, "Ann")
    _tap(bo, evening, "Bo")
    # Bo's phone cannot check Ann out (a forged post), nor can a phone without a cookie.
    forged = bo.post(evening["link"], data={"action": "check_out", "name": "Ann"})
    assert forged.status_code == 403
    assert "only check out the player it checked in" in forged.get_data(as_text=True)
    stranger = client.post(evening["link"], data={"action": "check_out", "name": "Ann"})
    assert stranger.status_code == 403
    assert _state(client, evening).player("Ann").present
    out = ann.post(evening["link"], data={"action": "check_out", "name": "Ann"})
    assert out.status_code == 303
    ann_now = _state(client, evening).player("Ann")
    assert not ann_now.present and ann_now.self_service
    assert "Ann is checked out" in ann.get(evening["link"]).get_data(as_text=True)


def test_a_name_already_checked_in_cannot_be_claimed(client: FlaskClient) -> None:
    evening = new_evening(client)
    _tap(client.application.test_client(), evening, "Ann")
    again = _tap(client, evening, "ann")
    assert again.status_code == 400 and "Ann is already checked in." in again.get_data(as_text=True)
    assert client.get_cookie(check_in.COOKIE, path=evening["link"]) is None


def test_a_name_too_long_is_refused_and_nothing_is_kept(client: FlaskClient) -> None:
    evening = new_evening(client)
    answer = _tap(client, evening, "", new_name="A" * 25)
    assert answer.status_code == 400
    assert _state(client, evening).players == ()
    assert _tap(client, evening, "", new_name="B" * 24).status_code == 303


def test_a_closed_check_in_says_so_and_refuses(client: FlaskClient) -> None:
    evening = new_evening(client)
    ann = client.application.test_client()
    _tap(ann, evening, "Ann")
    closed = client.post(f"{evening['host']}/check-in", data={"action": "close"})
    assert closed.status_code == 303
    text = client.get(evening["link"]).get_data(as_text=True)
    assert "Check-in is closed for this evening" in text and 'value="Bo"' not in text
    refused = _tap(client, evening, "Bo")
    assert refused.status_code == 400 and "closed check-in" in refused.get_data(as_text=True)
    out = ann.post(evening["link"], data={"action": "check_out", "name": "Ann"})
    assert out.status_code == 400
    assert client.get(f"/clubs/{evening['club']}/events/{evening['event']}/board/check-in.svg"
                      ).status_code == 404  # fmt: skip
    client.post(f"{evening['host']}/check-in", data={"action": "open"})
    assert _tap(client, evening, "Bo").status_code == 303


def test_the_host_undoes_a_check_in_and_a_check_out(client: FlaskClient) -> None:
    evening = new_evening(client)
    ann, bo = client.application.test_client(), client.application.test_client()
    _tap(ann, evening, "Ann")
    _tap(bo, evening, "Bo")
    bo.post(evening["link"], data={"action": "check_out", "name": "Bo"})
    assert client.post(f"{evening['host']}/check-in", data={"action": "undo", "name": "Ann"}
                       ).status_code == 303  # fmt: skip
    assert _state(client, evening).player("Ann") is None  # never seated: gone from the evening
    client.post(f"{evening['host']}/check-in", data={"action": "undo", "name": "Bo"})
    bo_now = _state(client, evening).player("Bo")
    assert bo_now.present and not bo_now.self_service
    again = client.post(f"{evening['host']}/check-in", data={"action": "undo", "name": "Bo"})
    assert again.status_code == 400


def test_a_wrong_key_or_another_evenings_key_is_a_404(client: FlaskClient) -> None:
    evening, other = new_evening(client), new_evening(client)
    assert client.get(evening["link"][:-1] + "x").status_code == 404
    wrong = f"/clubs/{evening['club']}/events/{evening['event']}/check-in/{other['key']}"
    assert client.get(wrong).status_code == 404
    assert client.post(wrong, data={"action": "check_in", "name": "Ann"}).status_code == 404


def test_a_check_in_link_cannot_touch_the_evening(client: FlaskClient) -> None:
    evening = new_evening(client)
    key, base = evening["key"], f"/clubs/{evening['club']}/events/{evening['event']}"
    for path in ("players", "series", "check-in"):
        assert client.post(f"{base}/edit/{key}/{path}", data={"series": "1"}).status_code == 403
    api = client.post(f"{evening['api']}/series", json={"series": 1},
                      headers={"Authorization": f"Bearer {key}"})  # fmt: skip
    assert api.status_code == 403
    control = client.post(f"{evening['api']}/check-in", json={"action": "close"},
                          headers={"Authorization": f"Bearer {key}"})  # fmt: skip
    assert control.status_code == 403
    assert _state(client, evening).version == 1


def test_a_post_without_its_csrf_token_is_refused(app: Flask) -> None:
    client = app.test_client()
    evening = new_evening(client)
    app.config["WTF_CSRF_ENABLED"] = True
    forged = client.post(evening["link"], data={"action": "check_in", "name": "Ann"},
                         headers={"Origin": "http://localhost"})  # fmt: skip
    assert forged.status_code == 400
    assert _state(client, evening).players == ()
    page = client.get(evening["link"]).get_data(as_text=True)
    token = re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', page)
    assert token is not None
    fields = {"action": "check_in", "name": "Ann", "csrf_token": token.group(1)}
    sent = client.post(evening["link"], data=fields, headers={"Origin": "http://localhost"})
    assert sent.status_code == 303


def test_check_ins_past_their_rate_limit_are_a_429(app: Flask) -> None:
    client = app.test_client()
    evening = new_evening(client)
    app.config["RATELIMIT_ENABLED"] = True
    limited = create_app({**app.config, "RATELIMIT_CHECK_IN": "2 per minute"},
                         instance_path=app.instance_path)  # fmt: skip
    phone = limited.test_client()
    assert _tap(phone, evening, "Ann").status_code == 303
    assert _tap(phone, evening, "Bo").status_code == 303
    assert _tap(phone, evening, "Cy").status_code == 429
    api = phone.post(f"{evening['api']}/check-in/{evening['key']}", json={"name": "Di"})
    assert api.status_code == 429
    assert phone.get(evening["link"]).status_code == 200  # reading is not counted
    database(limited).dispose()


def test_the_check_in_poster_prints_the_link_and_its_qr_for_the_host_only(
    client: FlaskClient,
) -> None:
    """Issue 31, point 2: the check-in QR on a printable A4 poster, in the evening's language
    (or ?lang=), the link written out whole under it; only the host's link prints it."""
    evening = new_evening(client)
    host = client.get(evening["host"]).get_data(as_text=True)
    poster = f"{evening['host']}/check-in.pdf"
    assert poster in host and "Check-in poster for the door (PDF)" in host
    answer = client.get(f"{poster}?lang=de")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert answer.headers["Cache-Control"] == "no-store"  # it carries the check-in link
    pages = PdfReader(io.BytesIO(answer.data)).pages
    assert len(pages) == 1 and [round(float(v)) for v in pages[0].mediabox[2:]] == [595, 842]
    text = pages[0].extract_text()
    assert "Friday night" in text and "Spieler melden sich selbst an" in text
    assert "Tippen" in text or "tippen" in text
    written = "".join(text.split())  # the link broken over lines where it is long
    assert f"http://localhost{evening['link']}" in written
    letter = client.get(f"{poster}?paper=letter")
    assert [round(float(v)) for v in PdfReader(io.BytesIO(letter.data)).pages[0].mediabox[2:]] == [
        612,
        792,
    ]
    wrong = evening["host"].replace(evening["token"], "x" * len(evening["token"]))
    assert client.get(f"{wrong}/check-in.pdf").status_code in (403, 404)
    assert client.get(f"{poster}?paper=a3").status_code == 400


def test_the_links_answers_are_no_store_and_the_hosts_controls_take_only_their_actions(
    client: FlaskClient,
) -> None:
    """The 303 that sets the player's token is no-store as the page is; the host's control
    takes open, close, or undo with a name, nothing else (a stray action closed the link);
    the phone's takes check_in or check_out."""
    evening = new_evening(client)
    answer = _tap(client, evening, "Ann")
    assert answer.status_code == 303 and answer.headers["Cache-Control"].startswith("no-store")
    control = f"{evening['host']}/check-in"
    assert client.post(control, data={"action": "bogus"}).status_code == 400
    assert client.post(control, data={"action": "undo", "name": " "}).status_code == 400
    assert _state(client, evening).check_in_open
    assert client.post(evening["link"], data={"action": "bogus", "name": "Bo"}).status_code == 400
    api = client.post(
        f"{evening['api']}/check-in", json={"action": "undo"}, headers=evening["auth"]
    )
    assert api.status_code == 400 and api.get_json()["error"]["field"] == "name"
