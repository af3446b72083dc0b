"""A game's two links: the view link anyone may have, and the edit link that lets its holder
enter and correct rounds. Links for outside the page (`external`) take the configured host
(`referee.web.plumbing.hosting`), never one a request made up."""

from __future__ import annotations

from flask import url_for

from referee.web.plumbing.hosting import external_values


def view_url(game_id: str, *, external: bool = False) -> str:
    """The read-only link of a game."""
    if external:
        return url_for("games.show", game_id=game_id, **external_values())
    return url_for("games.show", game_id=game_id)


def edit_url(game_id: str, token: str, *, external: bool = False) -> str:
    """The link that lets its holder enter and correct rounds."""
    if external:
        return url_for("games.edit", game_id=game_id, token=token, **external_values())
    return url_for("games.edit", game_id=game_id, token=token)
