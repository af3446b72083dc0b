"""Who may see and run an evening from a page: the evening by its link or a 404, the club's
edit token or a 403 (a view link sees everything and changes nothing)."""

from __future__ import annotations

from flask import abort

from referee.web.plumbing.i18n import known_language
from referee.web.vocabulary.messages import describe

from . import service
from .store import StoredEvent


def event_or_404(club_id: str, event_id: str) -> StoredEvent:
    stored = service.load_in(club_id, event_id)
    if stored is None:
        abort(404, description=describe("event_not_found"))
    known_language("event_id", event_id, stored.lang)  # the page speaks the evening's
    return stored


def editable_event(club_id: str, event_id: str, token: str) -> StoredEvent:
    """The evening, when `token` is its club's edit token (else a 404 or a 403)."""
    stored = event_or_404(club_id, event_id)
    if not service.can_edit(club_id, token):
        abort(403, description=describe("bad_club_token"))
    return stored
