"""The seasons' codes in words (the engine's `Season` refusals and what the seasons feature
adds: a season not found or changed meanwhile, a date, an evening not of the season),
registered with `vocabulary.messages` beside the service."""

from __future__ import annotations

from flask_babel import gettext

from referee.web.vocabulary.messages import Message, register

SENTENCES: dict[str, Message] = {
    "season_not_found": lambda p: gettext("There is no season at this address."),
    "stale_season_version": lambda p: gettext(
        "The season changed on another phone meanwhile (it is at version %(current)s, this "
        "page showed %(version)s): look at it again, then do it once more.",
        **p,
    ),
    "bad_season_date": lambda p: gettext("“%(date)s” is not a date: write it as 2025-03-07.", **p),
    "not_a_season_evening": lambda p: gettext(
        "Only a club night or a club game within the season’s dates can be left out."
    ),
    "empty_season_name": lambda p: gettext("The season needs a name."),
    "season_name_too_long": lambda p: gettext(
        "A season’s name may have at most %(max)s characters.", max=p["max"]
    ),
    "season_ends_before_start": lambda p: gettext(
        "The season ends (%(ends)s) before it starts (%(starts)s).", **p
    ),
    "season_without_evenings": lambda p: gettext(
        "No club night falls within these dates: a season counts at least one."
    ),
    "season_without_results": lambda p: gettext(
        "No club night and no finished club game fall within these dates: a season counts at "
        "least one."
    ),
    "season_too_long_for_games": lambda p: gettext(
        "A season that counts the club’s other games spans at most %(max)s days.", max=p["max"]
    ),
    "too_many_season_evenings": lambda p: gettext(
        "A season counts at most %(max)s club nights.", max=p["max"]
    ),
    "unknown_season_rule": lambda p: gettext(
        "“%(rule)s” is no season rule: sum, best or average.", rule=p["rule"]
    ),
    "bad_best_evenings": lambda p: gettext(
        "The best %(value)s of %(evenings)s club nights cannot be counted: choose 1 to "
        "%(evenings)s.",
        **p,
    ),
    "bad_min_evenings": lambda p: gettext(
        "A minimum of %(value)s club nights out of %(evenings)s cannot be asked: choose 1 to "
        "%(evenings)s.",
        **p,
    ),
}

register(SENTENCES)
