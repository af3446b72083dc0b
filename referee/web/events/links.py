"""An evening's links: the view link anyone may have, the host's (with the club's edit token),
and the room's board."""

from __future__ import annotations

from flask import url_for


def view_url(club_id: str, event_id: str, *, external: bool = False) -> str:
    return url_for("events.show", club_id=club_id, event_id=event_id, _external=external)


def edit_url(club_id: str, event_id: str, token: str, *, external: bool = False) -> str:
    return url_for(
        "events.edit", club_id=club_id, event_id=event_id, token=token, _external=external
    )


def board_url(club_id: str, event_id: str, *, external: bool = False) -> str:
    return url_for("events.board", club_id=club_id, event_id=event_id, _external=external)
