"""What the game pages show, in words: the page's context, value classes, house rules in force,
and a line of history per change. (The views themselves are in `routes.py` and `rounds.py`.)"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from flask_babel import gettext
from markupsafe import Markup, escape

from referee.engine.cards import Rank
from referee.engine.game import (
    Action,
    Change,
    Game,
    Logged,
    SeatResult,
)
from referee.engine.scoring import value_classes
from referee.engine.variants import MAX_ROUNDS_WITHOUT_CONTRACTS, Scoring, Variant
from referee.web.plumbing.i18n import current_language
from referee.web.plumbing.security import bdi
from referee.web.plumbing.theme import chosen_text_size
from referee.web.vocabulary.house_rules import table_rules
from referee.web.vocabulary.words import (
    contract_text,
    house_rules_in_words,
    rank_label,
    shoe_text,
    times_text,
    variant_name,
)

from . import queries
from .forms import RematchForm
from .links import edit_url, view_url

#: How often a game page asks whether anything changed where no stream comes through (seconds).
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


def change_text(game: Game, entry: queries.Entry | Logged) -> Markup:
    """One line of history: which round, what happened, whose score moved (names isolated)."""
    change = entry.change
    before, after = _summary(change.before), _summary(change.after)
    if before and after:
        moved = [
            Markup("{} {}→{}").format(bdi(name), before[seat], after[seat])
            for seat, name in enumerate(game.players)
            if before.get(seat) != after.get(seat)
        ]
    else:  # a round entered, or taken back: what it held
        held = after or before
        moved = [
            Markup("{} {}").format(bdi(name), held[seat])
            for seat, name in enumerate(game.players)
            if seat in held
        ]
    if change.action is Action.ADD:
        text = gettext("Round %(number)s entered", number=change.round)
    elif change.action is Action.EDIT:
        text = gettext("Round %(number)s corrected", number=change.round)
    elif change.action is Action.REDO:
        text = gettext("Restored: round %(number)s", number=change.round)
    elif change.after is None:
        text = gettext("Undone: round %(number)s taken back", number=change.round)
    else:
        text = gettext("Undone: round %(number)s as it was before", number=change.round)
    if not moved:
        return escape(text)
    return Markup("{} ({})").format(text, Markup(", ").join(moved))


def _summary(results: Sequence[SeatResult] | None) -> dict[int, str]:
    if results is None:
        return {}
    return {
        seat: gettext("out") if r.went_out else str(r.penalty) for seat, r in enumerate(results)
    }


#: How many letters a name may keep in the score table's head, by the number of players: the
#: columns of eight players fit a 320-px phone with three, those of two with ten.
SHORT_NAME_LETTERS: Final = {2: 10, 3: 7, 4: 5, 5: 5, 6: 4}
#: The same with large text (150 %) on a 360-px phone; from five players on, the table keeps
#: its figures at the normal size (eight columns of three digits at 150 % do not fit).
SHORT_NAME_LETTERS_LARGE: Final = {2: 7, 3: 5, 4: 3}
_WORDS: Final = re.compile(r"[^\s\-\u2010\u2013]+")


def short_names(players: Sequence[str], letters: int | None = None) -> list[str]:
    """Names short enough for the score table's columns on a 320-px phone, each recognisable:
    the start of a name (its first word, or the first `letters` letters of it); where two
    players share that start, their initials ("Diederik Jan", "Diederik Piet": DJ, DP); failing
    that (one-word names, the same initials), the start and the seat ("An1", "An2"). The page
    gives the full name to screen readers, and in a key under the table."""
    letters = letters or SHORT_NAME_LETTERS.get(len(players), 3)
    shorts = [_name_start(name, letters) for name in players]
    for seats in _sharing(shorts):
        for seat in seats:
            initials = _initials(players[seat])
            if 1 < len(initials) <= letters:
                shorts[seat] = initials
    for seats in _sharing(shorts):
        for seat in seats:
            shorts[seat] = f"{_name_start(players[seat], max(letters - 1, 1))}{seat + 1}"
    for seats in _sharing(shorts):  # a name that reads like another's start and seat ("An2")
        for seat in seats:
            shorts[seat] = f"#{seat + 1}"
    return shorts


def _letters_for_large_text(players: int) -> int | None:
    """The letters a short name keeps where this phone chose large text (else the default)."""
    return SHORT_NAME_LETTERS_LARGE.get(players) if chosen_text_size() == "large" else None


def _name_start(name: str, letters: int) -> str:
    words = _WORDS.findall(name)
    return (words[0] if words else name)[:letters]


def _initials(name: str) -> str:
    return "".join(word[0] for word in _WORDS.findall(name)).upper()


def _sharing(shorts: Sequence[str]) -> list[list[int]]:
    """The seats whose short names are the same (letter case aside), group by group."""
    seats: dict[str, list[int]] = {}
    for seat, short in enumerate(shorts):
        seats.setdefault(short.casefold(), []).append(seat)
    return [group for group in seats.values() if len(group) > 1]


def share_text(game: Game) -> str:
    """The result in a line, for sharing: who won, and every total."""
    names = [game.players[seat] for seat in game.winners]
    totals = " · ".join(
        f"{name} {total}" for name, total in zip(game.players, game.standings.totals, strict=True)
    )
    won = gettext("%(name)s wins!", name=names[0]) if len(names) == 1 else ", ".join(names)
    return f"{variant_name(game.variant.id)}: {won} {totals}"


def live_etag(version: int, token: str | None) -> str:
    """The ETag of the followed part of a game page: its version, language, and whether it
    shows the edit links."""
    return f"g{version}-{current_language()}-{'e' if token else 'v'}"


def page_context(stored: queries.StoredGame, token: str | None) -> dict[str, Any]:
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
        "live_etag": live_etag(game.version, token),
        "view_link": view_url(stored.id, external=True),
        "edit_link": edit_url(stored.id, token, external=True) if token else None,
        "is_penalty": game.variant.scoring is Scoring.PENALTY,
        "stock_out_text": stock_out_text(game.variant),
        "leader_names": [game.players[i] for i in game.standings.leaders],
        "winner_names": [game.players[i] for i in game.winners],
        "change_text": lambda entry: change_text(game, entry),
        "card_points_json": card_points_json(game.variant),
        "short_names": short_names(game.players, _letters_for_large_text(len(game.players))),
        "share_text": share_text(game) if game.finished else "",
        "rematch_form": RematchForm(formdata=None) if game.finished else None,
    }


def undo_question(change: Change) -> str:
    """What the undo button asks before it takes `change` back."""
    if change.action is Action.ADD:
        return gettext("Undo round %(number)s?", number=change.round)
    if change.action is Action.REDO:
        return gettext("Undo restoring round %(number)s?", number=change.round)
    return gettext("Undo the correction of round %(number)s?", number=change.round)


def editing_context(stored: queries.StoredGame) -> dict[str, Any]:
    """What the edit pages add: the history shown, what undo would take back (and asks first),
    what a restore would put back (the game's history decides both), and what the outbox needs
    to carry on without signal."""
    game = stored.game
    last = game.undoable if game.can_undo() else None
    return {
        "history": queries.history(stored.id, limit=HISTORY_SHOWN),
        "can_undo": last is not None,
        "undo_question": undo_question(last.change) if last is not None else "",
        "undo_entry": last,
        "restorable": game.restorable if game.can_redo() else None,
        "classes": class_views(game.variant),
        "schedule_json": schedule_json(game),
        "outbox_texts": outbox_texts(),
    }


def round_heading(game: Game, number: int) -> str:
    """ "Round 2 of 3" (the rounds the game plays: a club night's series of 3 plays 3 of the
    variant's 7), "Last round (3 of 3)", or "Deal 4" in a game to a target."""
    rounds = game.variant.game_rounds
    if rounds is None:
        return gettext("Deal %(number)s", number=number)
    if game.variant.is_final_round(number) and rounds > 1:
        return gettext("Last round (%(number)s of %(rounds)s)", number=number, rounds=rounds)
    if game.variant.rounds is None:
        return gettext("Deal %(number)s of %(rounds)s", number=number, rounds=rounds)
    return gettext("Round %(number)s of %(rounds)s", number=number, rounds=rounds)


def schedule_json(game: Game) -> str:
    """The rounds still to play, for the round screen to move on to without signal: the
    form's title, the pinned head's round, contract and dealer, the deal's facts."""
    upcoming = game.next_round
    if upcoming is None:
        return "[]"
    last = game.variant.game_rounds or MAX_ROUNDS_WITHOUT_CONTRACTS
    rows = []
    for number in range(upcoming, last + 1):
        deal = game.deal(number)
        rows.append(
            {
                "round": number,
                "title": gettext("Enter round %(number)s", number=number),
                "heading": round_heading(game, number),
                "contract": contract_text(deal.contract) if deal.contract is not None else "",
                "dealer": deal.dealer,
                "dealer_text": gettext("%(name)s deals", name=game.players[deal.dealer]),
                "starter": game.players[deal.starter],
                "cards": deal.cards,
                "shoe": shoe_text(deal.shoe.decks, deal.shoe.jokers),
            }
        )
    return json.dumps(rows, ensure_ascii=False)


def outbox_texts() -> str:
    """The outbox's words ({name}-style blanks filled in by outbox.js)."""
    return json.dumps(
        {
            "round": gettext("Round"),
            "add": gettext("Round %(number)s entered", number="{number}"),
            "edit": gettext("Round %(number)s corrected", number="{number}"),
            "undo": gettext("Undo the last change"),
            "waiting": gettext("waiting for signal"),
            "held": gettext("waits for the entry above"),
            "saved": gettext("saved ✓"),
            "refused": gettext("refused: %(reason)s", reason="{reason}"),
            "refused_short": gettext("refused"),
            "fix": gettext("Fix it"),
            "discard": gettext("Delete"),
            "out": gettext("%(name)s out", name="{name}"),
        },
        ensure_ascii=False,
    )
