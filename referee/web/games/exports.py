"""A game out and back in: SPEC's JSON (`GET /api/v1/games/<id>` and the .json download, made
by the models of `values.py`), CSV, and a JSON export read back and checked (the games service
keeps it as a new game; a club's import reads its games the same way).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.engine.errors import GameRefused, reason
from referee.engine.game import Game, Round, Step, table_house_rules
from referee.web.core.languages import LANGUAGES
from referee.web.core.spreadsheets import csv_text
from referee.web.plumbing.i18n import in_language

from .links import view_url
from .queries import StoredGame
from .results import read_results
from .schemas import ImportedGame, read_body
from .values import Deal, GameAnswer, data, named_results

JSON = dict[str, Any]


def results_json(game: Game, round_: Round) -> list[JSON]:
    """A round's results in the shape `POST …/rounds` takes, so an export can be entered again."""
    return [data(result) for result in named_results(game, round_)]


@in_language
def game_json(
    stored: StoredGame, lang: str, shape: type[GameAnswer] = GameAnswer, **extra: Any
) -> JSON:
    """The game in the shape of GET /api/v1/games/<id> (SPEC.md), plus what an import needs,
    its words (contracts) in `lang`; `shape` a larger answer (a new game's, with `extra`: its
    edit token and link)."""
    view = view_url(stored.id, external=True)
    return data(shape.of(stored.id, stored.lang, stored.game, view, **extra))


@in_language
def to_csv(stored: StoredGame, lang: str) -> str:
    """One line per round: round, contract (in `lang`), dealer, who went out, each player's
    score; then the totals. Where buying is on, each player's buys follow (``buys <name>``) and
    are summed."""
    game = stored.game
    buying = game.variant.buying_played
    buy_columns = [f"buys {name}" for name in game.players] if buying else []
    header = ["round", "contract", "dealer", "went_out", *game.players, *buy_columns]
    rows: list[list[Any]] = [header]
    for r in game.rounds:
        deal = Deal.of(game, game.deal(r.number))
        out = "" if r.went_out is None else game.players[r.went_out]
        buys = [result.buys for result in r.results] if buying else []
        rows.append([r.number, deal.contract or "", deal.dealer, out, *r.scores, *buys])
    seats = range(len(game.players))
    total_buys = [sum(r.results[seat].buys for r in game.rounds) for seat in seats]
    rows.append(["total", "", "", "", *game.standings.totals, *(total_buys if buying else [])])
    return csv_text(rows)


def _known(lang: Any) -> bool:
    return isinstance(lang, str) and lang in LANGUAGES


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
