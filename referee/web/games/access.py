"""Who may see and change a game from a page: the game by its link or a 404, the edit token
or a 403, and the phone's list of recent games (kept in its session).

The session is a signed cookie, readable by anyone who holds it: the recent list keeps each
edit token sealed (XORed with a pad that only the server can make from SECRET_KEY, the kind of
record and its id), so the cookie never shows a token in clear. The clubs' recent list seals
theirs the same way (`kind="club"`: another pad for the same id).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac

from flask import abort, current_app, session

from referee.web.plumbing.hosting import keep_private
from referee.web.plumbing.i18n import known_language
from referee.web.vocabulary.messages import describe

from . import queries

RECENT_KEY = "recent"
#: What older versions kept, tokens in clear: read once, then sealed under RECENT_KEY.
_OLD_RECENT_KEY = "recent_games"
#: Games a phone lists on `/` to resume.
RECENT_MAX = 8


def editable_game(game_id: str, token: str) -> queries.StoredGame:
    """The game, when `token` is its edit token (else a 404 or a 403), read once: a write
    hands it on to the service, which reads it again only if it changed meanwhile."""
    found = queries.load_editable(game_id, token)
    if found is None:
        abort(404, description=describe("game_not_found"))
    stored, editable = found
    if not editable:
        abort(403)
    known_language("game_id", game_id, stored.lang)  # the page speaks it: not read again
    return stored


def editable_or_403(game_id: str, token: str) -> None:
    """A 404 for no such game, a 403 when `token` is not its edit token."""
    if queries.version_of(game_id) is None:
        abort(404, description=describe("game_not_found"))
    if not queries.check_token(game_id, token):
        abort(403)


def game_or_404(game_id: str) -> queries.StoredGame:
    stored = queries.load(game_id)
    if stored is None:
        abort(404, description=describe("game_not_found"))
    known_language("game_id", game_id, stored.lang)  # the page speaks it: not read again
    return stored


# -- sealed tokens --------------------------------------------------------------------------------


def _pad(record_id: str, length: int, kind: str) -> bytes:
    key = str(current_app.config["SECRET_KEY"]).encode()
    stream = b""
    counter = 0
    while len(stream) < length:
        message = f"recent-{kind}-token:{counter}:{record_id}".encode()
        stream += hmac.new(key, message, hashlib.sha256).digest()
        counter += 1
    return stream[:length]


def seal(record_id: str, token: str, *, kind: str = "game") -> str:
    """The token as the cookie keeps it: unreadable without the server's key."""
    raw = token.encode()
    sealed = bytes(a ^ b for a, b in zip(raw, _pad(record_id, len(raw), kind), strict=True))
    return base64.urlsafe_b64encode(sealed).decode()


def unseal(record_id: str, sealed: str, *, kind: str = "game") -> str | None:
    """The token back, or None when `sealed` is not one this server sealed for this record."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode())
    except (binascii.Error, ValueError):
        return None
    if len(raw) > 256:  # no token is this long: not ours
        return None
    token = bytes(a ^ b for a, b in zip(raw, _pad(record_id, len(raw), kind), strict=True))
    try:
        text = token.decode()
    except UnicodeDecodeError:
        return None
    return text if text.isprintable() and text else None


# -- the phone's recent games ---------------------------------------------------------------------


def _entries() -> list[tuple[str, str | None]]:
    """(game id, sealed token or None), newest first, from this session."""
    entries: list[tuple[str, str | None]] = []
    for item in session.get(RECENT_KEY, []):
        if isinstance(item, list) and item and isinstance(item[0], str):
            sealed = item[1] if len(item) > 1 and isinstance(item[1], str) else None
            entries.append((item[0], sealed))
    old = session.pop(_OLD_RECENT_KEY, None)
    if isinstance(old, list):
        for item in old:
            if isinstance(item, list) and item and isinstance(item[0], str):
                token = item[1] if len(item) > 1 and isinstance(item[1], str) else None
                entries.append((item[0], seal(item[0], token) if token else None))
        session[RECENT_KEY] = [list(e) for e in entries[:RECENT_MAX]]
    return entries


def remember(game_id: str, token: str | None) -> None:
    """Keep the game in this phone's recent list (with its edit token, sealed, when we have it)."""
    if token:
        keep_private()
    entries = _entries()
    known = next((sealed for gid, sealed in entries if gid == game_id), None)
    sealed = seal(game_id, token) if token else known
    kept = [(gid, s) for gid, s in entries if gid != game_id]
    kept.insert(0, (game_id, sealed))
    session[RECENT_KEY] = [list(e) for e in kept[:RECENT_MAX]]


def recent() -> list[tuple[str, str | None]]:
    """The phone's recent games, newest first: (game id, edit token or None).

    An answer that shows them holds edit tokens: it is kept out of every cache.
    """
    found: list[tuple[str, str | None]] = []
    for game_id, sealed in _entries()[:RECENT_MAX]:
        token = unseal(game_id, sealed) if sealed else None
        found.append((game_id, token))
    if any(token for _, token in found):
        keep_private()
    return found
