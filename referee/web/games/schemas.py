"""What /api/v1/games reads, and how a games call says no: request bodies as models that read
them (and a game's JSON export, which the import reads back), refusals and conflicts as models
that make the answer (the API's, and a round form's asked for as JSON). A game itself is written
by the models of `values.py`.

`refusal()` says a body's problems as the games' reasons: each with the field, and the player
where it is about one entry of `results`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Final, TypeVar

from pydantic import Field, StrictBool, StrictInt, StrictStr

from referee.engine.errors import GameRefused, Reason, RefereeError, reason
from referee.engine.game import MAX_SEATS
from referee.engine.variants import MAX_ROUNDS_WITHOUT_CONTRACTS
from referee.web.core.languages import LANGUAGES
from referee.web.jsonapi.bodies import TooLarge, json_body
from referee.web.jsonapi.schemas import (
    Answer,
    Body,
    Cards,
    HouseRules,
    Language,
    Name,
    Problem,
    Unreadable,
    read,
)
from referee.web.plumbing.i18n import current_language
from referee.web.vocabulary.messages import describe, describe_reason

from .queries import Entry

#: A number as a form or a script may write it: 25 or "25" (ASCII digits, at most six).
WholeNumber = Annotated[
    StrictInt | Annotated[StrictStr, Field(pattern=r"^\s*-?[0-9]{1,6}\s*$")],
    Field(examples=[25]),
]


class SeatResultBody(Body):
    """One player's result in a round: went out, or a penalty, or the cards held."""

    player: StrictStr = Field(description="the player's name, as the game has it")
    went_out: StrictBool | None = None
    rummy: StrictBool | None = Field(
        default=None, description="rummy only: went out in one go (the winner's score doubles)"
    )
    penalty: WholeNumber | None = Field(default=None, description="the points held")
    cards: Cards | None = Field(default=None, description="the cards held (instead of points)")
    buys: WholeNumber | None = Field(default=None, description="cards bought this round")


class NewGame(Body):
    variant: StrictStr = Field(examples=["contract"])
    players: list[Name] = Field(
        max_length=MAX_SEATS,
        description="distinct names in seat order",
        examples=[["Ann", "Bo", "Cy"]],
    )
    house_rules: HouseRules | None = None
    first_dealer: StrictStr | StrictInt | None = Field(
        default=None, description="a name (or a seat from 0); the first player by default"
    )
    lang: Language | None = None
    club: StrictStr | None = Field(
        default=None,
        description="a club's id: the game is filed in it (the bearer token is then the "
        "club's edit token); a name the club does not know becomes a member",
    )


class RoundBody(Body):
    round: StrictInt | None = Field(
        default=None,
        description="the round's number (required to enter a round; a correction's is its path's)",
        json_schema_extra={"minimum": 1},
    )
    results: list[SeatResultBody] = Field(max_length=MAX_SEATS, description="one entry per player")
    version: StrictInt | None = Field(
        default=None, description="the version this client saw: a stale one is a 409"
    )
    lang: Language | None = Field(default=None, description="the language of rank letters")


class UndoBody(Body):
    version: StrictInt | None = None
    lang: Language | None = None


#: The most rounds a game has: one that runs to a target score (a contract game has 12 at most).
MAX_IMPORTED_ROUNDS: Final = MAX_ROUNDS_WITHOUT_CONTRACTS


class ImportedRound(Body):
    results: list[SeatResultBody] = Field(max_length=MAX_SEATS)


class ImportedGame(Body):
    """A game's JSON export (what `GET /api/v1/games/<id>` answers), read back as a new game."""

    variant: StrictStr
    players: list[StrictStr] = Field(max_length=MAX_SEATS)
    house_rules: HouseRules | None = None
    first_dealer: StrictStr | StrictInt | None = None
    lang: StrictStr | None = None
    rounds: list[ImportedRound] = Field(default_factory=list, max_length=MAX_IMPORTED_ROUNDS)


# -- problems as reasons ----------------------------------------------------------------------

_NUMBERS: Final = frozenset({"penalty", "buys"})


def _seat(body: Any, index: int, players: Sequence[str] | None) -> int | None:
    """The seat of entry `index` of `results`, from the name it gives."""
    try:
        name = body["results"][index]["player"]
    except (KeyError, IndexError, TypeError):
        return None
    return players.index(name) if players is not None and name in players else None


