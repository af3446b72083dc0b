"""What a season's pages, exports and answers say in words: its rule and tie-breaks, a
movement, a tournament points figure."""

from __future__ import annotations

from flask_babel import gettext, ngettext

from referee.engine.seasons import Movement, Rule, Season
from referee.web.plumbing import formats

from .service import Column, GameDay
from .store import StoredGame


def rule_sentence(season: Season) -> str:
    """The rule in words, then how ties go (the engine's `seasons` docstring says the same)."""
    if season.rule is Rule.BEST:
        best = season.best or 1
        rule = ngettext(
            "Each player’s best club night counts; the others are dropped (greyed).",
            "Each player’s best %(num)d club nights count; the others are dropped (greyed).",
            best,
        )
    elif season.rule is Rule.AVERAGE:
        least = season.min_evenings or 1
        rule = ngettext(
            "Ranked by tournament points per club night played; every player who played is ranked.",
            "Ranked by tournament points per club night played; a player needs %(num)d club "
            "nights to be ranked (those with fewer are listed after, unranked).",
            least,
        )
    else:
        rule = gettext("The tournament points of every club night are added up.")
    ties = gettext(
        "Ties go to more club nights won, then to more tournament points over every club "
        "night played."
    )
    if not season.club_games:
        return f"{rule} {ties}"
    games = gettext(
        "The club’s other games count too: the games begun on one day make a club night of "
        "their own, each finished game scored as a club night’s table."
    )
    return f"{rule} {games} {ties}"


def column_name(column: Column) -> str:
    """A column's name: the club night's, or "Club games" for a day of them."""
    return gettext("Club games") if isinstance(column, GameDay) else column.name


def movement_label(movement: Movement | None) -> str:
    """A movement for a screen reader: "up 2 places since the last club night"."""
    if movement is None:
        return ""
    if movement.kind == "up":
        return ngettext("up %(num)d place", "up %(num)d places", movement.by)
    if movement.kind == "down":
        return ngettext("down %(num)d place", "down %(num)d places", movement.by)
    if movement.kind == "same":
        return gettext("same place")
    return gettext("new in the table")


def movement_sign(movement: Movement | None) -> str:
    """▲2, ▼1, = or the word for new."""
    if movement is None:
        return ""
    return gettext("new") if movement.kind == "new" else movement.sign


#: Tournament points as the evening's standings write them (one writer, `formats`).
points_text = formats.tournament_points


def game_players(game: StoredGame) -> str:
    """A club game as the season's form lists it: its players, in seat order."""
    return ", ".join(seat.name for seat in game.record.seats) if game.record else ""
