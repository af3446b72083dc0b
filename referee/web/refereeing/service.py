"""The referee's calls on plain data: a request body in, SPEC's answer out (API and CLI alike).

`answer(call, body)` reads and checks a decoded JSON body, asks the engine and returns the
answer as `verdicts` shapes it. Bad input of any kind is a `RefereeError` whose code
`messages.describe` knows; the caller turns it into a 400 or an exit code.
Needs an app context with a locale (messages are translated).

A check that names a game (`game`, its id) runs under that game's table, read by `tables` as
the referee page reads it (the body's house rules over the game's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from referee.engine.cards import MAX_CARDS, Card, parse_cards
from referee.engine.contracts import MAX_MELDS, check_contract
from referee.engine.errors import RefereeError
from referee.engine.game import Game
from referee.engine.house_rules import get_variant
from referee.engine.layoffs import check_layoff
from referee.engine.melds import check_meld, shoe_violations
from referee.engine.scoring import verify_hand_size
from referee.engine.variants import HOUSE_RULES, VARIANTS, ContractDown, ShoeRule, Variant
from referee.web.core.languages import LANGUAGES
from referee.web.jsonapi.errors import bad
from referee.web.jsonapi.schemas import Problem, Unreadable, read
from referee.web.plumbing import metrics
from referee.web.refereeing import schemas, tables, verdicts
from referee.web.vocabulary.words import (
    choice_label,
    contract_text,
    house_rule_help,
    house_rule_label,
    variant_name,
    variant_summary,
)

JSON = dict[str, Any]


def body_language(body: Any) -> str | None:
    """The `lang` a body asks for (None when it asks for none); `bad_language` if unknown."""
    if not isinstance(body, Mapping) or body.get("lang") is None:
        return None
    lang = body["lang"]
    if not isinstance(lang, str):
        raise bad("wrong_type", field="lang", expected="string")
    code = lang.strip().lower()
    if code not in LANGUAGES:
        raise bad("bad_language", lang=lang[:20])
    return code


#: What a field must be, in the words of `wrong_type` (messages._EXPECTED).
_EXPECTED: Final[Mapping[str, str]] = {
    "variant": "string",
    "lang": "string",
    "game": "string",
    "discard": "string",
    "house_rules": "object",
    "round": "integer",
    "players": "integer",
    "going_out": "boolean",
    "nearest": "boolean",
    "contract_down": "contract_down",
    "cards": "cards",
    "meld": "cards",
    "hand": "cards",
    "melds": "melds",
    "from_discard_pile": "cards",
}


#: The fields that hold cards: too many of them is `too_many_cards`.
_CARD_FIELDS: Final = frozenset({"cards", "meld", "hand", "melds", "from_discard_pile"})


def _refusal(problem: Problem) -> RefereeError:
    field = str(problem.where[0]) if problem.where else "body"
    if problem.missing and len(problem.where) == 1:
        return bad("missing_field", field=field)
    if problem.limit is not None:
        if problem.where == ("melds",):
            return bad("too_many_melds", limit=problem.limit)
        if field in _CARD_FIELDS:
            return RefereeError("too_many_cards", limit=problem.limit)
        return bad("too_many_entries", field=field, limit=problem.limit)
    if field in _EXPECTED:
        return bad("wrong_type", field=field, expected=_EXPECTED[field])
    return bad("bad_input", field=field)


def read_request(call: str, body: Any) -> schemas.Referee:
    """The body of `call` as its model (schemas.REQUESTS); RefereeError for the first problem."""
    if not isinstance(body, Mapping):
        raise bad("not_an_object")
    try:
        return read(schemas.REQUESTS[call], body)
    except Unreadable as unreadable:
        raise _refusal(unreadable.problems[0]) from None


def _cards(value: str | list[str], lang: str | None, *, limit: int = MAX_CARDS) -> tuple[Card, ...]:
    return parse_cards(value, lang, limit=limit)


@dataclass(frozen=True)
class Table:
    """What a check runs under: the variant with its house rules, the table's shoe (None: the
    largest the variant allows), the open game if the body named one, and the table's size."""

    variant: Variant
    shoe: ShoeRule | None = None
    game: Game | None = None
    players: int | None = None


def _table(body: schemas.Referee) -> Table:
    """The variant, house rules and shoe of `variant`, `house_rules`, `game` and `players`
    (`tables` reads them as the referee page does)."""
    game = None
    if body.game is not None:
        game = tables.find_game(body.game)
        if game is None:
            raise bad("game_not_found")
    if body.variant is None and game is None:
        raise bad("missing_field", field="variant")
    variant_id = game.variant.id if game is not None else str(body.variant)
    if body.variant is not None and game is not None and not tables.plays(body.variant, game):
        asked = get_variant(body.variant).id
        raise bad("game_variant_differs", variant=asked, game_variant=game.variant.id)
    variant = tables.rules(variant_id, body.house_rules, game).variant
    players, shoe = tables.size(body.players, variant, game)
    return Table(variant, shoe, game, players)


def _round(number: Any, table: Table) -> int:
    """The round asked for; else the open game's (its next, or its last once it is over)."""
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise bad("wrong_type", field="round", expected="integer")
    if number is None and table.game is None:
        raise bad("missing_field", field="round")
    return tables.round_of(number, table.variant, table.game)


