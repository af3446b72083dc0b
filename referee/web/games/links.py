"""A game's two links: the view link anyone may have, and the edit link that lets its holder
enter and correct rounds."""

from __future__ import annotations

from flask import url_for


def view_url(game_id: str, *, external: bool = False) -> str:
    """The read-only link of a game."""
    return url_for("games.show", game_id=game_id, _external=external)


def edit_url(game_id: str, token: str, *, external: bool = False) -> str:
    """The link that lets its holder enter and correct rounds."""
    return url_for("games.edit", game_id=game_id, token=token, _external=external)
