"""A series' clock on the pages: what a clock shows (the board: the series' own time; a table's
phone: its own, with its extra minutes), its one fragment that a page asks for again when its
count reaches zero (the server then says the time is up: no timer runs here), and the host's
pause, resume, extra minutes and the minutes of the series not started yet.

Every clock part carries the deadline (UTC) and the server's now; app.js counts down from the
difference, so a phone's own clock may be off by any amount (SPEC.md, the clock).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, render_template, request, url_for
from flask.typing import ResponseReturnValue

from referee.engine.events import Event
from referee.engine.series_clock import ClockRule
from referee.web.core import clock as web_clock
from referee.web.plumbing.numbers import plain_count

from . import bp, service
from .access import editable_event, event_or_404
from .routes import _after, _version
from .store import AtTable


def left_text(seconds: int) -> str:
    """12:05, or 1:02:05 past an hour (what the page's count shows, and without JS)."""
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _moment(value: datetime.datetime | None) -> str:
    return "" if value is None else value.isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class ClockView:
    """A clock as a page shows it: the series' own (`table` None) or one table's."""

    club_id: str
    event_id: str
    series: int
    table: int | None
    rule: ClockRule
    paused: bool
    ends_at: str  # empty while paused or once the time is up: nothing to count
    now: str
    seconds_left: int
    time_up: bool
    extra: tuple[tuple[int, int], ...]  # (table, minutes) given
    last_round: int | None  # a table's, once its time is up
    next_round: int  # a table's round in progress
    finished: bool  # a table's series is over

    @property
    def left(self) -> str:
        return left_text(self.seconds_left)

    @property
    def one_more(self) -> bool:
        """A table's time is up and the round in progress is not its last."""
        return self.last_round is not None and self.next_round < self.last_round

    @property
    def url(self) -> str:
        return url_for(
            "events.clock_part",
            club_id=self.club_id,
            event_id=self.event_id,
            series=self.series,
            table=self.table,
        )


def clock_view(
    club_id: str,
    event_id: str,
    event: Event,
    number: int,
    table: int | None = None,
    *,
    written: int | None = None,
    now: datetime.datetime | None = None,
) -> ClockView | None:
    """Series `number`'s clock (None: it has none), for one `table` (with `written` rounds)."""
    drawn = event.series_of(number)
    clock = None if drawn is None else drawn.clock
    if drawn is None or clock is None:
        return None
    at = now or web_clock.now()
    found = None if table is None else next((t for t in drawn.tables if t.number == table), None)
    if written is None:
        written = 0 if found is None or found.result is None else found.result.rounds
    left = clock.seconds_left(at, table)
    last = None if table is None else event.last_round(number, table, written, at)
    return ClockView(
        club_id=club_id,
        event_id=event_id,
        series=number,
        table=table,
        rule=clock.rule,
        paused=clock.paused,
        ends_at="" if clock.paused or left == 0 else _moment(clock.ends_at(table)),
        now=_moment(at),
        seconds_left=left,
        time_up=left == 0,
        extra=clock.extra,
        last_round=last,
        next_round=written + 1,
        finished=found is not None and found.finished,
    )


def running_clock(club_id: str, event_id: str, event: Event) -> ClockView | None:
    """The clock the board shows: the newest series', once it started and while it plays."""
    newest = event.series[-1] if event.series else None
    if newest is None or not newest.started or newest.finished:
        return None
    return clock_view(club_id, event_id, event, newest.number)


@bp.app_context_processor
def table_clock_context() -> dict[str, object]:
    """A table's round screen shows its own clock (templates/events/_table_clock.html) without
    the games package importing this one."""

    def table_clock(at_table: AtTable, written: int) -> ClockView | None:
        return clock_view(
            at_table.club_id,
            at_table.event_id,
            at_table.event,
            at_table.series,
            at_table.table,
            written=written,
        )

    return {"table_clock": table_clock}


@bp.context_processor
def clocks_context() -> dict[str, object]:
    def series_clock(club_id: str, event_id: str, event: Event, number: int) -> Any:
        return clock_view(club_id, event_id, event, number)

    return {"series_clock": series_clock, "running_clock": running_clock}


@bp.get("/clubs/<club_id>/events/<event_id>/clock")
def clock_part(club_id: str, event_id: str) -> ResponseReturnValue:
    """One clock, drawn again (`?series=`, `?table=`): what a page asks for when its count
    reaches zero, or a phone every so often (a pause or extra minutes meanwhile)."""
    stored = event_or_404(club_id, event_id)
    number = plain_count(request.args.get("series", ""))
    asked = request.args.get("table")
    table = None if asked is None else plain_count(asked)
    if number is None or (asked is not None and table is None):
        abort(400)
    drawn = stored.event.series_of(number)
    if drawn is None or (table is not None and not 1 <= table <= len(drawn.tables)):
        abort(404)
    view = clock_view(stored.club_id, stored.id, stored.event, number, table)
    if view is None:
        return Response(status=204)
    response = Response(render_template("events/_clock.html", clock=view, big=table is None))
    response.cache_control.no_cache = True
    response.vary.add("HX-Request")
    return response


@bp.post("/clubs/<club_id>/events/<event_id>/edit/<token>/clock")
def clock(club_id: str, event_id: str, token: str) -> ResponseReturnValue:
    """The host pauses or resumes the running series' clock, gives one table extra minutes,
    or sets the minutes of the series not started yet."""
    stored = editable_event(club_id, event_id, token)
    form = request.form
    action = form.get("action", "")
    minutes_sent = form.get("minutes", "").strip()
    minutes: Any = None if minutes_sent == "" else _number(minutes_sent)
    if action == "extra" and minutes is None:
        minutes = 0  # nothing typed: refused as no extra time, in words
    table = _number(form.get("table", "")) if action == "extra" else None
    series = plain_count(form.get("series", "")) if form.get("series") else None
    rule = form.get("rule") if form.get("rule") in ("finish_round", "one_more") else None
    result = service.clock(
        club_id, event_id, token, action, series=series, table=table, minutes=minutes,
        rule=rule, version=_version(),
    )  # fmt: skip
    return _after(stored, token, result, "clock")


def _number(sent: str) -> int | str:
    """A whole number as typed (a minus too: the engine refuses it in words), else the text."""
    text = sent.strip()[:10]
    digits = text[1:] if text.startswith("-") else text
    return int(text) if digits.isascii() and digits.isdigit() else text
