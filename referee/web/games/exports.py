"""A game out and back in: SPEC's JSON (`GET /api/v1/games/<id>` and the .json download), CSV,
and importing a JSON export as a new game. Words come from `referee.web.words`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from referee.engine.game import Deal, Game, GameRefused, Round, Step, reason, table_house_rules
from referee.web.core.languages import LANGUAGES
from referee.web.words import contract_text

from . import store
from .links import view_url
from .results import read_results
from .schemas import ImportedGame, read_body

JSON = dict[str, Any]


def deal_json(game: Game, deal: Deal) -> JSON:
    """What the table needs before dealing: contract, dealer, starter, cards each, shoe."""
    return {
        "round": deal.number,
        "contract": contract_text(deal.contract) if deal.contract is not None else None,
        "dealer": game.players[deal.dealer],
        "starter": game.players[deal.starter],
        "deal": deal.cards,
        "shoe": {"decks": deal.shoe.decks, "jokers": deal.shoe.jokers},
    }


def results_json(game: Game, round_: Round) -> list[JSON]:
    """A round's results in the shape `POST …/rounds` takes, so an export can be entered again."""
    out = []
    for name, r in zip(game.players, round_.results, strict=True):
        entry: JSON = {"player": name}
        if r.went_out:
            entry["went_out"] = True
            if r.rummy:
                entry["rummy"] = True
        else:
            if r.cards is not None:
                entry["cards"] = [str(card.plain) for card in r.cards]
            entry["penalty"] = r.penalty
        if r.buys:
            entry["buys"] = r.buys
        out.append(entry)
    return out


def _round_json(game: Game, round_: Round) -> JSON:
    deal = deal_json(game, game.deal(round_.number))
    players = game.players
    data: JSON = {
        "round": round_.number,
        "contract": deal["contract"],
        "dealer": deal["dealer"],
        "deal": deal["deal"],
        "scores": dict(zip(players, round_.scores, strict=True)),
        "went_out": None if round_.went_out is None else players[round_.went_out],
        "results": results_json(game, round_),
    }
    if game.variant.buying:  # an extra beside SPEC's shape: {name: buys} in the round
        data["buys"] = {name: r.buys for name, r in zip(players, round_.results, strict=True)}
    return data


def game_json(stored: store.StoredGame) -> JSON:
    """The game in the shape of GET /api/v1/games/<id> (SPEC.md), plus what an import needs."""
    game = stored.game
    players = game.players
    standings = game.standings
    upcoming = game.next_round
    return {
        "id": stored.id,
        "variant": game.variant.id,
        "house_rules": dict(game.house_rules),
        "players": list(players),
        "first_dealer": players[game.first_dealer],
        "lang": stored.lang,
        "rounds": [_round_json(game, r) for r in game.rounds],
        "totals": dict(zip(players, standings.totals, strict=True)),
        "leaders": [players[i] for i in standings.leaders] if game.rounds else [],
        "finished": standings.finished,
        "winner": None if game.winner is None else players[game.winner],
        "winners": [players[i] for i in game.winners],
        "next_round": deal_json(game, game.deal(upcoming)) if upcoming else None,
        "version": game.version,
        "view_url": view_url(stored.id, external=True),
    }


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell as written: text that a spreadsheet would run as a formula gets a `'` in front.

    Numbers stay numbers (a negative score is a number, not a formula).
    """
    if isinstance(value, str) and value.startswith(_FORMULA_STARTS):
        return "'" + value
    return value


def to_csv(stored: store.StoredGame) -> str:
    """One line per round: round, contract, dealer, who went out, each player's score; then
    the totals. Where buying is on, each player's buys follow (``buys <name>``) and are summed.
    """
    game = stored.game
    buying = game.variant.buying
    buffer = io.StringIO()
    buy_columns = [f"buys {name}" for name in game.players] if buying else []
    header = ["round", "contract", "dealer", "went_out", *game.players, *buy_columns]
    rows: list[list[Any]] = [header]
    for r in game.rounds:
        deal = deal_json(game, game.deal(r.number))
        out = "" if r.went_out is None else game.players[r.went_out]
        buys = [result.buys for result in r.results] if buying else []
        rows.append([r.number, deal["contract"] or "", deal["dealer"], out, *r.scores, *buys])
    seats = range(len(game.players))
    total_buys = [sum(r.results[seat].buys for r in game.rounds) for seat in seats]
    rows.append(["total", "", "", "", *game.standings.totals, *(total_buys if buying else [])])
    csv.writer(buffer).writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def _known(lang: Any) -> bool:
    return isinstance(lang, str) and lang in LANGUAGES


def import_game(data: Any, *, lang: str | None = None) -> tuple[store.StoredGame, str]:
    """A new game (a new id and token) from a JSON export: every round entered again, checked.

    Nothing is kept unless the whole game reads: GameRefused says what does not.
    """
    start, steps, language = read_export(data, lang=lang)
    return store.create(start, lang=language, steps=steps)


def read_export(data: Any, *, lang: str | None = None) -> tuple[Game, list[Step], str]:
    """A JSON export read and checked, nothing kept: the game as it started, the step of each
    round entered again, and its language (GameRefused says what does not read)."""
    if not isinstance(data, Mapping):
        raise GameRefused([reason("bad_import", field="data")])
    exported = read_body(ImportedGame, data)
    # An export from before its variant's table narrowed keeps its size as a house rule.
    house_rules = table_house_rules(exported.variant, exported.house_rules, len(exported.players))
    start = Game.start(
        exported.variant,
        exported.players,
        house_rules=house_rules or None,
        first_dealer=exported.first_dealer,
    )
    game, steps = start, []
    for number, entry in enumerate(exported.rounds, start=1):
        step: Step = game.enter_round(number, read_results(game, entry.results, lang))
        steps.append(step)
        game = step.game
    language = next((str(x) for x in (exported.lang, lang) if _known(x)), "en")
    return start, steps, language
