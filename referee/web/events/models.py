"""The events tables: a club night (its whole state, as the engine writes it) and the games
its tables play.

They share the games' `MetaData` (one Alembic history). The evening's state is one JSON
document (`referee.engine.events.Event.to_json`), read back only through the engine's reader
(`Event.from_json`), which checks it as a new event is checked: an evening is small (at most
a hundred players and twelve series) and always read and written whole.
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, Date, DateTime, ForeignKey, Index, Integer, String, Table

from referee.web.games.models import metadata

#: One row per evening. `version` is the engine's: it grows with every check-in, draw, swap and
#: result, so a writer that saw an older one is refused (optimistic concurrency) and the room
#: board's poll skips work while it stands.
events = Table(
    "events",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("club_id", String(32), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("name", String(64), nullable=False),
    Column("date", Date, nullable=False),
    Column("lang", String(8), nullable=False),
    Column("version", Integer, nullable=False),
    Column("state", JSON, nullable=False),
    # game id -> its edit token sealed with the server's key (games.access.seal): the host's
    # page shows each table's QR again; a leaked database alone does not give them away.
    Column("table_tokens", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
    Index("ix_events_club_date", "club_id", "date"),
)

#: The game each table plays: how a round written to a game finds its evening (the receiver of
#: `game_written` looks a game up here by key; a game of no evening costs one lookup).
event_games = Table(
    "event_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("event_id", String(32), ForeignKey("events.id", ondelete="CASCADE"), nullable=False),
    Column("series", Integer, nullable=False),
    Column("table_number", Integer, nullable=False),
)
