"""A club's two links: the view link anyone may have, and the edit link that starts games."""

from __future__ import annotations

from flask import url_for


def view_url(club_id: str, *, external: bool = False, variant: str | None = None) -> str:
    """The read-only link of a club (showing one variant's games when `variant` is given)."""
    return url_for("clubs.show", club_id=club_id, variant=variant, _external=external)


def edit_url(
    club_id: str, token: str, *, external: bool = False, variant: str | None = None
) -> str:
    """The link that lets its holder start the club's games."""
    return url_for("clubs.edit", club_id=club_id, token=token, variant=variant, _external=external)
