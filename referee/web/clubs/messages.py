"""The clubs' codes in words (the engine's `Club` refusals and what the clubs feature adds: a
club not found, its edit token, a club file), registered with `vocabulary.messages` beside
the service."""

from __future__ import annotations

from flask_babel import gettext

from referee.web.vocabulary.messages import Message, register

SENTENCES: dict[str, Message] = {
    "club_not_found": lambda p: gettext("There is no club at this address."),
    "missing_club_token": lambda p: gettext(
        "Starting a club’s game needs the club’s edit link (its edit token)."
    ),
    "bad_club_token": lambda p: gettext(
        "This is not the club’s edit token: starting its games needs the club’s edit link."
    ),
    "empty_club_name": lambda p: gettext("The club needs a name."),
    "club_name_too_long": lambda p: gettext(
        "A club’s name may have at most %(max)s characters.", max=p["max"]
    ),
    "too_many_members": lambda p: gettext(
        "A club has room for %(max)s members: this game would make it more.", max=p["max"]
    ),
    "no_game_to_rematch": lambda p: gettext("The club has no game to play again yet."),
    "bad_club_import": lambda p: gettext(
        "This is not a club export of Rummy Referee (a .json file saved from a club page)."
    ),
    "bad_club_game": lambda p: gettext(
        "Game %(game)s of the club file cannot be read: %(reason)s",
        game=p["game"],
        reason=p["reason"],
    ),
}

register(SENTENCES)
