"""The referee's calls on plain data: a request body in, SPEC's answer out (API and CLI alike).

`answer(call, body)` reads and checks a decoded JSON body, asks the engine and returns the
answer as `verdicts` shapes it. Bad input of any kind is a `RefereeError` whose code
`messages.describe` knows; the caller turns it into a 400 or an exit code.
Needs an app context with a locale (messages are translated).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from referee.engine.cards import LANGUAGES, MAX_CARDS, Card, parse_cards
from referee.engine.contracts import MAX_MELDS, check_contract
from referee.engine.errors import RefereeError
from referee.engine.game import Game
from referee.engine.layoffs import check_layoff
from referee.engine.melds import check_meld, shoe_violations
from referee.engine.scoring import verify_hand_size
from referee.engine.variants import (
    HOUSE_RULES,
    VARIANTS,
    ContractDown,
    ShoeRule,
    Variant,
    get_variant,
)

from .. import verdicts
from ..words import (
    choice_label,
    contract_text,
    house_rule_help,
    house_rule_label,
    variant_name,
    variant_summary,
)

JSON = dict[str, Any]


def bad(code: str, **params: Any) -> RefereeError:
    """An input error with a web-level code (see `messages.WEB_CODES`)."""
    return RefereeError(code, **params)


def decode(data: bytes) -> Any:
    """The JSON value of a request body; `bad_json` for anything that is not JSON."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError):  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise bad("bad_json") from None


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


def _required(body: Mapping[str, Any], field: str) -> Any:
    if body.get(field) is None:
        raise bad("missing_field", field=field)
    return body[field]


