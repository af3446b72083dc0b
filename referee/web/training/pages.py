"""The trainer's pages: `/training` chooses a variant and a level; `/training/<variant>` asks a
session's questions one a screen and judges each answer (session.py). Every step is a GET
whose query says it all (the session, the question's number, the answer), so the trainer works
as plain forms without JavaScript; static/js/training.js only remembers, on the phone, the
rules the player missed (a Leitner box per rule) and asks for them again."""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.engine import drills as engine
from referee.engine.errors import RefereeError
from referee.engine.variants import VARIANTS
from referee.web.plumbing.numbers import plain_count
from referee.web.vocabulary.house_rules import overrides_from_query, table_rules
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.words import variant_name

from . import bp, views
from .session import MAX_DUE, QUESTIONS, Judged, Session, draw, judge


def refused(error: RefereeError) -> ResponseReturnValue:
    abort(400, description=describe(error.code, error.params))


@bp.get("/training")
def index() -> ResponseReturnValue:
    """Choose a variant and a level; a link from a game or the referee page brings its table's
    variant and house rules along."""
    asked = request.args.get("variant", "").strip()
    try:
        table = table_rules(asked or "contract", overrides_from_query(request.args))
    except RefereeError as error:
        return refused(error)
    if "level" in request.args:  # the form sent without JavaScript: on to the session
        kept: dict[str, Any] = {
            n: request.args[n] for n in ("level", "due") if request.args.get(n, "").strip()
        }
        kept.update(table.query())
        return redirect(url_for("training.session_page", variant=table.variant.id, **kept))
    return render_template(
        "training/index.html",
        variants=[(variant_id, variant_name(variant_id)) for variant_id in VARIANTS],
        chosen=table.variant.id,
        house_rules=table.key,
        house_rules_words=views.house_rules_words(table),
        levels=views.level_choices(),
        kinds=",".join(engine.KINDS),
        max_due=MAX_DUE,
    )


@bp.get("/training/<variant>")
def session_page(variant: str) -> ResponseReturnValue:
    """One question of a session (`q`, from 1), judged when the query carries an answer; the
    end of the session at `q` = 11."""
    try:
        session = draw(variant, request.args)
    except RefereeError as error:
        return refused(error)
    if session.variant != variant or not request.args.get("seed", "").strip():
        return redirect(
            url_for("training.session_page", variant=session.variant, **session.query())
        )
    number = _number("q", 1, QUESTIONS + 1, default=1)
    right = _number("right", 0, QUESTIONS, default=0)
    if number > QUESTIONS:
        return render_template("training/done.html", **views.done(session, right))
    drill = session.drills[number - 1]
    judged, status = _judged(session, drill)
    return render_template(
        "training/question.html", **views.question(session, drill, number, right, judged)
    ), status


def _judged(session: Session, drill: dict[str, Any]) -> tuple[Judged | RefereeError | None, int]:
    """The answer in the query judged (None: none given; the error: it cannot be read)."""
    if not any(request.args.get(name) is not None for name in ("answer", "down", "melds")):
        return None, 200
    try:
        return judge(session, drill, request.args), 200
    except RefereeError as error:
        return error, 400


def _number(name: str, low: int, high: int, *, default: int) -> int:
    text = request.args.get(name, "").strip()
    if not text:
        return default
    number = plain_count(text, digits=3)
    if number is None or not low <= number <= high:
        abort(
            400,
            description=describe(
                "out_of_range", {"field": name, "value": text[:6], "low": low, "high": high}
            ),
        )
    return number
