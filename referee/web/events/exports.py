"""An evening as files: its JSON (the engine's own document, read back only through
`Event.from_json`, with the id, club, language and standings around it) and its CSV, a line per
player and table in the evening's language, through the codebase's one CSV writer
(`core.spreadsheets`: no formula gets through)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Final

from flask_babel import gettext

from referee.engine.errors import EventRefused, reason
from referee.engine.events import Event
from referee.web.core.languages import LANGUAGES
from referee.web.core.spreadsheets import csv_text
from referee.web.plumbing.formats import decimal_sign
from referee.web.plumbing.i18n import in_language

from .presenting import points_text
from .store import StoredEvent

#: What an evening's file says it is.
FORMAT: Final = "rummy-referee-event"


def event_file(stored: StoredEvent) -> dict[str, Any]:
    """The evening as a file: everything it is, which club and games it belongs to, and its
    standings (each player's place: final once every table finished)."""
    event = stored.event
    return {
        "format": FORMAT,
        "version": 1,
        "id": stored.id,
        "club": stored.club_id,
        "lang": stored.lang,
        "event": event.to_json(),
        "final": event.finished,
        "standings": [
            {
                "place": row.place,
                "name": row.name,
                "tournament_points": str(row.tournament_points),
                "points": row.points,
                "rounds": row.rounds,
                "tables_won": row.tables_won,
                "present": row.present,
                "series": {str(s.series): str(s.tournament_points) for s in row.scores},
            }
            for row in event.standings(unfinished=True).rows
        ],
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


def _points_cell(value: Fraction) -> int | str:
    """Tournament points as a cell: a whole number stays a number; a shared place's share is
    written with the language's decimal sign ("1,5"), never as a fraction ("3/2" reads as a
    date)."""
    return int(value) if value.denominator == 1 else points_text(value)


@in_language
def to_csv(stored: StoredEvent, lang: str) -> str:
    """A line per player and table, in `lang` (its headers and words, its decimal sign, and
    ";" between cells where the decimal sign is a comma, as its spreadsheets read CSV): series,
    table, seat, player, dealer, points, rounds, finished, place at the table, tournament
    points, the player's place in the evening (final once every table finished), game."""
    event = stored.event
    header = [
        gettext("Series no."), gettext("Table"), gettext("Seat"), gettext("Player"),
        gettext("Deals first"), gettext("Points"), gettext("Rounds"), gettext("Table finished"),
        gettext("Place at the table"), gettext("Tournament points"),
        gettext("Final place") if event.finished else gettext("Place in the evening"),
        gettext("Game"),
    ]  # fmt: skip
    rows: list[list[Any]] = [header]
    scored = {(s.series, s.table, s.name): s for s in event.scores(unfinished=True)}
    places = {row.name: row.place for row in event.standings(unfinished=True).rows}
    yes, no = gettext("yes"), gettext("no")
    for drawn in event.series:
        for table in drawn.tables:
            for seat, name in enumerate(table.seats, start=1):
                score = scored.get((drawn.number, table.number, name))
                result = table.result
                rows.append([
                    drawn.number, table.number, seat, name,
                    yes if seat - 1 == table.first_dealer else "",
                    "" if result is None else result.totals[seat - 1],
                    "" if result is None else result.rounds,
                    "" if result is None else (yes if result.finished else no),
                    "" if score is None else score.place,
                    "" if score is None else _points_cell(score.tournament_points),
                    places.get(name, ""),
                    table.game_id or "",
                ])  # fmt: skip
    delimiter = ";" if decimal_sign() == "," else ","
    return csv_text(rows, delimiter=delimiter)
