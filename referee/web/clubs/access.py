"""Who may see and use a club from a page: the club by its link or a 404, its edit token or a
403, and the phone's list of recent clubs (kept in its session)."""

from __future__ import annotations

from flask import abort, session

from referee.web.messages import describe

from . import service
from .store import StoredClub

RECENT_KEY = "recent_clubs"
#: Clubs a phone lists on /clubs.
RECENT_MAX = 6


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


def remember(club_id: str, token: str | None) -> None:
    """Keep the club in this phone's recent list (with its edit token when we have it)."""
    recent = [e for e in session.get(RECENT_KEY, []) if isinstance(e, list) and e]
    known = next((e for e in recent if e[0] == club_id), None)
    if known and not token and len(known) > 1:
        token = known[1]
    recent = [e for e in recent if e[0] != club_id]
    recent.insert(0, [club_id, token])
    session[RECENT_KEY] = recent[:RECENT_MAX]


def recent() -> list[tuple[str, str | None]]:
    """The phone's recent clubs, newest first: (club id, edit token or None)."""
    entries = [e for e in session.get(RECENT_KEY, []) if isinstance(e, list) and e]
    return [(str(e[0]), e[1] if len(e) > 1 else None) for e in entries[:RECENT_MAX]]