def _reason(problem: Problem, body: Any, players: Sequence[str] | None) -> Reason:
    where = problem.where
    if len(where) >= 3 and where[0] == "results" and isinstance(where[1], int):
        field = str(where[2])
        seat = _seat(body, where[1], players)
        if problem.limit is not None:  # the cards held: a list of them, too long
            return reason("too_many_cards", player=seat, field=field, limit=problem.limit)
        code = "not_a_number" if field in _NUMBERS else "bad_input"
        params = {"value": str(problem.value)[:20]} if code == "not_a_number" else {}
        return reason(code, player=seat, field=field, **params)
    if where and where[0] == "rounds":
        number = where[1] + 1 if len(where) > 1 and isinstance(where[1], int) else None
        return reason("bad_import", field="rounds", round=number)
    if problem.missing and len(where) == 1:
        return reason("missing_field", field=str(where[0]))
    if problem.limit is not None and where:
        return reason("too_many_entries", field=str(where[0]), limit=problem.limit)
    return reason("bad_input", field=str(where[0]) if where else "body")


def refusal(problems: Sequence[Problem], body: Any, players: Sequence[str] | None) -> GameRefused:
    """Every problem of a body, as a refusal of the games API."""
    return GameRefused([_reason(p, body, players) for p in problems])


M = TypeVar("M", bound=Body)


def read_body(model: type[M], body: Any, players: Sequence[str] | None = None) -> M:
    """`body` as `model`, or GameRefused with a reason for each problem."""
    if not isinstance(body, dict):
        raise GameRefused([reason("not_an_object", field="body")])
    try:
        return read(model, body)
    except Unreadable as unreadable:
        raise refusal(unreadable.problems, body, players) from None


# -- refusals -------------------------------------------------------------------------------


class Refusal(Answer):
    code: str
    message: str
    player: str | None = Field(default=None, description="the player it is about")
    field: str | None = Field(default=None, description="the input it is about")
    input: str | None = None


class RefusedAnswer(Answer):
    """A games call refused: `error` is the first reason, `errors` every one."""

    error: Refusal
    errors: list[Refusal]


class ChangeSince(Answer):
    version: int
    action: str = Field(description="add, edit or undo")
    round: int
    at: str = Field(description="ISO 8601")


class ConflictDetail(Answer):
    code: str
    message: str
    version: int = Field(description="the game's version now")
    changes: list[ChangeSince] = Field(description="what changed since the version sent")


class ConflictAnswer(Answer):
    error: ConflictDetail


def refusal_of(reason: Reason, players: Sequence[str] | None) -> Refusal:
    """A reason in the answer's words, naming the player and the field it is about."""
    found = Refusal(code=reason.code, message=describe_reason(reason, players))
    if reason.player is not None and players is not None:
        found.player = players[reason.player]
    if reason.field is not None:
        found.field = reason.field
    if reason.code == "bad_card" and "token" in reason.params:
        found.input = str(reason.params["token"])
    return found


def refused_answer(found: Sequence[Refusal]) -> RefusedAnswer:
    """Every reason: `error` the first, `errors` all of them."""
    return RefusedAnswer(error=found[0], errors=list(found))


def conflict_answer(
    code: str, current: int, since: Sequence[Entry], message: str | None = None
) -> ConflictAnswer:
    """A write the game as it is cannot take (a stale version, a game over, a series closed):
    the game's version now, and what changed since the version sent."""
    changes = [
        ChangeSince(
            version=e.version, action=e.change.action.value, round=e.change.round,
            at=e.at.isoformat(),
        )
        for e in since
    ]  # fmt: skip
    said = describe(code) if message is None else message
    detail = ConflictDetail(code=code, message=said, version=current, changes=changes)
    return ConflictAnswer(error=detail)


def request_json() -> Any:
    """The request's decoded JSON; GameRefused (`bad_json`, field `body`) or TooLarge."""
    try:
        return json_body()
    except TooLarge:
        raise
    except RefereeError as error:
        raise GameRefused([reason(error.code, field="body")]) from None


def body_language(lang: str | None) -> str:
    """A body's `lang` when it names one of ours, else the request's language."""
    code = (lang or "").strip().lower()
    if lang is not None and code not in LANGUAGES:
        raise GameRefused([reason("bad_language", field="lang", lang=lang[:20])])
    return code or current_language()