def _discard(value: str | None, lang: str | None) -> Card | None:
    """The one card a player going out discards last, if the body names one."""
    if value is None or value == "":
        return None
    cards = _cards(value, lang)
    if len(cards) != 1:
        raise bad("wrong_type", field="discard", expected="card")
    return cards[0]


# -- the calls ------------------------------------------------------------------------------


def _meld(body: schemas.MeldRequest, lang: str | None) -> JSON:
    table = _table(body)
    cards = _cards(body.cards, lang)
    return verdicts.meld_answer(check_meld(cards, table.variant, shoe=table.shoe))


def _contract(body: schemas.ContractRequest, lang: str | None) -> JSON:
    table = _table(body)
    variant = table.variant
    if not variant.has_contracts:
        raise RefereeError("no_contract", variant=variant.id)
    number = _round(body.round, table)
    if len(body.melds) > MAX_MELDS:
        raise bad("too_many_melds", limit=MAX_MELDS)
    parsed: list[tuple[Card, ...]] = []
    left = MAX_CARDS
    for meld in body.melds:
        cards = _cards(meld, lang, limit=left)
        left -= len(cards)
        parsed.append(cards)
    going_out = bool(body.going_out)
    discard = _discard(body.discard, lang)
    if discard is not None and not going_out:
        raise bad("discard_needs_going_out")
    taken = _cards(body.from_discard_pile, lang) if body.from_discard_pile else ()
    verdict = check_contract(
        parsed,
        variant,
        number,
        going_out=going_out,
        discard=discard,
        from_discard_pile=taken,
        shoe=table.shoe,
        players=table.players,
    )
    return verdicts.contract_answer(verdict)


def _layoff(body: schemas.LayoffRequest, lang: str | None) -> JSON:
    table = _table(body)
    meld = _cards(body.meld, lang)
    cards = _cards(body.cards, lang)
    if len(meld) + len(cards) > MAX_CARDS:
        raise RefereeError("too_many_cards", limit=MAX_CARDS)
    down = ContractDown(body.contract_down) if body.contract_down is not None else None
    verdict = check_layoff(meld, cards, table.variant, contract_down=down, shoe=table.shoe)
    return verdicts.layoff_answer(verdict)


def _penalty(body: schemas.PenaltyRequest, lang: str | None) -> JSON:
    table = _table(body)
    return verdicts.penalty_answer(_cards(body.cards, lang), table.variant, table.shoe)


def _solve(body: schemas.SolveRequest, lang: str | None) -> JSON:
    from referee.engine.solver import solve  # the solver is the heaviest module: load on use

    table = _table(body)
    variant = table.variant
    # Rummy has no rounds to ask about: the round is ignored, whatever it is.
    number = _round(body.round, table) if variant.has_contracts else 1
    hand = _cards(body.hand, lang)
    verify_hand_size(len(hand), variant, number, table.players)
    nearest = bool(body.nearest)
    outside = shoe_violations(hand, variant, table.shoe)
    if outside:  # a hand the shoe cannot deal is a verdict, before any search
        return verdicts.hand_not_in_shoe_answer(hand, variant, outside, nearest=nearest)
    with metrics.solving():
        solution = solve(hand, variant, number, nearest=nearest)
    return verdicts.solution_answer(solution, variant, nearest=nearest)


_HANDLERS: Final[Mapping[str, Callable[[Any, str | None], JSON]]] = {
    "meld": _meld,
    "contract": _contract,
    "layoff": _layoff,
    "penalty": _penalty,
    "solve": _solve,
}


def answer(call: str, body: Any, *, lang: str | None = None) -> JSON:
    """SPEC's answer to `call` for a decoded JSON `body`; RefereeError for bad input.

    `lang` (the body's own `lang` wins) adds that language's rank letters to the card reader.
    """
    request = read_request(call, body)
    lang = body_language(body) or lang
    return _HANDLERS[call](request, lang)


# -- the variants list ------------------------------------------------------------------------


def variant_data(variant: Variant) -> JSON:
    """`Variant.to_dict()` with the name, a summary and each round's contract in words."""
    data = variant.to_dict()
    data["name"] = variant_name(variant.id)
    data["summary"] = variant_summary(variant.id)
    for item, contract in zip(data["rounds"], variant.contracts, strict=True):
        item["contract_text"] = contract_text(contract)
    return data


def house_rules_data() -> JSON:
    """What each house rule is: its kind and bounds, with a label and a help line in words."""
    described: JSON = {}
    for name, rule in HOUSE_RULES.items():
        item: JSON = {
            "kind": rule.kind.value,
            "label": house_rule_label(name),
            "help": house_rule_help(name),
        }
        if rule.kind.bounded:
            item.update(low=rule.low, high=rule.high)
        if rule.choices:
            item["choices"] = [{"value": c, "label": choice_label(c)} for c in rule.choices]
        described[name] = item
    return described


def variants_answer(ids: Sequence[str] | None = None) -> JSON:
    """GET /api/v1/variants: every registered variant in SPEC order, and the house rules."""
    chosen = VARIANTS.values() if ids is None else [VARIANTS[i] for i in ids]
    return {"variants": [variant_data(v) for v in chosen], "house_rules": house_rules_data()}
