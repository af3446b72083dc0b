"""Issue 32, points 2 and 3: the trainer as pages (/training). A session is ten questions of the
drills service, easy to hard, one a screen; an answer is judged by drawing the same session
again from its address (seed, level, house rules, the kinds due); bad input is a 400 in words,
never a 500; a game and the referee page hand their rules to the trainer by a link."""

from __future__ import annotations

import html
import json
import re
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.engine import drills as engine
from referee.engine.variants import VARIANTS
from referee.web.training import views
from referee.web.training.session import KIND_ORDER, QUESTIONS, draw, goes_down

SESSION = "/training/contract?level=2&seed=4242"


def text(client: FlaskClient, url: str, status: int = 200) -> str:
    answer = client.get(url)
    assert answer.status_code == status, (url, answer.status_code)
    return html.unescape(answer.get_data(as_text=True))


def heading(page: str) -> str:
    found = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S)
    assert found
    return found.group(1).strip()


def drawn(app: Flask, url: str, lang: str = "en") -> Any:
    parts = urlsplit(url)
    args = {name: values[0] for name, values in parse_qs(parts.query).items()}
    with app.test_request_context(f"/?lang={lang}"):
        return draw(parts.path.rsplit("/", 1)[1], args)


def right_answer(drill: dict[str, Any]) -> dict[str, str]:
    """The query that answers `drill` as the referee does."""
    if drill["choices"] is not None:
        return {"answer": str(drill["choices"].index(drill["answer"]))}
    if drill["kind"] == "value":
        return {"answer": str(drill["answer"])}
    answer = drill["answer"]
    if not goes_down(answer):
        return {"down": "no"}
    return {"down": "yes", "melds": "\n".join(" ".join(meld) for meld in answer["melds"])}


def wrong_answer(drill: dict[str, Any]) -> dict[str, str]:
    if drill["choices"] is not None:
        right = drill["choices"].index(drill["answer"])
        return {"answer": str((right + 1) % len(drill["choices"]))}
    if drill["kind"] == "value":
        return {"answer": str(drill["answer"] + 5)}
    return {"down": "yes" if not goes_down(drill["answer"]) else "no", "melds": "QH QD"}


def test_the_start_page_offers_every_variant_and_three_levels(client: FlaskClient) -> None:
    page = text(client, "/training?lang=de")
    assert "Die Regeln lernen" in page
    assert page.count('name="level"') == 3
    assert 'value="shanghai"' in page and 'value="contract" selected' in page
    # The phone's "my rules" lead to the rule card of just those rules (the print side's address).
    assert 'data-pdf="/rules/contract/my-rules.pdf"' in page
    # Sent without JavaScript, the form goes on to the session, which draws its seed.
    answer = client.get("/training?variant=shanghai&level=3")
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/training/shanghai?level=3"
    answer = client.get("/training/shanghai?level=3")
    assert answer.status_code == 302
    assert re.fullmatch(r"/training/shanghai\?level=3&seed=\d+", answer.headers["Location"])


def test_a_session_is_ten_questions_of_the_drills_service_easy_to_hard(
    app: Flask, client: FlaskClient
) -> None:
    session = drawn(app, SESSION, "de")
    assert len(session.drills) == QUESTIONS
    assert len({drill["id"] for drill in session.drills}) == QUESTIONS
    pack = client.get("/api/v1/drills?variant=contract&level=2&seed=4242&lang=de").get_json()
    assert {d["id"] for d in session.drills} == {d["id"] for d in pack["drills"]}
    order = [(d["near_miss"], KIND_ORDER.index(d["kind"])) for d in session.drills]
    assert order == sorted(order)  # plain questions first, then the traps; each easy to hard
    for number, drill in enumerate(session.drills, start=1):
        page = text(client, f"{SESSION}&q={number}&lang=de")
        assert heading(page) == drill["prompt"]
        assert f"Frage {number} von {QUESTIONS}" in page
        if drill["kind"] in ("meld", "value"):  # the cards drawn as the round screen draws them
            assert page.count('<li class="card ') == len(drill["question"]["cards"])
    end = text(client, f"{SESSION}&q={QUESTIONS + 1}&right=7&lang=de")
    assert heading(end) == f"7 von {QUESTIONS} richtig"


