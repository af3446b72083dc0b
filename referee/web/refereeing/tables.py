"""The table a check runs under, read one way for the referee page and the API: the variant with
its house rules, the round, the table's size and shoe, and the open game a check names.

A check that names a game (`game`, its id) runs under that game's rules: its variant, its
house rules and its table's size. The check's own house rules go over the game's, rule by rule
(merged, on the page as in the API: `?buy_limit=3` on a game that plays with buying keeps
buying on). A check of another variant than the game's takes neither the game's house rules
nor its size (the page allows it; the API refuses it, `game_variant_differs`). The table's
size as given (`players`) fixes the shoe and wins over the game's.

Each reader raises the engine's `RefereeError` for what it cannot read; the API answers the
first, the page says each under its own field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app, has_app_context

from referee.engine.errors import RefereeError
from referee.engine.game import Game
from referee.engine.house_rules import get_variant
from referee.engine.variants import ShoeRule, Variant
from referee.web.games import queries
from referee.web.plumbing.database import EXTENSION as DATABASE
from referee.web.vocabulary.house_rules import TableRules, table_rules


def find_game(game_id: str) -> Game | None:
    """The game a check names by its id; None when there is none (or no database to look in:
    the command line)."""
    if not has_app_context() or DATABASE not in current_app.extensions:
        return None
    stored = queries.load(game_id.strip())
    return stored.game if stored is not None else None


def plays(variant_id: str, game: Game | None) -> bool:
    """Whether `game` is a game of the variant named (by id or alias)."""
    if game is None:
        return False
    try:
        return get_variant(variant_id).id == game.variant.id
    except RefereeError:
        return False


def rules(variant_id: str, overrides: Mapping[str, Any] | None, game: Game | None) -> TableRules:
    """The variant named with its house rules: a game of that variant gives its own, and the
    check's `overrides` go over them. UnknownVariantError / HouseRuleError on bad input."""
    own = dict(game.house_rules) if game is not None and plays(variant_id, game) else {}
    return table_rules(variant_id, {**own, **(overrides or {})})


def first_round(variant: Variant, game: Game | None) -> int:
    """The round a check is about when it names none: the open game's next (its last once it
    is over), else the first."""
    if game is None:
        return 1
    upcoming = game.next_round or len(game.rounds) or 1
    return upcoming if variant.rounds is None or upcoming <= variant.rounds else 1


def round_of(number: int | None, variant: Variant, game: Game | None) -> int:
    """The round asked for (checked against the variant's rounds), else `first_round`."""
    if number is None:
        return first_round(variant, game)
    variant.check_round(number)
    return number


def size(
    players: int | None, variant: Variant, game: Game | None
) -> tuple[int | None, ShoeRule | None]:
    """The table's size and shoe: as given (PlayersError outside the variant's players), else
    the open game's when it plays this variant, else unknown (None: the check judges by the
    largest shoe of the players in force)."""
    if players is not None:
        return players, variant.shoe_for(players)
    if game is None or game.variant.id != variant.id:
        return None, None
    seats = len(game.players)
    try:
        return seats, variant.shoe_for(seats)
    except RefereeError:  # the check's house rules seat fewer than the game does
        return seats, game.shoe
