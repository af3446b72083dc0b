"""Issue 32, point 4: the trainer without signal. The pack the service worker keeps
(`/training/<variant>/offline.json`) holds two sessions, the one the phone is in first; each
question's pages, filled in as the worker fills them (static/js/training-offline.js), are the
server's own pages for the same address: the question, its verdict right and wrong, the end.
The worker's judging runs in Chromium (tests/browser/test_training_browser.py)."""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import urlencode

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_training_pages import drawn, right_answer, wrong_answer

from referee.web.training.offline import SESSIONS
from referee.web.training.session import QUESTIONS, goes_down

# The language, theme and text-size switches link back to the page's own address: a verdict's
# address holds the answer, the pack's page the question's.
_SWITCHES = re.compile(r'href="[^"]*[?&]next=[^"]*"')


def _pack(client: FlaskClient, query: str, lang: str = "en", status: int = 200) -> Any:
    answer = client.get(
        f"/training/contract/offline.json?{query}", headers={"Accept-Language": lang}
    )
    assert answer.status_code == status, answer.get_data(as_text=True)[:300]
    return answer.get_json() if status == 200 else answer.get_data(as_text=True)


def _fill(page: str, right: int, next_right: int, given: str = "") -> str:
    """As the worker fills a page in (training-offline.js, fill)."""
    for name, value in (("next_right", next_right), ("right", right)):
        page = page.replace(f"%7B{name}%7D", str(value)).replace(f"{{{name}}}", str(value))
    page = page.replace("{given}", html.escape(given))
    return page.replace('<div class="form-errors" role="alert"><p>{error}</p></div>', "")


def _same(server: str, pack: str) -> None:
    assert _SWITCHES.sub("", server) == _SWITCHES.sub("", pack)


def _given(drill: dict[str, Any], answer: dict[str, str]) -> str:
    """The answer in words, as the verdict shows it."""
    if drill["choices"] is not None:
        return str(drill["choice_labels"][int(answer["answer"])])
    return answer["answer"]


def test_the_pack_holds_the_session_the_phone_is_in_first(client: FlaskClient) -> None:
    pack = _pack(client, "level=2&seed=4242&due=swap,value")
    assert [pack["variant"], pack["level"], pack["lang"]] == ["contract", 2, "en"]
    assert len(pack["sessions"]) == SESSIONS
    first, other = pack["sessions"]
    assert (first["seed"], first["due"]) == (4242, "swap,value")
    assert other["seed"] != 4242 and other["due"] == ""
    for session in pack["sessions"]:
        assert len(session["questions"]) == QUESTIONS
        for question in session["questions"]:
            assert {"ask", "right", "wrong", "judge"} <= set(question)
            assert ("unsure" in question) == (question["judge"]["form"] == "solve")


def test_a_pack_in_the_phones_language(client: FlaskClient) -> None:
    pack = _pack(client, "level=1", lang="de")
    assert pack["lang"] == "de"
    assert pack["words"]["no"] == "Nein"
    assert pack["letters"]["ranks"]["D"] == "Q"  # the German notation: D♣ is the queen
    assert '<html lang="de"' in pack["sessions"][0]["questions"][0]["ask"]
    labels = pack["labels"]  # a card in words as the verdict says it: D♣, "Joker als 7♥"
    assert labels["ranks"]["Q"] == "D" and labels["ranks"]["10"] == "10"
    assert labels["joker"] == "Joker" and labels["joker_as"] == "Joker als {card}"


@pytest.mark.parametrize("seed", [4242, 77])
def test_every_page_is_the_servers_own(app: Flask, client: FlaskClient, seed: int) -> None:
    address = f"/training/contract?level=3&seed={seed}"
    session = drawn(app, address)
    pack = _pack(client, f"level=3&seed={seed}")["sessions"][0]
    right = 0
    paired = zip(session.drills, pack["questions"], strict=True)
    for number, (drill, question) in enumerate(paired, start=1):
        asked = f"{address}&q={number}&right={right}"
        _same(client.get(asked).get_data(as_text=True), _fill(question["ask"], right, right))
        for answer, verdict in ((right_answer(drill), "right"), (wrong_answer(drill), "wrong")):
            server = client.get(f"{asked}&{urlencode(answer)}").get_data(as_text=True)
            if drill["kind"] == "solve":  # the melds in words: the server's own labels
                given = re.search(r"<p>(?:Your answer: )(.*?)</p>", server)
                assert given
                answer_words = html.unescape(given.group(1))
            else:
                answer_words = _given(drill, answer)
            following = right + (1 if verdict == "right" else 0)
            _same(server, _fill(question[verdict], right, following, answer_words))
        right += 1
    server = client.get(f"{address}&q={QUESTIONS + 1}&right={right}").get_data(as_text=True)
    _same(server, _fill(pack["done"], right, right))


def test_what_judges_an_answer_is_the_drills_answer(app: Flask, client: FlaskClient) -> None:
    session = drawn(app, "/training/contract?level=3&seed=4242")
    pack = _pack(client, "level=3&seed=4242")["sessions"][0]
    for drill, question in zip(session.drills, pack["questions"], strict=True):
        judge = question["judge"]
        if drill["choices"] is not None:
            assert (
                judge["labels"][judge["answer"]]
                == drill["choice_labels"][drill["choices"].index(drill["answer"])]
            )
        elif drill["kind"] == "value":
            assert judge["answer"] == drill["answer"]
        else:
            answer = drill["answer"]
            assert judge["can"] == goes_down(answer)
            assert judge["least"] == answer["leftover_penalty"]
            assert sorted(judge["hand"]) == sorted(
                "JK" if card.startswith("JK") else card for card in drill["question"]["hand"]
            )
            held = [card.split("=")[0] for meld in judge["melds"] for card in meld]
            assert all(held.count(card) <= judge["hand"].count(card) for card in held)
            left = list(judge["hand"])
            for card in held:
                left.remove(card)
            assert sum(judge["points"][card] for card in left) == judge["least"]


def test_an_answer_not_checked_is_not_remembered(client: FlaskClient) -> None:
    pack = _pack(client, "level=3&seed=4242")
    for session in pack["sessions"]:
        for question in session["questions"]:
            if "unsure" in question:
                assert "data-trainer-record" not in question["unsure"]
                assert "trainer-unsure" in question["unsure"]
                assert "data-trainer-record" in question["wrong"]


@pytest.mark.parametrize(
    ("query", "code"),
    [("level=9", "out_of_range"), ("level=1&house_rules=%7B", "bad_house_rule")],
)
def test_bad_input_is_a_400_in_words(client: FlaskClient, query: str, code: str) -> None:
    page = _pack(client, query, status=400)
    assert "<h1" in page and "Traceback" not in page


def test_an_unknown_variant_is_a_400(client: FlaskClient) -> None:
    answer = client.get("/training/skat/offline.json?level=1")
    assert answer.status_code == 400


_ODD = st.one_of(
    st.sampled_from(["", "1", "3", "0", "4", "-1", "1.5", "٣", "１", "9" * 40, "\x00", "x"]),
    st.text(max_size=12),
)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(level=_ODD, seed=_ODD, due=_ODD, house_rules=_ODD)
def test_odd_queries_are_answered_or_refused_never_a_500(
    client: FlaskClient, level: str, seed: str, due: str, house_rules: str
) -> None:
    query = urlencode({"level": level, "seed": seed, "due": due, "house_rules": house_rules})
    answer = client.get(f"/training/contract/offline.json?{query}")
    assert answer.status_code in (200, 400), (query, answer.status_code)