def _integer(body: Mapping[str, Any], field: str) -> int:
    value = _required(body, field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad("wrong_type", field=field, expected="integer")
    return value


def _boolean(body: Mapping[str, Any], field: str, default: bool) -> bool:
    value = body.get(field)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise bad("wrong_type", field=field, expected="boolean")
    return value


def _is_cards(value: Any) -> bool:
    return isinstance(value, str) or (
        isinstance(value, list) and all(isinstance(token, str) for token in value)
    )


def _cards(value: Any, field: str, lang: str | None, *, limit: int = MAX_CARDS) -> tuple[Card, ...]:
    if not _is_cards(value):
        raise bad("wrong_type", field=field, expected="cards")
    return parse_cards(value, lang, limit=limit)


def _field_cards(body: Mapping[str, Any], field: str, lang: str | None) -> tuple[Card, ...]:
    return _cards(_required(body, field), field, lang)


@dataclass(frozen=True)
class Table:
    """What a check runs under: the variant with its house rules, the table's shoe (None: the
    largest the variant allows) and the open game, if the body named one."""

    variant: Variant
    shoe: ShoeRule | None = None
    game: Game | None = None
    players: int | None = None  # the table's size, when the body or the game says it


def _game(body: Mapping[str, Any]) -> Game | None:
    """The game a body names by `game` (its id); `game_not_found` when there is none."""
    game_id = body.get("game")
    if game_id is None:
        return None
    if not isinstance(game_id, str):
        raise bad("wrong_type", field="game", expected="string")
    from referee.web.games import store  # the database only for a check that names a game

    stored = store.load(game_id.strip())
    if stored is None:
        raise bad("game_not_found")
    return stored.game


def _table(body: Mapping[str, Any]) -> Table:
    """The variant, house rules and shoe of `variant`, `house_rules`, `game` and `players`.

    A game gives its variant, house rules (the body's own go over them) and shoe; `players`
    fixes the shoe by the table's size, and wins over the game's.
    """
    game = _game(body)
    name = body.get("variant")
    if name is None and game is None:
        raise bad("missing_field", field="variant")
    if name is not None and not isinstance(name, str):
        raise bad("wrong_type", field="variant", expected="string")
    house_rules = body.get("house_rules")
    if house_rules is not None and not isinstance(house_rules, Mapping):
        raise bad("wrong_type", field="house_rules", expected="object")
    if game is None:
        variant = get_variant(str(name), house_rules)
        shoe = None
    else:
        if name is not None and get_variant(name).id != game.variant.id:
            asked = get_variant(name).id
            raise bad("game_variant_differs", variant=asked, game_variant=game.variant.id)
        variant = get_variant(game.variant.id, {**game.house_rules, **(house_rules or {})})
        shoe = variant.shoe_for(len(game.players))
    players = len(game.players) if game is not None else None
    if body.get("players") is not None:
        players = _integer(body, "players")
        shoe = variant.shoe_for(players)
    return Table(variant, shoe, game, players)


def _round(body: Mapping[str, Any], table: Table) -> int:
    """The round asked for; else the open game's (its next, or its last once it is over)."""
    game = table.game
    if body.get("round") is None and game is not None:
        number = game.next_round or len(game.rounds) or 1
        return number if table.variant.rounds is None or number <= table.variant.rounds else 1
    number = _integer(body, "round")
    table.variant.check_round(number)
    return number


def _contract_down(body: Mapping[str, Any]) -> ContractDown | None:
    value = body.get("contract_down")
    if value is None:
        return None
    try:
        return ContractDown(value)
    except ValueError:
        raise bad("wrong_type", field="contract_down", expected="contract_down") from None


# -- the calls ------------------------------------------------------------------------------


def _meld(body: Mapping[str, Any], lang: str | None) -> JSON:
    table = _table(body)
    cards = _field_cards(body, "cards", lang)
    return verdicts.meld_answer(check_meld(cards, table.variant, shoe=table.shoe))


def _contract(body: Mapping[str, Any], lang: str | None) -> JSON:
    table = _table(body)
    variant = table.variant
    if not variant.has_contracts:
        raise RefereeError("no_contract", variant=variant.id)
    number = _round(body, table)
    melds = _required(body, "melds")
    if not isinstance(melds, list) or not all(_is_cards(meld) for meld in melds):
        raise bad("wrong_type", field="melds", expected="melds")
    if len(melds) > MAX_MELDS:
        raise bad("too_many_melds", limit=MAX_MELDS)
    parsed: list[tuple[Card, ...]] = []
    left = MAX_CARDS
    for meld in melds:
        cards = _cards(meld, "melds", lang, limit=left)
        left -= len(cards)
        parsed.append(cards)
    going_out = _boolean(body, "going_out", False)
    discard = _discard(body, lang)
    if discard is not None and not going_out:
        raise bad("discard_needs_going_out")
    verdict = check_contract(
        parsed, variant, number, going_out=going_out, discard=discard, shoe=table.shoe
    )
    return verdicts.contract_answer(verdict)


def _discard(body: Mapping[str, Any], lang: str | None) -> Card | None:
    """The one card a player going out discards last, if the body names one."""
    value = body.get("discard")
    if value is None or value == "" or value == []:
        return None
    cards = _cards(value, "discard", lang)
    if len(cards) != 1:
        raise bad("wrong_type", field="discard", expected="card")
    return cards[0]


def _layoff(body: Mapping[str, Any], lang: str | None) -> JSON:
    table = _table(body)
    meld = _field_cards(body, "meld", lang)
    cards = _field_cards(body, "cards", lang)
    if len(meld) + len(cards) > MAX_CARDS:
        raise RefereeError("too_many_cards", limit=MAX_CARDS)
    verdict = check_layoff(
        meld, cards, table.variant, contract_down=_contract_down(body), shoe=table.shoe
    )
    return verdicts.layoff_answer(verdict)


def _penalty(body: Mapping[str, Any], lang: str | None) -> JSON:
    table = _table(body)
    cards = _field_cards(body, "cards", lang)
    return verdicts.penalty_answer(cards, table.variant, table.shoe)


def _solve(body: Mapping[str, Any], lang: str | None) -> JSON:
    from referee.engine.solver import solve  # the solver is the heaviest module: load on use

    table = _table(body)
    variant = table.variant
    # Rummy has no rounds to ask about: the round is ignored, whatever it is.
    number = _round(body, table) if variant.has_contracts else 1
    hand = _field_cards(body, "hand", lang)
    verify_hand_size(len(hand), variant, number, table.players)
    nearest = _boolean(body, "nearest", False)
    outside = shoe_violations(hand, variant, table.shoe)
    if outside:  # a hand the shoe cannot deal is a verdict, before any search
        return verdicts.hand_not_in_shoe_answer(hand, variant, outside, nearest=nearest)
    return verdicts.solution_answer(solve(hand, variant, number, nearest=nearest), nearest=nearest)


_HANDLERS: Final[Mapping[str, Callable[[Mapping[str, Any], str | None], JSON]]] = {
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
    if not isinstance(body, Mapping):
        raise bad("not_an_object")
    lang = body_language(body) or lang
    return _HANDLERS[call](body, lang)


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
            "kind": rule.kind,
            "label": house_rule_label(name),
            "help": house_rule_help(name),
        }
        if rule.kind in ("int", "optional_int", "deal", "points"):
            item.update(low=rule.low, high=rule.high)
        if rule.choices:
            item["choices"] = [{"value": c, "label": choice_label(c)} for c in rule.choices]
        described[name] = item
    return described


def variants_answer(ids: Sequence[str] | None = None) -> JSON:
    """GET /api/v1/variants: every registered variant in SPEC order, and the house rules."""
    chosen = VARIANTS.values() if ids is None else [VARIANTS[i] for i in ids]
    return {"variants": [variant_data(v) for v in chosen], "house_rules": house_rules_data()}
