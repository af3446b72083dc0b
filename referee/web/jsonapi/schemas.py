"""The shapes every /api/v1 call shares: a body, an answer, an error, cards, house rules, a
language, a name, and `read`. Each feature's own request bodies and answers are pydantic models
built on these, in its `schemas.py` (the referee's in refereeing/schemas.py); `openapi.py`
builds the OpenAPI document from those same classes, so what is documented is what is read.

A request model reads types only (strictly: "3" is not a number, 1 is not true); what a value
means (a card, a round of this variant) is the engine's to judge. Every list and object a model
reads is bounded by the rules (a contract's melds, a hand's cards, a table's players, a club's
members: `max_length`, checked before any entry is read), so a 64 KB body costs what a real one
does. `read()` turns pydantic's complaints into plain `Problem`s (the first few, one per place),
which each feature says in its own error shape. Fields that
no handler reads yet are documented all the same (SPEC.md lists them); a new field is one line
in its model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Final, TypeVar, assert_never

from pydantic import BaseModel, ConfigDict, Field, StrictStr, WithJsonSchema
from pydantic import ValidationError as PydanticValidationError

from referee.engine.cards import MAX_CARDS
from referee.engine.variants import HOUSE_RULES, HouseRule, RuleKind
from referee.web.core.languages import LANGUAGES

# -- reading ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a body: where (field names and list indices), what, and the value;
    `limit` the most entries the place may hold, when it held more."""

    where: tuple[str | int, ...]
    missing: bool  # absent, or null where a value is required
    value: Any
    limit: int | None = None


class Unreadable(ValueError):
    """A body that does not have its model's shape: its problems, in the model's field order."""

    def __init__(self, found: Sequence[Problem]) -> None:
        super().__init__(f"{len(found)} problem(s)")
        self.problems = tuple(found)


Model = TypeVar("Model", bound=BaseModel)

#: The problems of one body said at most: a body wrong everywhere is told its first ones.
MAX_PROBLEMS: Final = 20


def _where(loc: Sequence[str | int]) -> tuple[str | int, ...]:
    # A union's member names ("str", "list[str]") are pydantic's, not the body's.
    return tuple(part for part in loc if isinstance(part, int) or not _is_member_name(part))


def _is_member_name(part: str) -> bool:
    # Pydantic names a union's members by type ("str", "list[str]", "constrained-str",
    # "function-after[...]"); our fields are snake_case words.
    return part in ("str", "int", "bool", "float", "list", "dict") or "[" in part or "-" in part


def read(model: type[Model], body: Any) -> Model:
    """`body` as `model`; Unreadable with its problems (one per place, the first MAX_PROBLEMS)
    when it has another shape. Every list a model reads is bounded (`max_length`), so what
    pydantic finds is bounded too, and each problem is looked at once."""
    try:
        return model.model_validate(body)
    except PydanticValidationError as error:
        found: dict[tuple[str | int, ...], Problem] = {}
        for item in error.errors(include_url=False):
            where = _where(item["loc"])
            limit = item.get("ctx", {}).get("max_length") if item["type"] == "too_long" else None
            if where in found and (limit is None or found[where].limit is not None):
                continue  # one problem per place (a union complains once per member) ...
            missing = item["type"] == "missing" or item.get("input", 0) is None
            # ... the one that says the bound where a member's list was too long.
            found[where] = Problem(where, missing, item.get("input"), limit)
            if len(found) == MAX_PROBLEMS:
                break
        raise Unreadable(list(found.values())) from None


# -- shared pieces -------------------------------------------------------------------------


class Body(BaseModel):
    """A request body: a JSON object; fields it does not know are left alone."""

    model_config = ConfigDict(strict=True, extra="allow")


Language = Annotated[
    StrictStr,
    WithJsonSchema(
        {"type": "string", "enum": list(LANGUAGES), "description": "the answer's language"}
    ),
]
Cards = Annotated[
    StrictStr | Annotated[list[StrictStr], Field(max_length=MAX_CARDS)],
    Field(
        description="cards separated by spaces or commas, or a list of them: "
        '"7H 7S JK=7D" or ["7H", "7S", "JK=7D"]',
        examples=["7H 7S 7D", ["5H", "6H", "7H", "JK"]],
    ),
]


def _house_rule_schema(rule: HouseRule) -> dict[str, Any]:
    """What the document says of one house rule's value, by its kind (the engine reads it,
    and may refuse more: a contract table that leaves a round without a contract)."""
    bounds = {"minimum": rule.low, "maximum": rule.high}
    match rule.kind:
        case RuleKind.BOOL:
            return {"type": "boolean"}
        case RuleKind.INT:
            return {"type": "integer", **bounds}
        case RuleKind.OPTIONAL_INT:
            return {"anyOf": [{"type": "integer", **bounds}, {"type": "null"}]}
        case RuleKind.CHOICE:
            return {"enum": [*rule.choices, *(old for old, _ in rule.legacy)]}
        case RuleKind.DEAL:
            return {"type": "array", "items": {"type": "integer", **bounds}, "maxItems": 12}
        case RuleKind.POINTS:
            return {"type": "object", "additionalProperties": {"type": "integer", **bounds}}
        case RuleKind.CONTRACTS:
            return {
                "anyOf": [
                    {"type": "array", "maxItems": 12},
                    {"type": "object", "maxProperties": 12},
                    {"type": "string"},
                ],
                "description": 'a contract a round, or rounds changed: "round 7: four runs of 3"',
            }
        case RuleKind.SHOE:
            return {"description": "a list of {min_players, max_players, decks, jokers}"}
    assert_never(rule.kind)


HouseRules = Annotated[
    dict[str, Any],
    Field(
        max_length=len(HOUSE_RULES),
        description="house rules by name (GET /api/v1/variants lists them), each overriding "
        "the variant's value",
        examples=[{"max_jokers_per_meld": 2}],
    ),
    WithJsonSchema(
        {
            "type": "object",
            "properties": {name: _house_rule_schema(rule) for name, rule in HOUSE_RULES.items()},
            "additionalProperties": False,
            "maxProperties": len(HOUSE_RULES),
            "description": "house rules by name (GET /api/v1/variants lists them), each "
            "overriding the variant's value",
            "examples": [{"max_jokers_per_meld": 2}],
        }
    ),
]


#: A name as typed: something to see in it (the server cleans it and refuses one left empty).
Name = Annotated[StrictStr, WithJsonSchema({"type": "string", "minLength": 1, "pattern": "\\S"})]


# -- answers ----------------------------------------------------------------------------------


class Answer(BaseModel):
    """An answer: the fields listed are always there; a later version may add more."""

    model_config = ConfigDict(extra="allow")


class ErrorDetail(Answer):
    code: str = Field(description="stable, snake_case: what scripts test for")
    message: str = Field(description="the reason in words, in the request's language")
    input: str | None = Field(default=None, description="the token that could not be read")
    field: str | None = Field(default=None, description="the request field it is about")
    limit: int | None = None
    least: int | None = Field(
        default=None, description="`hand_too_short`: the fewest cards a whole hand going out holds"
    )


class ErrorAnswer(Answer):
    """Every refusal of the referee's calls, and every 403, 404, 405 and 413."""

    error: ErrorDetail