def test_every_question_answered_right_is_right(app: Flask, client: FlaskClient) -> None:
    session = drawn(app, SESSION)
    for number, drill in enumerate(session.drills, start=1):
        query = urlencode({**right_answer(drill), "q": number, "right": number - 1})
        page = text(client, f"{SESSION}&{query}")
        assert "✓ Right" in page, (drill["kind"], drill["question"])
        following = f"q={number + 1}&amp;right={number}"
        assert following in client.get(f"{SESSION}&{query}").get_data(as_text=True)


def test_a_wrong_answer_is_explained_by_the_referee_in_the_phone_s_language(
    app: Flask, client: FlaskClient
) -> None:
    session = drawn(app, SESSION, "nl")
    number, drill = next(
        (n, d) for n, d in enumerate(session.drills, start=1) if d["reasons"] and d["choices"]
    )
    query = urlencode({**wrong_answer(drill), "q": number, "right": 3})
    page = text(client, f"{SESSION}&{query}&lang=nl")
    assert "✗ Niet goed" in page
    assert drill["reasons"][0]["message"] in page  # the referee's own reason, in Dutch
    label = drill["choice_labels"][drill["choices"].index(drill["answer"])]
    assert f"Het antwoord van de scheidsrechter: {label}" in page
    assert session.rules_url.replace("http://localhost", "") in page.replace("&amp;", "&")
    assert f"q={number + 1}&right=3" in page  # a wrong answer adds nothing to the count
    raw = client.get(f"{SESSION}&{query}&lang=nl").get_data(as_text=True)
    found = re.search(r'data-trainer-record="([^"]*)"', raw)
    assert found
    record = json.loads(html.unescape(found.group(1)))
    assert record["right"] is False and record["kind"] == drill["kind"]
    assert [rule["code"] for rule in record["rules"]] == [r["code"] for r in drill["reasons"]]


def test_the_kinds_due_come_back_as_near_misses(app: Flask, client: FlaskClient) -> None:
    session = drawn(app, f"{SESSION}&due=swap,layoff")
    assert session.due == ("swap", "layoff")
    for kind in session.due:
        assert any(d["kind"] == kind and d["near_miss"] for d in session.drills)
    assert len(session.drills) == QUESTIONS
    # A variant without joker swaps leaves that kind out rather than refusing the session.
    assert drawn(app, "/training/rummy?seed=1&due=swap").due == ()
    text(client, f"{SESSION}&due=swap,layoff&q=10")


def test_house_rules_go_along_and_judge_the_answers(app: Flask, client: FlaskClient) -> None:
    rules = json.dumps({"max_jokers_per_meld": 2})
    answer = client.get(f"/training/contract?house_rules={rules}")
    assert answer.status_code == 302
    assert "house_rules=" in answer.headers["Location"]
    start = text(client, f"/training?variant=contract&house_rules={rules}&lang=de")
    assert 'name="house_rules"' in start and "Geltende Hausregeln (1)" in start
    session = drawn(app, f"/training/contract?seed=7&house_rules={rules}")
    assert json.loads(session.house_rules) == {"max_jokers_per_meld": 2}


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("q=1&answer=9", "Choose one of the answers first."),
        ("q=1&answer=yes", "Choose one of the answers first."),
        ("q=0", "is not between 1 and 11"),
        ("q=x", ""),
        ("right=99", ""),
        ("due=cards", "There is no drill called"),
        ("house_rules=%7B", ""),
        ("house_rules=%7B%22no_such_rule%22%3A1%7D", ""),
    ],
)
def test_bad_input_is_a_400_in_words(client: FlaskClient, query: str, words: str) -> None:
    page = text(client, f"{SESSION}&{query}", 400)
    assert words in page
    for query in ("level=7", "seed=-3", "seed=1e9", "level=two"):
        text(client, f"/training/contract?{query}", 400)


def test_an_unreadable_answer_is_said_under_the_question(app: Flask, client: FlaskClient) -> None:
    session = drawn(app, SESSION)
    number = next(n for n, d in enumerate(session.drills, 1) if d["kind"] == "value")
    page = text(client, f"{SESSION}&q={number}&answer=lots&lang=de", 400)
    assert "Gib die Punkte als ganze Zahl ein" in page and 'name="answer"' in page
    solve = next(n for n, d in enumerate(session.drills, 1) if d["kind"] == "solve")
    assert "Wähle zuerst" in text(client, f"{SESSION}&q={solve}&down=maybe&lang=de", 400)
    page = text(client, f"{SESSION}&q={solve}&down=yes&melds=ZZ&lang=de", 400)
    assert 'role="alert"' in page
    assert text(client, "/training/no-such-game", 400)
    assert text(client, "/training?variant=nope", 400)


