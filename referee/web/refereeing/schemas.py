"""The shapes of the referee's calls (/api/v1/meld, contract, layoff, penalty, solve,
variants): each request body as a pydantic model that reads it (`jsonapi.schemas.read`), each
answer as a model that describes it; the OpenAPI document is built from these same classes.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt, StrictStr, WithJsonSchema

from referee.engine.contracts import MAX_MELDS
from referee.web.jsonapi.schemas import Answer, Body, Cards, HouseRules, Language


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

# -- answers --------------------------------------------------------------------------------


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
