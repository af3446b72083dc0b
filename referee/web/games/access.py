"""Who may see and change a game from a page: the game by its link or a 404, the edit token
or a 403, and the phone's list of recent games (kept in its session)."""

from __future__ import annotations

from flask import abort, g, session

from referee.web.messages import describe

from . import store

RECENT_KEY = "recent_games"
#: Games a phone lists on `/` to resume.
RECENT_MAX = 8


def game_or_404(game_id: str) -> store.StoredGame:
    stored = store.load(game_id)
    if stored is None:
        abort(404, description=describe("game_not_found"))
    g.game_language = stored.lang  # what the page speaks to a phone that chose no language
    return stored


def editable_or_403(game_id: str, token: str) -> None:
    """A 404 for no such game, a 403 when `token` is not its edit token."""
    if store.version_of(game_id) is None:
        abort(404, description=describe("game_not_found"))
    if not store.check_token(game_id, token):
        abort(403)


def editable_game(game_id: str, token: str) -> store.StoredGame:
    """The game, when `token` is its edit token (else a 404 or a 403)."""
    editable_or_403(game_id, token)
    return game_or_404(game_id)


def remember(game_id: str, token: str | None) -> None:
    """Keep the game in this phone's recent list (with its edit token when we have it)."""
    recent = [entry for entry in session.get(RECENT_KEY, []) if isinstance(entry, list)]
    known = next((e for e in recent if e and e[0] == game_id), None)
    if known and not token and len(known) > 1:
        token = known[1]
    recent = [e for e in recent if e and e[0] != game_id]
    recent.insert(0, [game_id, token])
    session[RECENT_KEY] = recent[:RECENT_MAX]


def recent() -> list[tuple[str, str | None]]:
    """The phone's recent games, newest first: (game id, edit token or None)."""
    entries = [e for e in session.get(RECENT_KEY, []) if isinstance(e, list) and e]
    return [(str(e[0]), e[1] if len(e) > 1 else None) for e in entries[:RECENT_MAX]]
