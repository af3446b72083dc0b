"""The shapes of /api/v1: every request body as a pydantic model that reads it, and every
answer as a model that describes it. `openapi.py` builds the OpenAPI document from these same
classes, so what is documented is what is read.

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
from typing import Annotated, Any, Final, Literal, TypeVar, assert_never

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, WithJsonSchema
from pydantic import ValidationError as PydanticValidationError

from referee.engine.cards import MAX_CARDS
from referee.engine.contracts import MAX_MELDS
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


class Referee(Body):
    """What every call of the referee takes."""

    # The variant is the game's when `game` names one: one of the two, as a string.
    model_config = ConfigDict(
        json_schema_extra={
            "anyOf": [
                {"required": ["variant"], "properties": {"variant": {"type": "string"}}},
                {"required": ["game"], "properties": {"game": {"type": "string"}}},
            ]
        }
    )

    variant: StrictStr | None = Field(
        default=None,
        description="a variant id or alias (required unless `game` names one)",
        examples=["contract"],
    )
    lang: Language | None = None
    house_rules: HouseRules | None = None
    players: StrictInt | None = Field(
        default=None, description="the table's size, which fixes the shoe"
    )
    game: StrictStr | None = Field(
        default=None, description="a game's id: its variant, house rules, round and shoe"
    )


class MeldRequest(Referee):
    cards: Cards


class ContractRequest(Referee):
    round: StrictInt | None = Field(
        default=None,
        description="the round, from 1 (required unless `game` names one: then its round)",
        examples=[1],
        json_schema_extra={"minimum": 1},
    )
    melds: list[Cards] = Field(
        max_length=MAX_MELDS, description="the melds laid down together, each a list of cards"
    )
    going_out: StrictBool | None = Field(
        default=None, description="the melds (and `discard`) are the whole hand, going out"
    )
    discard: StrictStr | None = Field(default=None, description="the final discard, one card")
    from_discard_pile: Cards | None = Field(
        default=None,
        description="the cards taken from the discard pile this turn: where the variant says "
        "so (zioncheck-nl), the one card taken is not the discard",
    )


class LayoffRequest(Referee):
    meld: Cards
    cards: Cards
    contract_down: Literal["no", "this_turn", "earlier_turn"] | None = Field(
        default=None, description="whether the player's own contract is down, and since when"
    )


class PenaltyRequest(Referee):
    cards: Cards


class SolveRequest(Referee):
    # Read by the handler: required and a whole number where the variant has contracts, and
    # ignored, whatever it is, where it has none (SPEC: `solve` for `rummy` ignores `round`).
    round: Annotated[
        Any,
        WithJsonSchema(
            {
                "type": "integer",
                "description": "the round, from 1 (required where the variant has contracts; "
                "ignored where it has none)",
            }
        ),
    ] = None
    hand: Cards
    nearest: StrictBool | None = Field(
        default=None, description="also say which cards are missing for the nearest arrangement"
    )


REQUESTS: Final[dict[str, type[Referee]]] = {
    "meld": MeldRequest,
    "contract": ContractRequest,
    "layoff": LayoffRequest,
    "penalty": PenaltyRequest,
    "solve": SolveRequest,
}

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


class Violation(Answer):
    code: str
    message: str


class ContractViolation(Violation):
    meld: int | None = Field(description="the index of the meld it is about, or null")


class JokerAs(Answer):
    card: str = Field(examples=["JK"])
    as_: str = Field(alias="as", examples=["8H"])


class Reading(Answer):
    kind: Literal["set", "run"]
    cards: list[str]
    jokers: list[JokerAs]


class MeldAnswer(Answer):
    valid: bool
    kind: Literal["set", "run"] | None
    cards: list[str] = Field(description="canonical; a valid run ordered low to high")
    jokers: list[JokerAs]
    errors: list[Violation]
    readings: list[Reading] = Field(description="every way the meld is valid")
    ambiguous: bool = Field(description="more than one reading fits")


class ContractAnswer(Answer):
    valid: bool
    melds: list[MeldAnswer]
    errors: list[ContractViolation]


class LayoffAnswer(Answer):
    valid: bool
    meld: MeldAnswer = Field(description="the meld with the cards laid off")
    errors: list[Violation]
    conditions: list[Violation] | None = Field(
        default=None,
        description="when `contract_down` was not given: what must hold for the lay-off",
    )


class CardPoints(Answer):
    card: str
    points: int


class PenaltyAnswer(Answer):
    penalty: int
    cards: list[CardPoints]
    valid: bool | None = Field(default=None, description="false when a card cannot be in the shoe")
    errors: list[Violation] | None = None


class SolveAnswer(Answer):
    can_meet_contract: bool | None = Field(
        description="null for a variant without contracts (rummy): there is nothing to meet"
    )
    melds: list[MeldAnswer]
    leftover: list[str]
    leftover_penalty: int
    missing: list[str] | None = Field(
        default=None, description="only with `nearest`: the cards the nearest way lacks"
    )
    exact: bool = Field(description="false when the search budget ran out: maybe not the least")
    valid: bool | None = None
    errors: list[Violation] | None = None


class RoundOfVariant(Answer):
    round: int
    contract_text: str | None = None


class VariantData(Answer):
    id: str
    name: str
    summary: str
    rounds: list[RoundOfVariant]


class VariantsAnswer(Answer):
    variants: list[VariantData]
    house_rules: dict[str, dict[str, Any]] = Field(
        description="each house rule: its kind, bounds or choices, a label and a help line"
    )


ANSWERS: Final[dict[str, type[Answer]]] = {
    "meld": MeldAnswer,
    "contract": ContractAnswer,
    "layoff": LayoffAnswer,
    "penalty": PenaltyAnswer,
    "solve": SolveAnswer,
}