_VALUES = st.one_of(
    st.text(max_size=12),
    st.integers(-5, 10**15).map(str),
    st.sampled_from(["", " ", "1e3", "٣", "NaN", "meld,meld", "\x00", "%", "[]", "{}"]),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(
            ["q", "right", "answer", "down", "melds", "level", "seed", "due", "house_rules"]
        ),
        _VALUES,
        max_size=5,
    )
)
def test_no_query_is_a_500(client: FlaskClient, args: dict[str, str]) -> None:
    answer = client.get("/training/contract", query_string={"seed": "5", **args})
    assert answer.status_code in (200, 302, 400), (args, answer.status_code)
    answer = client.get("/training", query_string=args)
    assert answer.status_code in (200, 302, 400), (args, answer.status_code)


def test_a_game_and_the_referee_page_hand_their_rules_to_the_trainer(
    client: FlaskClient,
) -> None:
    rules = {"max_jokers_per_meld": 2}
    game = client.post(
        "/api/v1/games",
        json={"variant": "contract", "players": ["Ann", "Bo", "Cy"], "house_rules": rules},
    ).get_json()
    page = text(client, f"/games/{game['id']}")
    link = re.search(r'<a href="(/training\?[^"]*)">Practise these rules</a>', page)
    assert link
    start = text(client, link.group(1))
    assert 'value="contract" selected' in start
    raw = client.get(link.group(1)).get_data(as_text=True)
    found = re.search(r'name="house_rules" value="([^"]*)"', raw)
    assert found and json.loads(html.unescape(found.group(1))) == rules
    page = text(client, "/referee?variant=shanghai&house_rules=" + json.dumps(rules))
    link = re.search(r'<a href="(/training\?[^"]*)">Practise these rules</a>', page)
    assert link and "variant=shanghai" in link.group(1) and "house_rules=" in link.group(1)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_s_questions_are_asked_and_judged(
    app: Flask, client: FlaskClient, variant: str
) -> None:
    """Every question of two sessions of each variant shows, and its right answer is right: a
    variant without contracts too (its hand goes down with any melds; no round to name)."""
    for seed in (0, 1):
        address = f"/training/{variant}?level=3&seed={seed}"
        session = drawn(app, address)
        for number, drill in enumerate(session.drills, start=1):
            query = urlencode({**right_answer(drill), "q": number, "right": 0})
            assert "✓ Right" in text(client, f"{address}&{query}"), (variant, drill["question"])


def test_every_kind_and_language_draws_its_page(client: FlaskClient) -> None:
    for lang in ("en", "de", "nl", "pt", "fr", "es"):
        for kind in engine.KINDS:
            pack = client.get(f"/api/v1/drills?variant=contract&kind={kind}&seed=3&count=1")
            assert pack.status_code == 200
        for number in (1, 5, 10, 11):
            text(client, f"/training/shanghai?level=3&seed=9&q={number}&lang={lang}")


def test_a_question_says_what_its_verdict_turns_on(app: Flask) -> None:
    """A swap turns on whose meld it is and whether the contract is down, a contract check going
    out on its last discard: the page says them as the quiz sheet does (not the cards alone)."""
    session = drawn(app, SESSION)
    swap = {
        "kind": "swap",
        "question": {"meld": ["7H", "JK", "9H"], "contract_down": "no", "own_meld": False},
    }
    contract = {
        "kind": "contract",
        "question": {"round": 1, "melds": [["7H", "7S", "7D"]], "going_out": True, "discard": "9C"},
    }
    with app.test_request_context("/?lang=en"):
        _, swap_facts = views.shown(session, swap)
        _, contract_facts = views.shown(session, contract)
    assert "Your contract is not down yet." in swap_facts
    assert "The meld is another player's." in swap_facts
    assert "Going out with these melds." in contract_facts
    assert any(fact.startswith("Last discard: 9") for fact in contract_facts), contract_facts
