"""A table's house rules read: each value by its rule's kind, checked, and applied to a variant.

`HOUSE_RULES` (in `variants`, built from the `Variant` fields' metadata) says what each rule
is; here a value as a table, a form or a body gives it becomes the field's value, or a
`HouseRuleError` (bad name, value or bounds) or a variant whose rules contradict each other.
`get_variant` is a registered variant with a table's house rules.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from typing import Any, Final

from .cards import Rank
from .errors import HouseRuleError
from .variants import (
    HOUSE_RULES,
    MAX_ROUNDS_WITHOUT_CONTRACTS,
    Contract,
    HouseRule,
    RuleKind,
    Scoring,
    ShoeRule,
    Variant,
    find_variant,
)

# -- contracts --------------------------------------------------------------------------------

_NUMBER_WORDS: Final = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
}
_CONTRACT_PART: Final = re.compile(
    r"^\s*(?P<count>[0-9]{1,3}|[a-z]+)\s+(?P<kind>sets?|runs?)(?:\s+of\s+(?P<size>[0-9]{1,3}|[a-z]+))?\s*$"
)


# Numbers in a contract table: ASCII digits only ("²".isdigit() is true, and int() of 5,000
# digits raises), and never more than three of them.
_DIGITS: Final = re.compile(r"[0-9]{1,3}")


def _number(word: str, rule: str) -> int:
    if _DIGITS.fullmatch(word):
        return int(word)
    if word in _NUMBER_WORDS:
        return _NUMBER_WORDS[word]
    raise HouseRuleError(rule=rule, value=word)


def parse_contract(text: str, *, set_size: int = 3, run_size: int = 4) -> Contract:
    """Read "2 sets of 3 + 1 run of 4" or "four runs of 3" (English, as in RULES.md)."""
    sets = runs = 0
    for part in re.split(r"\s*(?:\+|,|\band\b)\s*", text.strip().lower()):
        match = _CONTRACT_PART.match(part)
        if not match:
            raise HouseRuleError(rule="contracts", value=text)
        count = _number(match["count"], "contracts")
        size = match["size"]
        if match["kind"].startswith("set"):
            sets += count
            set_size = _number(size, "contracts") if size else set_size
        else:
            runs += count
            run_size = _number(size, "contracts") if size else run_size
    return _checked_contract(Contract(sets, runs, set_size, run_size), text)


def _checked_contract(contract: Contract, value: Any) -> Contract:
    if (
        contract.meld_count < 1
        or contract.meld_count > 6
        or not 2 <= contract.set_size <= 8
        or not 3 <= contract.run_size <= 13
        or min(contract.sets, contract.runs) < 0
    ):
        raise HouseRuleError(rule="contracts", value=str(value))
    return contract


def _read_contract(value: Any) -> Contract:
    if isinstance(value, Contract):
        return _checked_contract(value, value)
    if isinstance(value, str):
        return parse_contract(value)
    if isinstance(value, Mapping):
        try:
            return _checked_contract(
                Contract(
                    sets=_strict_int(value.get("sets", 0)),
                    runs=_strict_int(value.get("runs", 0)),
                    set_size=_strict_int(value.get("set_size", 3)),
                    run_size=_strict_int(value.get("run_size", 4)),
                ),
                value,
            )
        except TypeError:
            pass
    raise HouseRuleError(rule="contracts", value=str(value)[:80])


_MAX_ROUNDS: Final = 12
_ROUND_LABEL: Final = re.compile(
    r"^\s*(?:round|r)\s*(?P<round>[0-9]{1,3})\s*[:=]\s*(?P<rest>.*)$", re.I | re.S
)


def parse_contract_table(value: Any, current: Sequence[Contract] = ()) -> tuple[Contract, ...]:
    """A house contract table: every round's contract, or changes to some rounds of `current`.

    - a list, one contract per round (a contract, "2 sets of 3 + 1 run of 4", or
      ``{"sets": 2, "runs": 1}``), each may be labelled with its own round: "round 3: 2 runs";
    - a mapping of round numbers to contracts: ``{"7": "four runs of 3"}``;
    - text naming rounds, as a table says it: "round 7: four runs of 3; round 4: four sets of 3".

    Changed rounds may add rounds after the last one, but leave no round without a contract.
    HouseRuleError (rule ``contracts``) for anything else.
    """
    bad = HouseRuleError(rule="contracts", value=str(value)[:80])
    if isinstance(value, str):
        return _changed_table(_rounds_in_text(value, bad), current, bad)
    if isinstance(value, Mapping):
        return _changed_table(_rounds_in_mapping(value, bad), current, bad)
    if not isinstance(value, Sequence) or not 1 <= len(value) <= _MAX_ROUNDS:
        raise bad
    table = []
    for number, item in enumerate(value, start=1):
        if isinstance(item, str) and (labelled := _ROUND_LABEL.match(item)) is not None:
            if int(labelled["round"]) != number:
                raise bad
            item = labelled["rest"]
        table.append(_read_contract(item))
    return tuple(table)


def _rounds_in_text(value: str, bad: HouseRuleError) -> dict[int, Any]:
    """ "round 7: four runs of 3; round 4: ..." as {7: "four runs of 3", 4: ...}."""
    changes: dict[int, Any] = {}
    for part in (part for part in re.split(r"[;\n]+", value) if part.strip()):
        labelled = _ROUND_LABEL.match(part)
        if labelled is None or int(labelled["round"]) in changes:
            raise bad
        changes[int(labelled["round"])] = labelled["rest"]
    return changes


def _rounds_in_mapping(value: Mapping[Any, Any], bad: HouseRuleError) -> dict[int, Any]:
    """{"7": ..., 4: ...} as {7: ..., 4: ...}: keys are round numbers, once each."""
    changes: dict[int, Any] = {}
    for key, item in value.items():
        number = key if isinstance(key, int) and not isinstance(key, bool) else None
        if isinstance(key, str) and _DIGITS.fullmatch(key.strip()):
            number = int(key)
        if number is None or number in changes:
            raise bad
        changes[number] = item
    return changes


def _changed_table(
    changes: Mapping[int, Any], current: Sequence[Contract], bad: HouseRuleError
) -> tuple[Contract, ...]:
    if not changes or not all(1 <= number <= _MAX_ROUNDS for number in changes):
        raise bad
    rounds = max(len(current), *changes)
    if any(number > len(current) and number not in changes for number in range(1, rounds + 1)):
        raise bad  # a round added after the table's last needs every round between
    return tuple(
        _read_contract(changes[number]) if number in changes else current[number - 1]
        for number in range(1, rounds + 1)
    )


# -- each kind's reader -------------------------------------------------------------------------


def _strict_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(value)
    return value


def _bad(name: str, value: Any) -> HouseRuleError:
    return HouseRuleError(rule=name, value=str(value)[:80])


def _bounded(name: str, rule: HouseRule, value: Any) -> int:
    """A whole number within the rule's bounds (True and 2.0 are not numbers here)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad(name, value)
    if not rule.low <= value <= rule.high:
        raise HouseRuleError(rule=name, value=value, low=rule.low, high=rule.high)
    return value


