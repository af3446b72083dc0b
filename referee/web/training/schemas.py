"""What `GET /api/v1/drills` answers, as pydantic models: they describe the call in the OpenAPI
document and shape the answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from referee.web.jsonapi.schemas import Answer

Kind = Literal["meld", "contract", "value", "layoff", "swap", "solve", "facts"]


class DrillReason(Answer):
    code: str = Field(description="the referee's code, as the check calls answer it")
    message: str = Field(description="the reason in words, in the request's language")


class Drill(Answer):
    """One question, its answer and the referee's reasons."""

    id: str = Field(description="the same question has the same id")
    kind: Kind
    level: int
    near_miss: bool = Field(description="one small change from a valid case, or a trap")
    prompt: str = Field(description="the question in words, in the request's language")
    question: dict[str, Any] = Field(
        description="what the question shows: `variant`, `players` and the kind's own fields, "
        "named as the check calls name them (`cards`, `melds`, `round`, `going_out`, "
        "`discard`, `meld`, `contract_down`, `own_meld`, `hand`), or a fact's `fact`, "
        "`round` and `first_dealer` (seat numbers from 1)"
    )
    choices: list[Any] | None = Field(description="the answers offered; null where it is typed")
    choice_labels: list[str] | None = Field(description="the choices in words")
    answer: Any = Field(
        description="`yes`/`no` (meld, contract, layoff), a card or `none` (swap), the points "
        "(value), a seat, a count or `{decks, jokers}` (facts), or the solver's "
        "`{can_meet_contract, melds, leftover, leftover_penalty}` (solve: any melds that "
        "leave `leftover_penalty` answer as well)"
    )
    reasons: list[DrillReason] = Field(
        description="the referee's reasons behind the answer (its violations or conditions)"
    )
    detail: dict[str, Any] = Field(description="the rest of the referee's verdict")
    rule: str = Field(
        description="the rule behind the answer: the rule card's own sentences for the table's "
        "rules, in the request's language"
    )
    rule_url: str = Field(
        description="the rule page (the table's house rules kept) at the section that says it"
    )


class DrillsAnswer(Answer):
    """A pack of drills: the same for the same query."""

    variant: str
    kind: Kind | None = Field(description="null: every kind the variant has, in turn")
    level: int
    count: int
    seed: int = Field(description="the pack's seed: ask with it again for the same pack")
    near_miss_percent: int = Field(description="the level's share of near misses")
    near_misses: int = Field(description="how many drills of the pack are near misses")
    house_rules: dict[str, Any] = Field(description="the house rules that differ from the variant")
    rules_url: str = Field(
        description="the table's rules as a page (its rule card), in the request's language"
    )
    drills: list[Drill]
