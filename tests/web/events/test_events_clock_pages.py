"""A series' clock through the web (issue 31, point 3), with the web layer's clock patched (a test
clock): the board and a table's phone show the same time left after a reload, at zero the
phone says "last round" and a round past it is a 409 in the table's language, extra minutes are
one table's, the host pauses and resumes (each a write the stream tells), and bad input is a
clear 4xx that keeps what was typed."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from club_fixture import new_club, results_json
from flask.testing import FlaskClient

from referee.web.core import clock as web_clock

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
T0 = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=datetime.UTC)


class FakeClock:
    """The web layer's time, set by the test."""

    def __init__(self) -> None:
        self.moment = T0

    def at(self, minutes: float) -> None:
        self.moment = T0 + datetime.timedelta(minutes=minutes)

    def __call__(self) -> datetime.datetime:
        return self.moment


@pytest.fixture
def test_clock(monkeypatch: pytest.MonkeyPatch) -> FakeClock:
    clock = FakeClock()
    monkeypatch.setattr(web_clock, "now", clock)
    return clock


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _evening(client: FlaskClient, **settings: Any) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """A club night of 8 with a 20-minute clock, series 1 drawn and started at T0."""
    club = new_club(client)
    body = {"name": "Club night", "variant": "contract", "series": 3, "seed": 7,
            "series_minutes": 20, "lang": "de"} | settings  # fmt: skip
    made = client.post(f"/api/v1/clubs/{club['id']}/events", json=body,
                       headers=_auth(club["edit_token"]))  # fmt: skip
    assert made.status_code == 201, made.get_json()
    base = f"/api/v1/clubs/{club['id']}/events/{made.get_json()['id']}"
    client.post(f"{base}/players", json={"names": NAMES}, headers=_auth(club["edit_token"]))
    drawn = client.post(f"{base}/series", json={"series": 1}, headers=_auth(club["edit_token"]))
    assert drawn.status_code == 200, drawn.get_json()
    return club, base, drawn.get_json()


def _clock(client: FlaskClient, club: dict[str, Any], base: str, **body: Any) -> Any:
    return client.post(f"{base}/clock", json=body, headers=_auth(club["edit_token"]))


def _pages(base: str) -> tuple[str, str]:
    board = base.replace("/api/v1", "") + "/board"
    return board, board.rsplit("/", 1)[0] + "/board/live"


def _shown(page: str, table: int | None = None) -> tuple[float, str]:
    """The seconds left a clock part counts from (its deadline less the server's now), and
    the time it shows as drawn."""
    where = f'id="clock-1-{table or "series"}"'
    part = page[page.index(where) :]
    ends = re.search(r'data-clock-ends="([^"]+)"', part)
    now = re.search(r'data-clock-now="([^"]+)"', part)
    left = re.search(r"data-clock-left>([^<]+)<", part)
    assert ends and now and left, part[:600]
    seconds = (_moment(ends.group(1)) - _moment(now.group(1))).total_seconds()
    return seconds, left.group(1)


