"""The store's error: something asked of the database that cannot be read or written as asked.

Each feature names its own kinds (a game not found, a stale version, a club not found); the web
layer answers them all the same way, by their code (plumbing/errors.py, the APIs).
"""

from __future__ import annotations

from referee.engine.errors import RefereeError


class StoreError(RefereeError):
    """A record that cannot be read or written as asked."""


class NotFound(StoreError):
    """No record by that id (or an id that cannot be one): a 404."""
