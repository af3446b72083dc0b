"""An evening as files: its JSON (the engine's own document, read back only through
`Event.from_json`, with the id, club and language around it) and its CSV, a line per player and
table, through the codebase's one CSV writer (`core.spreadsheets`: no formula gets through)."""

from __future__ import annotations

from typing import Any, Final

from referee.engine.events import Event
from referee.engine.game import EventRefused, reason
from referee.web.core.languages import LANGUAGES
from referee.web.core.spreadsheets import csv_text

from .store import StoredEvent

#: What an evening's file says it is.
FORMAT: Final = "rummy-referee-event"


def event_file(stored: StoredEvent) -> dict[str, Any]:
    """The evening as a file: everything it is, and which club and games it belongs to."""
    return {
        "format": FORMAT,
        "version": 1,
        "id": stored.id,
        "club": stored.club_id,
        "lang": stored.lang,
        "event": stored.event.to_json(),
    }


def read_event_file(data: Any) -> tuple[Event, str]:
    """An evening's file read back through the engine (EventRefused when it is not one)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise EventRefused([reason("bad_event_file", field="body")])
    try:
        event = Event.from_json(data["event"])
    except (KeyError, TypeError, ValueError, AttributeError):
        raise EventRefused([reason("bad_event_file", field="event")]) from None
    lang = data.get("lang")
    return event, lang if lang in LANGUAGES else "en"


def to_csv(stored: StoredEvent) -> str:
    """A line per player and table: series, table, seat, name, points, rounds, finished, place
    at the table, tournament points."""
    event = stored.event
    header = [
        "series", "table", "seat", "player", "dealer", "points", "rounds", "finished", "place",
        "tournament_points", "game",
    ]  # fmt: skip
    rows: list[list[Any]] = [header]
    scored = {(s.series, s.table, s.name): s for s in event.scores(unfinished=True)}
    for drawn in event.series:
        for table in drawn.tables:
            for seat, name in enumerate(table.seats, start=1):
                score = scored.get((drawn.number, table.number, name))
                result = table.result
                rows.append([
                    drawn.number, table.number, seat, name,
                    "yes" if seat - 1 == table.first_dealer else "",
                    "" if result is None else result.totals[seat - 1],
                    "" if result is None else result.rounds,
                    "" if result is None else ("yes" if result.finished else "no"),
                    "" if score is None else score.place,
                    "" if score is None else str(score.tournament_points),
                    table.game_id or "",
                ])  # fmt: skip
    return csv_text(rows)