def _moment(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _phone(client: FlaskClient, table: dict[str, Any]) -> str:
    return client.get(table["edit_url"], query_string={"lang": "en"}).get_data(as_text=True)


def _round(client: FlaskClient, table: dict[str, Any], number: int, lang: str = "de") -> Any:
    seats = table["seats"]
    penalties = {seat: 10 * seat for seat in range(1, len(seats))}
    body = {"round": number, "results": results_json(seats, 0, penalties)}
    token = table["edit_url"].rsplit("/", 1)[-1]
    url = f"/api/v1/games/{table['game']}/rounds?lang={lang}"
    return client.post(url, json=body, headers=_auth(token))


def test_a_20_minute_clock_the_board_and_a_table_phone_show_the_same_time_left_after_a_reload(
    client: FlaskClient, test_clock: FakeClock
) -> None:
    _club, base, event = _evening(client)
    table = event["series"][0]["tables"][0]
    board, _live = _pages(base)
    for minutes, shown in ((7.5, "12:30"), (8, "12:00"), (19 + 59 / 60, "0:01")):
        test_clock.at(minutes)  # a reload at that moment, on the board and on the phone
        on_board = _shown(client.get(board).get_data(as_text=True))
        on_phone = _shown(_phone(client, table), 1)
        assert on_board[1] == on_phone[1] == shown
        assert abs(on_board[0] - on_phone[0]) <= 1
        assert on_board[0] == pytest.approx(20 * 60 - minutes * 60, abs=1)


def test_the_evenings_json_has_each_series_clock(
    client: FlaskClient, test_clock: FakeClock
) -> None:
    _club, base, _event = _evening(client, clock_rule="one_more")
    test_clock.at(5)
    answer = client.get(base).get_json()
    assert answer["series_minutes"] == 20 and answer["clock_rule"] == "one_more"
    clock = answer["series"][0]["clock"]
    assert clock["minutes"] == 20 and clock["rule"] == "one_more" and not clock["paused"]
    assert clock["started_at"] == "2026-12-05T19:00:00Z" and clock["now"] == "2026-12-05T19:05:00Z"
    assert clock["ends_at"] == "2026-12-05T19:20:00Z" and clock["seconds_left"] == 15 * 60
    assert [t["ends_at"] for t in clock["tables"]] == ["2026-12-05T19:20:00Z"] * 2
    assert not clock["time_up"] and clock["tables"][0]["last_round"] is None


def test_at_zero_the_phone_says_last_round_and_a_round_past_it_is_a_409_in_its_language(
    client: FlaskClient, test_clock: FakeClock
) -> None:
    _club, base, event = _evening(client)
    table = event["series"][0]["tables"][0]
    test_clock.at(10)
    assert _round(client, table, 1).status_code == 200
    test_clock.at(20)
    assert "Time is up: last round" in _phone(client, table)
    board = client.get(_pages(base)[0], query_string={"lang": "en"}).get_data(as_text=True)
    assert "Time is up" in board and "it is their last" in board
    test_clock.at(26)  # round 2 was in progress at zero: the last
    assert _round(client, table, 2).status_code == 200
    result = client.get(base).get_json()["series"][0]["tables"][0]["result"]
    assert result["finished"] and result["rounds"] == 2
    refused = _round(client, table, 3)
    assert refused.status_code == 409
    assert refused.get_json()["error"]["code"] == "series_time_up"
    assert refused.get_json()["error"]["message"].startswith(
        "Die Zeit für Serie 1 ist abgelaufen: Runde 2 war die letzte"
    )
    assert "the series is over at this table" in _phone(client, table)


def test_with_one_more_the_phone_says_this_round_and_one_more(
    client: FlaskClient, test_clock: FakeClock
) -> None:
    _club, _base, event = _evening(client, clock_rule="one_more")
    table = event["series"][0]["tables"][0]
    test_clock.at(21)
    assert "Time is up: this round and one more" in _phone(client, table)
    assert _round(client, table, 1).status_code == 200
    assert "Time is up: last round" in _phone(client, table)
    assert _round(client, table, 2).status_code == 200
    assert _round(client, table, 3).status_code == 409


def test_extra_minutes_are_for_one_table_only(client: FlaskClient, test_clock: FakeClock) -> None:
    club, base, event = _evening(client)
    first, second = event["series"][0]["tables"]
    test_clock.at(12)
    given = _clock(client, club, base, action="extra", table=2, minutes=5)
    assert given.status_code == 200 and given.get_json()["version"] == event["version"] + 1
    tables = given.get_json()["series"][0]["clock"]["tables"]
    assert [(t["extra_minutes"], t["ends_at"]) for t in tables] == [
        (0, "2026-12-05T19:20:00Z"),
        (5, "2026-12-05T19:25:00Z"),
    ]
    test_clock.at(20 + 1 / 60)
    assert "Time is up: last round" in _phone(client, first)
    assert _shown(_phone(client, second), 2)[1] == "4:59"
    board = client.get(_pages(base)[0], query_string={"lang": "en"}).get_data(as_text=True)
    assert "Table 2: 5 extra minutes" in board


def test_the_host_pauses_and_resumes_and_each_is_a_write_the_stream_tells(
    client: FlaskClient, test_clock: FakeClock
) -> None:
    club, base, event = _evening(client)
    board, live = _pages(base)
    test_clock.at(5)
    paused = _clock(client, club, base, action="pause")
    assert paused.status_code == 200
    clock = paused.get_json()["series"][0]["clock"]
    assert clock["paused"] and clock["paused_at"] == "2026-12-05T19:05:00Z"
    assert clock["ends_at"] is None
    assert paused.get_json()["version"] == event["version"] + 1
    # The board follows the version: its part is drawn again, paused at 15:00.
    since = client.get(live, query_string={"since": event["version"]},
                       headers={"HX-Request": "true"})  # fmt: skip
    assert since.status_code == 200 and "15:00" in since.get_data(as_text=True)
    test_clock.at(9)
    assert "data-clock-ends" not in client.get(board).get_data(as_text=True)
    assert _clock(client, club, base, action="pause").status_code == 409  # paused already
    resumed = _clock(client, club, base, action="resume")
    clock = resumed.get_json()["series"][0]["clock"]
    assert clock["ends_at"] == "2026-12-05T19:24:00Z" and clock["paused_seconds"] == 240
    assert _clock(client, club, base, action="resume").status_code == 409


def test_at_zero_the_clock_part_asked_again_says_the_time_is_up(
    client: FlaskClient, test_clock: FakeClock
) -> None:
    _club, base, _event = _evening(client)
    page = base.replace("/api/v1", "") + "/clock"
    test_clock.at(19)
    assert "1:00" in client.get(page, query_string={"series": 1}).get_data(as_text=True)
    test_clock.at(20)
    up = client.get(page, query_string={"series": 1, "table": 2, "lang": "en"})
    assert up.status_code == 200 and "Time is up: last round" in up.get_data(as_text=True)
    assert client.get(page, query_string={"series": 1, "table": 9}).status_code == 404
    assert client.get(page, query_string={"series": "x"}).status_code == 400


def test_bad_clock_input_is_a_clear_4xx(client: FlaskClient, test_clock: FakeClock) -> None:
    club = new_club(client)
    made = client.post(
        f"/api/v1/clubs/{club['id']}/events",
        json={"name": "Night", "variant": "contract", "series_minutes": -5, "lang": "en"},
        headers=_auth(club["edit_token"]),
    )
    assert made.status_code == 400
    assert made.get_json()["error"]["code"] == "bad_series_minutes"
    assert "5 to 240 minutes, not -5" in made.get_json()["error"]["message"]
    club, base, _event = _evening(client)
    for body, code in (
        ({"action": "extra", "table": 9, "minutes": 5}, "no_such_table"),
        ({"action": "extra", "table": 1, "minutes": -5}, "bad_extra_minutes"),
        ({"action": "set", "minutes": 0}, "bad_series_minutes"),
    ):
        answer = _clock(client, club, base, **body)
        assert answer.status_code == 400 and answer.get_json()["error"]["code"] == code, body
    assert _clock(client, club, base, action="stop").status_code == 400
    assert _clock(client, club, base, action="extra", minutes="5").status_code == 400
    view = client.post(f"{base}/clock", json={"action": "pause"}, headers=_auth("x" * 32))
    assert view.status_code == 403


def test_the_hosts_page_pauses_gives_extra_minutes_and_keeps_what_was_typed(
    client: FlaskClient, test_clock: FakeClock
) -> None:
    club, base, _event = _evening(client)
    host = base.replace("/api/v1", "") + f"/edit/{club['edit_token']}"
    page = client.get(host, query_string={"lang": "en"}).get_data(as_text=True)
    assert 'id="clock"' in page and "Pause the clock" in page and "Give extra time" in page
    test_clock.at(3)
    paused = client.post(f"{host}/clock", data={"action": "pause", "series": "1"})
    assert paused.status_code == 303 and paused.headers["Location"].endswith("#clock")
    assert "Resume the clock" in client.get(host, query_string={"lang": "en"}).get_data(
        as_text=True
    )
    typed = {"action": "extra", "series": "1", "table": "2", "minutes": "-5"}
    wrong = client.post(f"{host}/clock?lang=en", data=typed)
    text = wrong.get_data(as_text=True)
    assert wrong.status_code == 400 and "Extra time is 1 to 60 minutes at once, not -5." in text
    assert 'value="-5"' in text and '<option value="2" selected>' in text
    given = client.post(f"{host}/clock", data={"action": "extra", "series": "1", "table": "2",
                                               "minutes": "5"})  # fmt: skip
    assert given.status_code == 303
    set_next = client.post(f"{host}/clock", data={"action": "set", "minutes": "30",
                                                  "rule": "one_more"})  # fmt: skip
    assert set_next.status_code == 303
    answer = client.get(base).get_json()
    assert answer["series_minutes"] == 30 and answer["clock_rule"] == "one_more"
    assert answer["series"][0]["clock"]["minutes"] == 20  # the running series keeps its own


def test_an_evening_without_a_clock_shows_none(client: FlaskClient, test_clock: FakeClock) -> None:
    _club, base, event = _evening(client, series_minutes=None)
    assert event["series"][0]["clock"] is None
    assert "data-clock-ends" not in client.get(_pages(base)[0]).get_data(as_text=True)
    assert "series-clock" not in _phone(client, event["series"][0]["tables"][0])


def test_the_new_evening_form_sets_a_clock_and_refuses_a_negative_one_keeping_it(
    client: FlaskClient,
) -> None:
    club = new_club(client)
    page = f"/clubs/{club['id']}/edit/{club['edit_token']}/events/new"
    form = {"name": "Kept name", "variant": "contract", "series": "3", "table_size": "4",
            "ends": "game", "scheme": "romme", "later_draws": "mix", "lang": "en",
            "clock_rule": "one_more"}  # fmt: skip
    refused = client.post(page, data=form | {"series_minutes": "-5"})
    text = refused.get_data(as_text=True)
    assert refused.status_code == 400 and "5 to 240 minutes, not -5" in text
    assert 'value="-5"' in text and 'value="Kept name"' in text
    made = client.post(page, data=form | {"series_minutes": "25"})
    assert made.status_code == 303
    event_id = made.headers["Location"].split("/events/")[1].split("/")[0]
    answer = client.get(f"/api/v1/clubs/{club['id']}/events/{event_id}").get_json()
    assert answer["series_minutes"] == 25 and answer["clock_rule"] == "one_more"
