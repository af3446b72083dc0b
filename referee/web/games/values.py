"""A game's values as JSON: one pydantic model per engine value that leaves the engine (a seat's
result, a round, a deal, the game), each made from the engine's value and, where it comes back,
read into it again.

Everything a game writes as JSON is one of these: the rounds and history kept in the database
(and so in a backup), the API's answers, the JSON export and a club's file. What a script sends
is read leniently by the request models of `schemas.py` ("25" for 25, cards as one string) and
checked by the engine; what we write is always this one shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Self

from pydantic import Field

from referee.engine.cards import parse_cards
from referee.engine.game import Deal as TableDeal
from referee.engine.game import Game, Round, SeatResult
from referee.web.jsonapi.schemas import Answer
from referee.web.vocabulary.words import contract_text


def results_data(results: Sequence[SeatResult] | None) -> list[dict[str, Any]] | None:
    """A round's results as the database keeps them (None: no round)."""
    return None if results is None else [data(SeatResultJSON.of(r)) for r in results]


class SeatResultJSON(Answer):
    """A seat's result: out (with `rummy` where a rummy doubles), or the points held (and the
    cards, when they were given); `buys` where there were any. Kept in the database as it is;
    the API and the exports name the player (`ResultAnswer`)."""

    went_out: bool | None = None
    rummy: bool | None = None
    penalty: int | None = None
    cards: list[str] | None = None
    buys: int | None = None

    @classmethod
    def of(cls, result: SeatResult, **named: str) -> Self:
        fields: dict[str, Any] = dict(named)
        if result.went_out:
            fields["went_out"] = True
            if result.rummy:
                fields["rummy"] = True
        else:
            if result.cards is not None:
                fields["cards"] = [str(card.plain) for card in result.cards]
            fields["penalty"] = result.penalty or 0
        if result.buys:
            fields["buys"] = result.buys
        return cls(**fields)

    @staticmethod
    def read(kept: Mapping[str, Any]) -> SeatResult:
        """The engine's seat result from this shape as the database keeps it, read as it lies:
        only this model writes it (`results_data`), and a page reads dozens at a time. Rows
        kept before this shape wrote `went_out: false`, and a penalty of 0 for a seat out: they
        read the same."""
        went_out = bool(kept.get("went_out"))
        cards = kept.get("cards")
        return SeatResult(
            went_out=went_out,
            penalty=None if went_out else int(kept.get("penalty") or 0),
            rummy=bool(kept.get("rummy")),
            cards=parse_cards(cards) if cards is not None else None,
            buys=int(kept.get("buys") or 0),
        )


def data(model: Answer) -> dict[str, Any]:
    """A value as JSON data: the fields it was made with (a field left out is not written)."""
    return model.model_dump(mode="json", exclude_unset=True)


def results_of(kept: Sequence[Any] | None) -> tuple[SeatResult, ...] | None:
    """A round's results read back from the database."""
    if kept is None:
        return None
    return tuple(SeatResultJSON.read(item) for item in kept)


class _Named(Answer):
    player: str


class ResultAnswer(SeatResultJSON, _Named):
    """A seat's result named by its player: in the shape `POST …/rounds` takes, so an export
    can be entered again."""


class Shoe(Answer):
    decks: int
    jokers: int


class Deal(Answer):
    round: int
    contract: str | None = Field(description="the round's contract in words (null in rummy)")
    dealer: str
    starter: str
    deal: int = Field(description="cards each")
    shoe: Shoe

    @classmethod
    def of(cls, game: Game, deal: TableDeal) -> Self:
        """What the table needs before dealing: contract, dealer, starter, cards each, shoe."""
        return cls(
            round=deal.number,
            contract=contract_text(deal.contract) if deal.contract is not None else None,
            dealer=game.players[deal.dealer],
            starter=game.players[deal.starter],
            deal=deal.cards,
            shoe=Shoe(decks=deal.shoe.decks, jokers=deal.shoe.jokers),
        )


def named_results(game: Game, round_: Round) -> list[ResultAnswer]:
    return [
        ResultAnswer.of(result, player=name)
        for name, result in zip(game.players, round_.results, strict=True)
    ]


class RoundAnswer(Answer):
    round: int
    contract: str | None
    dealer: str
    deal: int
    scores: dict[str, int]
    went_out: str | None
    results: list[ResultAnswer] = Field(description="as entered, in the shape a round is posted")
    buys: dict[str, int] | None = Field(default=None, description="where buying is on")

    @classmethod
    def of(cls, game: Game, round_: Round) -> Self:
        deal = Deal.of(game, game.deal(round_.number))
        players = game.players
        answer = cls(
            round=round_.number,
            contract=deal.contract,
            dealer=deal.dealer,
            deal=deal.deal,
            scores=dict(zip(players, round_.scores, strict=True)),
            went_out=None if round_.went_out is None else players[round_.went_out],
            results=named_results(game, round_),
        )
        if game.variant.buying_played:  # an extra beside SPEC's shape: {name: buys} in the round
            answer.buys = {name: r.buys for name, r in zip(players, round_.results, strict=True)}
        return answer


class GameAnswer(Answer):
    id: str
    variant: str
    house_rules: dict[str, Any]
    players: list[str]
    first_dealer: str
    lang: str
    rounds: list[RoundAnswer]
    totals: dict[str, int]
    leaders: list[str]
    finished: bool
    winner: str | None
    winners: list[str] = Field(description="every name sharing the win; empty while playing")
    next_round: Deal | None
    version: int
    view_url: str

    @classmethod
    def of(cls, game_id: str, lang: str, game: Game, view_url: str, **extra: Any) -> Self:
        """The game in the shape of GET /api/v1/games/<id> (SPEC.md), plus what an import needs
        (`extra`: what a subclass adds)."""
        players = game.players
        standings = game.standings
        upcoming = game.next_round
        return cls(
            id=game_id,
            variant=game.variant.id,
            house_rules=dict(game.house_rules),
            players=list(players),
            first_dealer=players[game.first_dealer],
            lang=lang,
            rounds=[RoundAnswer.of(game, r) for r in game.rounds],
            totals=dict(zip(players, standings.totals, strict=True)),
            leaders=[players[i] for i in standings.leaders] if game.rounds else [],
            finished=standings.finished,
            winner=None if game.winner is None else players[game.winner],
            winners=[players[i] for i in game.winners],
            next_round=Deal.of(game, game.deal(upcoming)) if upcoming else None,
            version=game.version,
            view_url=view_url,
            **extra,
        )


class CreatedGame(GameAnswer):
    edit_token: str = Field(description="the secret that lets its holder change the game")
    edit_url: str
