"""Who may see and use a club from a page: the club by its link or a 404, its edit token or a
403, and the phone's list of recent clubs (kept in its session, each edit token sealed as the
games' are: `games.access.seal`, so the cookie never shows one in clear)."""

from __future__ import annotations

from typing import Any

from flask import abort, session

from referee.web.games.access import seal, unseal
from referee.web.plumbing.hosting import keep_private
from referee.web.vocabulary.messages import describe

from . import service
from .store import StoredClub

RECENT_KEY = "clubs"
#: What older versions kept, tokens in clear: read once, then sealed under RECENT_KEY.
_OLD_RECENT_KEY = "recent_clubs"
#: Clubs a phone lists on /clubs.
RECENT_MAX = 6
KIND = "club"


def club_or_404(club_id: str) -> StoredClub:
    club = service.load(club_id)
    if club is None:
        abort(404, description=describe("club_not_found"))
    return club


def editable_club(club_id: str, token: str) -> StoredClub:
    """The club, when `token` is its edit token (else a 404 or a 403)."""
    club = club_or_404(club_id)
    if not service.check_token(club_id, token):
        abort(403, description=describe("bad_club_token"))
    return club


def _entry(item: Any) -> tuple[str, str | None] | None:
    """(club id, the second value or None) of a kept entry, if it is one."""
    if not isinstance(item, list) or not item or not isinstance(item[0], str):
        return None
    second = item[1] if len(item) > 1 and isinstance(item[1], str) else None
    return item[0], second


def _entries() -> list[tuple[str, str | None]]:
    """(club id, sealed token or None), newest first, from this session; an older session's
    tokens in clear are sealed as they are read, and kept so."""
    entries = [e for item in session.get(RECENT_KEY, []) if (e := _entry(item))]
    old = session.pop(_OLD_RECENT_KEY, None)
    if isinstance(old, list):
        for club_id, token in (e for item in old if (e := _entry(item))):
            entries.append((club_id, seal(club_id, token, kind=KIND) if token else None))
        session[RECENT_KEY] = [list(e) for e in entries[:RECENT_MAX]]
    return entries


def remember(club_id: str, token: str | None) -> None:
    """Keep the club in this phone's recent list (with its edit token, sealed, when we have it)."""
    if token:
        keep_private()
    entries = _entries()
    known = next((sealed for cid, sealed in entries if cid == club_id), None)
    sealed = seal(club_id, token, kind=KIND) if token else known
    kept = [(cid, s) for cid, s in entries if cid != club_id]
    kept.insert(0, (club_id, sealed))
    session[RECENT_KEY] = [list(e) for e in kept[:RECENT_MAX]]


def recent() -> list[tuple[str, str | None]]:
    """The phone's recent clubs, newest first: (club id, edit token or None).

    An answer that shows them holds edit tokens: it is kept out of every cache.
    """
    found = [
        (club_id, unseal(club_id, sealed, kind=KIND) if sealed else None)
        for club_id, sealed in _entries()[:RECENT_MAX]
    ]
    if any(token for _, token in found):
        keep_private()
    return found
