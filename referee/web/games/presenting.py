"""What the game pages show, in words: the page's context, value classes, house rules in force,
and a line of history per change. (The views themselves are in `routes.py` and `rounds.py`.)"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from referee.engine.cards import Rank
from referee.engine.game import Action, Game, SeatResult
from referee.engine.scoring import value_classes
from referee.engine.variants import Scoring, Variant
from referee.web.house_rules import table_rules
from referee.web.words import house_rules_in_words, rank_label, times_text, variant_name

from . import store
from .links import edit_url, view_url

#: How often a game page asks whether anything changed (seconds).
POLL_SECONDS = 3
#: History lines shown on the edit page: only these are read from the database.
HISTORY_SHOWN = 30


@dataclass(frozen=True)
class ClassView:
    """A value class a hand may be counted by: "2–9 (5)"."""

    points: int
    label: str


def class_views(variant: Variant) -> list[ClassView]:
    """The classes a table may count a hand by, when there are few enough to be quick."""
    classes = value_classes(variant)
    if len(classes) > 5:
        return []
    return [ClassView(c.points, _class_label(c.ranks, c.joker)) for c in classes]


def _class_label(ranks: Sequence[Rank], joker: bool) -> str:
    if joker:
        return gettext("Jokers")
    if len(ranks) == 1:
        return rank_label(ranks[0])
    if [int(r) for r in ranks] == list(range(int(ranks[0]), int(ranks[-1]) + 1)):
        return f"{rank_label(ranks[0])}–{rank_label(ranks[-1])}"
    return " ".join(rank_label(r) for r in ranks)


def card_points_json(variant: Variant) -> str:
    """This variant's points per rank letter and for a joker, for the page to add up a hand."""
    points: dict[str, int] = {rank.letter: variant.rank_points[rank - 1] for rank in Rank}
    points["JK"] = variant.joker_points
    return json.dumps(points)


def stock_out_text(variant: Variant) -> str | None:
    """The round form's "nobody went out" choice, where the stock can end a round at all."""
    if variant.stock_reshuffles is None:
        return None  # the discards become the stock as often as needed: someone goes out
    if variant.scoring is not Scoring.PENALTY:
        return gettext("Nobody went out: the stock ran out, and nobody scores this deal")
    runs_out = variant.stock_reshuffles + 1
    if runs_out == 1:
        return gettext("Nobody went out: the stock ran out, everyone scores their hand")
    return gettext(
        "Nobody went out: the stock ran out %(times)s, everyone scores their hand",
        times=times_text(runs_out),
    )


def rules_in_force(game: Game) -> list[tuple[str, str]]:
    """The house rules that differ from the registered variant, as label and value."""
    changed = table_rules(game.variant.id, game.house_rules).changed
    return house_rules_in_words(game.variant, changed)


def change_text(game: Game, entry: store.Entry) -> str:
    """One line of history: which round, what happened, whose score moved."""
    change = entry.change
    before, after = _summary(change.before), _summary(change.after)
    if before and after:
        moved = [
            f"{name} {before[seat]}→{after[seat]}"
            for seat, name in enumerate(game.players)
            if before.get(seat) != after.get(seat)
        ]
    else:  # a round entered, or taken back: what it held
        held = after or before
        moved = [f"{name} {held[seat]}" for seat, name in enumerate(game.players) if seat in held]
    if change.action is Action.ADD:
        text = gettext("Round %(number)s entered", number=change.round)
    elif change.action is Action.EDIT:
        text = gettext("Round %(number)s corrected", number=change.round)
    elif change.after is None:
        text = gettext("Undone: round %(number)s taken back", number=change.round)
    else:
        text = gettext("Undone: round %(number)s as it was before", number=change.round)
    return f"{text} ({', '.join(moved)})" if moved else text


def _summary(results: Sequence[SeatResult] | None) -> dict[int, str]:
    if results is None:
        return {}
    return {
        seat: gettext("out") if r.went_out else str(r.penalty) for seat, r in enumerate(results)
    }


def page_context(stored: store.StoredGame, token: str | None) -> dict[str, Any]:
    """What every game page (view, edit, the polled part) shows."""
    game = stored.game
    upcoming = game.next_round
    return {
        "game": game,
        "game_id": stored.id,
        "token": token,
        "variant_title": variant_name(game.variant.id),
        "rules_in_force": rules_in_force(game),
        "next_deal": game.deal(upcoming) if upcoming else None,
        "totals": game.running_totals(),
        "poll_seconds": POLL_SECONDS,
        "view_link": view_url(stored.id, external=True),
        "edit_link": edit_url(stored.id, token, external=True) if token else None,
        "is_penalty": game.variant.scoring is Scoring.PENALTY,
        "stock_out_text": stock_out_text(game.variant),
        "leader_names": [game.players[i] for i in game.standings.leaders],
        "winner_names": [game.players[i] for i in game.winners],
        "change_text": lambda entry: change_text(game, entry),
        "card_points_json": card_points_json(game.variant),
    }


def editing_context(stored: store.StoredGame) -> dict[str, Any]:
    """What the edit pages add: the history shown and whether undo is possible."""
    return {
        "history": store.history(stored.id, limit=HISTORY_SHOWN),
        "can_undo": stored.game.can_undo(store.last_change(stored.id)),
        "classes": class_views(stored.game.variant),
    }
