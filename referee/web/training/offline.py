"""The trainer without signal (issue 32, point 4): a pack of sessions, kept by the phone.

`GET /training/<variant>/offline.json?level=&house_rules=[&seed=&due=]` answers, in the
request's language, two sessions of the variant at that level (the one the phone is in first,
when `seed` says which): each question's pages as the server renders them (the question, its
verdict when right, when wrong, and for a solve question, when melds other than the referee's
cannot be checked without the engine) and what judges an answer. The service worker
(templates/offline/sw.js, static/js/training-offline.js) keeps the pack when a trainer page is
opened, and without signal answers the session's addresses from it: the same pages, the same
verdicts, from the same drills.

A page is rendered with placeholders the worker fills in: `{right}` and `{next_right}` (answers
right so far, in the hidden field and the next question's address), `{given}` (the answer in
words) and `{error}` (an answer that cannot be read: its sentence, else the line is taken out).
A solve answer is checked as far as it can be without the engine: the cards come from the hand
and leave what the referee's answer leaves; melds the referee's own are right, others say that
they could not be checked (and are not remembered as right or wrong).
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, Final

from flask import Response, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.engine.cards import Rank, parse_cards
from referee.engine.errors import RefereeError
from referee.web.plumbing.i18n import current_language
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.picker import card_picker_setup
from referee.web.vocabulary.words import rank_label

from . import bp, views
from .pages import refused
from .session import MAX_MELDS, QUESTIONS, Judged, Session, draw, goes_down, referee_answer

JSON = dict[str, Any]
#: Sessions in a pack: the one the phone is in and another, so that a second session without
#: signal asks other questions.
SESSIONS: Final = 2
#: What the pages are rendered with, for the service worker to fill in.
RIGHT, NEXT_RIGHT, GIVEN, ERROR = "{right}", "{next_right}", "{given}", "{error}"


@bp.get("/training/<variant>/offline.json")
def offline_pack(variant: str) -> ResponseReturnValue:
    """The pack the service worker keeps for this variant, level and house rules."""
    try:
        sessions = _sessions(variant)
    except RefereeError as error:
        return refused(error)
    response = Response(
        json.dumps(_pack(sessions), ensure_ascii=False), mimetype="application/json"
    )
    response.headers["Cache-Control"] = "no-store"  # the worker keeps it, not the browser's cache
    response.headers["Vary"] = "Accept-Language, Cookie"
    return response


def _pack(sessions: list[Session]) -> JSON:
    first = sessions[0]
    setup = card_picker_setup()
    return {
        "variant": first.variant,
        "level": first.level,
        "house_rules": first.house_rules,
        "lang": current_language(),
        "made": datetime.now(UTC).isoformat(timespec="seconds"),
        "letters": {"ranks": json.loads(setup.ranks_json), "suits": json.loads(setup.suits_json)},
        # A card in words as the server's verdict says it (words.card_label): the rank's local
        # letter and the suit's symbol; a joker, and a joker standing for a card.
        "labels": {
            "ranks": {rank.letter: rank_label(rank) for rank in Rank},
            "joker": gettext("joker"),
            "joker_as": gettext("joker as %(card)s", card="{card}"),
        },
        "words": {
            "no": gettext("No"),
            "no_answer_chosen": describe("no_answer_chosen", {}),
            "points_not_a_number": describe("points_not_a_number", {}),
            "no_melds_typed": describe("no_melds_typed", {}),
            "bad_card": describe("bad_card", {"token": "{card}"}),
        },
        "max_melds": MAX_MELDS,
        "sessions": [_session(session) for session in sessions],
    }


def _sessions(variant: str) -> list[Session]:
    """The session the query names (when it names a seed) and others drawn afresh."""
    asked = {name: request.args.get(name, "") for name in ("level", "house_rules")}
    sessions: list[Session] = []
    if request.args.get("seed", "").strip():
        named = {"seed": request.args["seed"], "due": request.args.get("due", "")}
        sessions.append(draw(variant, {**asked, **named}))
    tries = 0
    while len(sessions) < SESSIONS and tries < 2 * SESSIONS:
        tries += 1
        drawn = draw(variant, asked)
        if all(drawn.seed != held.seed for held in sessions):
            sessions.append(drawn)
    return sessions


def _session(session: Session) -> JSON:
    return {
        "seed": session.seed,
        "due": ",".join(session.due),
        "questions": [
            _question(session, drill, number)
            for number, drill in enumerate(session.drills, start=1)
        ],
        "done": _done(session),
    }


def _done(session: Session) -> str:
    context = views.done(session, RIGHT)
    with _as_asked(session, QUESTIONS + 1):
        return render_template("training/done.html", **context)


def _as_asked(session: Session, number: int) -> AbstractContextManager[Any]:
    """A request for the question's own address, with this request's headers (its language,
    theme and text size): a page rendered in it links its language and theme switches back to
    the question, not to the pack."""
    address = url_for("training.session_page", variant=session.variant, **session.query(q=number))
    return current_app.test_request_context(
        address[len(request.script_root) :],
        base_url=request.url_root,
        headers=request.headers.to_wsgi_list(),
    )


def _question(session: Session, drill: JSON, number: int) -> JSON:
    def page(judged: Judged | RefereeError | None) -> str:
        context = views.question(session, drill, number, RIGHT, judged, next_right=NEXT_RIGHT)
        if judged is None:
            context["error"] = ERROR
        with _as_asked(session, number):
            return render_template("training/question.html", **context)

    answer = referee_answer(drill)
    pages = {
        "ask": page(None),
        "right": page(Judged(True, GIVEN, answer)),
        "wrong": page(Judged(False, GIVEN, answer)),
    }
    if drill["choices"] is None and drill["kind"] == "solve":
        pages["unsure"] = page(Judged(False, GIVEN, answer, checked=False))
    return {**pages, "judge": _judge(session, drill)}


def _plain(cards: list[str]) -> list[str]:
    """Cards as the hand holds them: a joker as "JK", whatever it stands for."""
    return [str(card.plain) for card in parse_cards(cards)]


def _written(cards: list[str]) -> list[str]:
    """Cards in the engine's notation: a declared joker as "JK=10C"."""
    return [str(card) for card in parse_cards(cards)]


def _judge(session: Session, drill: JSON) -> JSON:
    """What the worker judges an answer with: the drill's answer, no more."""
    if drill["choices"] is not None:
        return {
            "form": "choices",
            "labels": drill["choice_labels"],
            "answer": drill["choices"].index(drill["answer"]),
        }
    if drill["kind"] == "value":
        return {"form": "points", "answer": drill["answer"]}
    answer = drill["answer"]
    variant = session.played()
    hand = parse_cards(drill["question"]["hand"])
    return {
        "form": "solve",
        "can": goes_down(answer),
        # The referee's melds as written ("JK=10C": what its joker stands for), the hand plain.
        "melds": [_written(meld) for meld in answer["melds"]] if goes_down(answer) else [],
        "hand": _plain(drill["question"]["hand"]),
        "points": {str(card.plain): variant.points_of(card) for card in hand},
        "least": int(answer["leftover_penalty"]),
    }