def _read_bool(name: str, rule: HouseRule, value: Any, current: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad(name, value)
    return value


def _read_int(name: str, rule: HouseRule, value: Any, current: Any) -> int | None:
    if value is None and rule.kind is RuleKind.OPTIONAL_INT:
        return None
    return _bounded(name, rule, value)


def _read_choice(name: str, rule: HouseRule, value: Any, current: Any) -> Enum:
    for old, meant in rule.legacy:
        if value is old:
            value = meant
    try:
        chosen: Enum = type(current)(value)
    except ValueError:
        raise _bad(name, value) from None
    return chosen


def _read_contracts(name: str, rule: HouseRule, value: Any, current: Any) -> tuple[Contract, ...]:
    if value == [] and not current:
        return ()  # a game without contracts stays one
    return parse_contract_table(value, current)


def _read_deal(name: str, rule: HouseRule, value: Any, current: Any) -> tuple[int, ...]:
    if value == [] and not current:
        return ()
    if not isinstance(value, Sequence) or isinstance(value, str) or not 1 <= len(value) <= 12:
        raise _bad(name, value)
    return tuple(_bounded(name, rule, item) for item in value)


def _read_shoe(name: str, rule: HouseRule, value: Any, current: Any) -> tuple[ShoeRule, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not value:
        raise _bad(name, value)
    try:
        shoe = tuple(ShoeRule(**{k: _strict_int(item[k]) for k in _SHOE_KEYS}) for item in value)
    except (TypeError, KeyError):
        raise _bad(name, value) from None
    if any(not (1 <= r.decks <= 8 and 0 <= r.jokers <= 16) for r in shoe):
        raise _bad(name, value)
    return shoe


def _read_points(name: str, rule: HouseRule, value: Any, current: Any) -> tuple[int, ...]:
    if not isinstance(value, Mapping):
        raise _bad(name, value)
    points = list(current)
    for letter, number in value.items():
        ranks = [rank for rank in Rank if rank.letter == str(letter).upper()]
        if not ranks or isinstance(number, bool) or not isinstance(number, int):
            raise _bad(name, value)
        if not rule.low <= number <= rule.high:
            raise _bad(name, value)
        points[ranks[0] - 1] = number
    return tuple(points)


#: How each kind of house rule is read: one reader a kind (a test holds every kind to one).
READERS: Final[Mapping[RuleKind, Callable[[str, HouseRule, Any, Any], Any]]] = {
    RuleKind.BOOL: _read_bool,
    RuleKind.INT: _read_int,
    RuleKind.OPTIONAL_INT: _read_int,
    RuleKind.CHOICE: _read_choice,
    RuleKind.CONTRACTS: _read_contracts,
    RuleKind.DEAL: _read_deal,
    RuleKind.SHOE: _read_shoe,
    RuleKind.POINTS: _read_points,
}


def _read(name: str, value: Any, current: Any) -> Any:
    """A house rule's value as the `Variant` field holds it, read by the rule's kind."""
    rule = HOUSE_RULES[name]
    return READERS[rule.kind](name, rule, value, current)


_SHOE_KEYS: Final = ("min_players", "max_players", "decks", "jokers")


def apply_house_rules(variant: Variant, overrides: Mapping[str, Any] | None) -> Variant:
    """The variant with some rules changed by name; HouseRuleError for a bad name or value."""
    if not overrides:
        return variant
    if not isinstance(overrides, Mapping):
        raise HouseRuleError(rule="house_rules", value=str(overrides)[:80])
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in HOUSE_RULES:
            raise HouseRuleError("unknown_house_rule", rule=str(name)[:40])
        changes[name] = _read(name, value, getattr(variant, name))
    if "contracts" in changes and "deal" not in changes and variant.deal:
        # A new contract table keeps the deal sizes it has rounds for, the last one repeated.
        deal = variant.deal
        rounds = len(changes["contracts"])
        changes["deal"] = (deal + (deal[-1],) * rounds)[:rounds]
    changed = dataclasses.replace(variant, **changes)
    _check_consistency(changed)
    return changed


def _check_consistency(variant: Variant) -> None:
    if variant.min_players > variant.max_players:
        raise HouseRuleError(rule="min_players", value=variant.min_players)
    if variant.contracts and len(variant.deal) != len(variant.contracts):
        raise HouseRuleError("deal_length", rounds=len(variant.contracts), deal=len(variant.deal))
    most = variant.rounds or MAX_ROUNDS_WITHOUT_CONTRACTS
    if variant.rounds_played is not None and variant.rounds_played > most:
        raise HouseRuleError(rule="rounds_played", value=variant.rounds_played)
    if variant.max_set_size is not None and variant.max_set_size < variant.min_set_size:
        raise HouseRuleError(rule="max_set_size", value=variant.max_set_size)
    if variant.scoring is Scoring.WINNER_COLLECTS and variant.target is None:
        raise HouseRuleError(rule="target", value=None)


# -- the registry's variants with house rules ---------------------------------------------------


def get_variant(name: str, house_rules: Mapping[str, Any] | None = None) -> Variant:
    """A registered variant by id or alias, with house rules applied."""
    return apply_house_rules(find_variant(name), house_rules)
