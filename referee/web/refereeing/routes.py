"""The referee page: `/referee` checks a meld, a contract, a lay-off, a joker swap or a hand.

Every check is a GET with its fields in the query string, so a check's URL reproduces it and
the page works as a plain form without JavaScript. An htmx request aimed at the verdict gets
only `_verdict.html` back (`Vary: HX-Request, HX-Target`).
"""

from __future__ import annotations

from typing import Any

from flask import make_response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.engine.variants import VARIANTS
from referee.web.plumbing.hosting import external_values
from referee.web.plumbing.i18n import current_language
from referee.web.vocabulary.words import (
    contract_text,
    house_rule_label,
    house_rule_value,
    suit_letters,
    variant_name,
)

from . import bp
from .checks import (
    CARD_FIELDS,
    CHECKS,
    Outcome,
    discard_allowed,
    run_check,
    shoe_line,
    taken_card_matters,
    timing_matters,
    whose_meld_matters,
)

VERDICT_TARGET = "verdict"


def check_labels() -> dict[str, str]:
    return {
        "meld": gettext("Meld"),
        "contract": gettext("Contract"),
        "layoff": gettext("Lay-off"),
        "swap": gettext("Joker swap"),
        "solve": gettext("My hand"),
    }


def timing_choices() -> list[tuple[str, str]]:
    """The answers to "when did your own contract go down?" in words."""
    return [
        ("no", gettext("Not yet")),
        ("this_turn", gettext("This turn")),
        ("earlier_turn", gettext("Earlier")),
    ]


def whose_meld_choices() -> list[tuple[str, str]]:
    """The answers to "whose meld is the joker in?" in words."""
    return [("other", gettext("Another player's")), ("own", gettext("My own"))]


def players_hint(outcome: Outcome) -> str:
    """What an empty "players at the table" means: the open game's table, else the largest
    shoe of the players the rules in force allow."""
    context = outcome.context
    game = context.game
    if game is not None and game.variant.id == context.variant_id:
        return gettext("Leave empty for this game's table of %(num)d.", num=len(game.players))
    variant = context.variant
    return gettext(
        "Leave empty for the largest shoe of %(low)d to %(high)d players.",
        low=variant.min_players,
        high=variant.max_players,
    )


def context_args(outcome: Outcome) -> dict[str, Any]:
    """The query that keeps the game at hand (variant, round, house rules, game) on a link."""
    context = outcome.context
    args: dict[str, Any] = {"variant": context.variant_id}
    if context.round is not None:
        args["round"] = context.round
    args.update(context.table.query())
    if context.game_id:
        args["game"] = context.game_id
    if context.players_typed and "players" not in outcome.errors:
        args["players"] = context.players  # the table's size travels with every link
    return args


def share_url(outcome: Outcome) -> str:
    """The address that reproduces this check, in the table's notation and language."""
    args = {"check": outcome.check, **context_args(outcome)}
    for name in CARD_FIELDS[outcome.check]:
        if outcome.values.get(name, "").strip():
            args[name] = outcome.values[name]
    if outcome.check == "contract" and outcome.values.get("going_out"):
        args["going_out"] = "1"
        if outcome.values.get("discard", "").strip():
            args["discard"] = outcome.values["discard"]
        if outcome.values.get("from_discard_pile", "").strip():
            args["from_discard_pile"] = outcome.values["from_discard_pile"]
    if timing_matters(outcome.check, outcome.context.variant) and outcome.values.get(
        "contract_down"
    ):
        args["contract_down"] = outcome.values["contract_down"]
    if whose_meld_matters(outcome.check, outcome.context.variant) and outcome.values.get(
        "whose_meld"
    ):
        args["whose_meld"] = outcome.values["whose_meld"]
    args["notation"] = outcome.notation
    args["lang"] = current_language()
    return url_for("refereeing.index", **external_values(), **args)


def _page_words(outcome: Outcome) -> dict[str, Any]:
    """What the page names in words: the suits' letters, the variants, its rounds' contracts,
    the house rules."""
    variant = outcome.context.variant
    return {
        "suits_hint": suit_letters(),
        "variants": [(variant_id, variant_name(variant_id)) for variant_id in VARIANTS],
        "rounds": [
            (number, contract_text(contract))
            for number, contract in enumerate(variant.contracts, start=1)
        ],
        "house_rules": [
            (house_rule_label(name), house_rule_value(name, getattr(variant, name)))
            for name in outcome.context.table.changed
        ],
        "check_labels": check_labels(),
        "shoe_line": shoe_line(outcome.context),
        "players_hint": players_hint(outcome),
        "timing_choices": timing_choices() if timing_matters(outcome.check, variant) else [],
        "taken_card_matters": taken_card_matters(outcome.context),
        "whose_meld_choices": (
            whose_meld_choices() if whose_meld_matters(outcome.check, variant) else []
        ),
    }


@bp.get("/referee")
def index() -> ResponseReturnValue:
    """The referee: a check's form, and its verdict once the cards are in (htmx asks for the
    verdict alone)."""
    outcome = run_check(request.args, current_language())
    partial = (
        request.headers.get("HX-Request") == "true"
        and request.headers.get("HX-Target") == VERDICT_TARGET
    )
    page = render_template(
        "refereeing/_verdict.html" if partial else "refereeing/index.html",
        outcome=outcome,
        context=outcome.context,
        checks=CHECKS,
        fields=CARD_FIELDS[outcome.check],
        context_args=context_args(outcome),
        share_url=share_url(outcome) if outcome.verdict is not None else None,
        discard_allowed=discard_allowed(outcome.context),
        verdict_target=VERDICT_TARGET,
        partial=partial,
        **_page_words(outcome),
    )
    response = make_response(page, outcome.status)
    response.vary.add("HX-Request")
    response.vary.add("HX-Target")
    return response
