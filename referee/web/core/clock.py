"""The time as the database keeps it: aware, in UTC."""

from __future__ import annotations

from datetime import UTC, datetime


def now() -> datetime:
    return datetime.now(UTC)


def aware(moment: datetime) -> datetime:
    """A moment read back from the database (SQLite forgets the zone): in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
