"""A club's seasons between the pages and API (`routes.py`, `api.py`) and the store: each
operation returns one result type, and each that writes owns its transaction under the club's
row lock (the lock a club night's write takes first too). The rule and its checks are the
engine's (`engine.seasons`); the season's table is worked out from its evenings' standings
whenever it is read, so a round saved at an evening's table moves the season with no write of
its own. A season that counts the club's ordinary games reads each day's finished games as a
club night of its own (`GameDay`, `engine.seasons.day_of_games`).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import groupby
from typing import Any, ClassVar

from referee.engine.errors import GameRefused, Reason, reason
from referee.engine.events import Event
from referee.engine.seasons import (
    Evening,
    Placing,
    PlayedGame,
    Season,
    SeasonTable,
    day_of_games,
    season_table,
)
from referee.web.clubs import service as clubs_service
from referee.web.clubs.store import ClubNotFound
from referee.web.plumbing.database import database

from . import store
from .store import StoredEvening, StoredGame, StoredSeason


@dataclass(frozen=True)
class Created:
    stored: StoredSeason


@dataclass(frozen=True)
class Changed:
    stored: StoredSeason


@dataclass(frozen=True)
class Deleted:
    season_id: str


@dataclass(frozen=True)
class Stale:
    """The writer saw `version`; the season has moved on (a 409): nothing kept."""

    version: int
    current: StoredSeason

    code: ClassVar[str] = "stale_season_version"

    @property
    def params(self) -> dict[str, int]:
        return {"version": self.version, "current": self.current.version}


@dataclass(frozen=True)
class SeasonMissing:
    code: ClassVar[str] = "season_not_found"


#: Refused (every reason, nothing kept), no such club and a write without the club's edit
#: token are what every write under a club comes to: the clubs service's own results.
Refused = clubs_service.Refused
ClubMissing = clubs_service.ClubMissing
Forbidden = clubs_service.Forbidden

Written = Created | Changed | Deleted | Refused | Stale | SeasonMissing | ClubMissing | Forbidden


@dataclass(frozen=True)
class GameDay:
    """The club's ordinary games of one day that a season counts: a club night of their own
    (its column's id is the day's: `games-2026-11-03`)."""

    date: datetime.date
    games: tuple[StoredGame, ...]

    kind: ClassVar[str] = "club_games"

    @property
    def id(self) -> str:
        return f"games-{self.date.isoformat()}"


#: A column of the season's table: a club night, or a day of ordinary club games.
Column = StoredEvening | GameDay


@dataclass(frozen=True)
class Table:
    """A season's table and the columns it counts (in the table's order), the evenings it
    leaves out, and the club's finished ordinary games within its dates (read only when the
    season counts them), counted or left out."""

    stored: StoredSeason
    table: SeasonTable
    counted: tuple[Column, ...]
    left_out: tuple[StoredEvening, ...]
    games: tuple[StoredGame, ...] = ()


# -- reading ----------------------------------------------------------------------------------

of_club = store.of_club
lang_of = store.lang_of


def counting(club_id: str, event_id: str, day: datetime.date) -> list[Table]:
    """The club's seasons that count the evening `event_id` (of `day`), each with its table:
    the room's board shows them between series and at the evening's end."""
    return [
        table_of(stored)
        for stored in of_club(club_id)
        if stored.season.starts <= day <= stored.season.ends and event_id not in stored.left_out
    ]


def load_in(club_id: str, season_id: str) -> StoredSeason | None:
    """The season, when it is of that club (else None: a 404)."""
    stored = store.load(season_id)
    return stored if stored is not None and stored.club_id == club_id else None


def can_edit(club_id: str, token: str | None) -> bool:
    return token is not None and clubs_service.check_token(club_id, token)


def table_of(stored: StoredSeason) -> Table:
    """The season's table as its evenings (and its club games) stand now."""
    season = stored.season
    found = store.evenings(stored.club_id, season.starts, season.ends)
    played = games_in(stored.club_id, season.starts, season.ends) if season.club_games else []
    return table_with(stored, found, played)


def table_with(
    stored: StoredSeason, found: Sequence[StoredEvening], played: Sequence[StoredGame] = ()
) -> Table:
    """The season's table over `found`, the club's evenings within its dates, and `played`,
    its finished ordinary games within them (counted when the season counts club games)."""
    counted = tuple(e for e in found if e.id not in stored.left_out)
    left_out = tuple(e for e in found if e.id in stored.left_out)
    days = game_days(stored, played)
    columns: list[Evening] = [evening_of(e.id, e.event) for e in counted]
    columns += [day_of_games(day.id, day.date, [_played(g) for g in day.games]) for day in days]
    table = season_table(stored.season, columns)
    by_id: dict[str, Column] = {e.id: e for e in counted} | {day.id: day for day in days}
    shown = tuple(by_id[e.key] for e in table.evenings)
    return Table(stored, table, shown, left_out, tuple(played) if stored.season.club_games else ())


def game_days(stored: StoredSeason, played: Sequence[StoredGame]) -> list[GameDay]:
    """The days of `played` the season counts: none unless it counts club games; a game left
    out or not finished is in none."""
    if not stored.season.club_games:
        return []
    kept = [g for g in played if g.id not in stored.left_out and _finished(g)]
    return [GameDay(day, tuple(of_day)) for day, of_day in groupby(kept, key=lambda g: g.date)]


def _finished(game: StoredGame) -> bool:
    return game.record is not None and game.record.finished


def _played(game: StoredGame) -> PlayedGame:
    record = game.record
    assert record is not None  # only finished games make a day
    return PlayedGame(
        names=tuple(seat.name for seat in record.seats),
        totals=tuple(seat.total for seat in record.seats),
        rounds=max((seat.rounds for seat in record.seats), default=0),
        high_wins=record.high_wins,
    )


def games_in(club_id: str, starts: datetime.date, ends: datetime.date) -> list[StoredGame]:
    """The club's finished ordinary games within those dates, each record as its game is now
    (one kept behind its game is read again)."""
    return [game for game in _as_now(store.games_between(club_id, starts, ends)) if _finished(game)]


def _as_now(found: Sequence[StoredGame]) -> list[StoredGame]:
    """`found` with each record kept behind its game read again from the game."""
    fresh = clubs_service.records_now([game.id for game in found if game.behind])
    return [replace(g, record=fresh[g.id], behind=False) if g.id in fresh else g for g in found]


def evening_of(key: str, event: Event) -> Evening:
    """An evening's standings as a season reads them: every player who scored at a finished
    table, with their tournament points and place."""
    placings = tuple(
        Placing(name=row.name, tournament_points=row.tournament_points, place=row.place)
        for row in event.standings().rows
        if row.series_played
    )
    return Evening(key=key, date=event.date, placings=placings)


def evenings_in(club_id: str, starts: datetime.date, ends: datetime.date) -> list[StoredEvening]:
    """The club's evenings within those dates (the form lists them to leave one out)."""
    return store.evenings(club_id, starts, ends)


# -- writing ----------------------------------------------------------------------------------


def create(club_id: Any, token: str | None, fields: Mapping[str, Any]) -> Written:
    """A new season in the club (the club's edit token)."""
    if not isinstance(club_id, str) or clubs_service.load(club_id) is None:
        return ClubMissing()
    if not can_edit(club_id, token):
        return Forbidden("missing_club_token" if token is None else "bad_club_token")
    try:
        with database().writing() as conn:
            clubs_service.lock_on(conn, club_id)
            season, left_out = _read(conn, club_id, fields)
            return Created(store.insert_season(conn, club_id, season, left_out))
    except ClubNotFound:
        return ClubMissing()
    except GameRefused as refused:
        return Refused(refused.reasons)


def change(
    club_id: Any,
    season_id: Any,
    token: str | None,
    fields: Mapping[str, Any],
    *,
    version: int | None = None,
) -> Written:
    """The season's name, dates, rule or evenings left out: what `fields` names, the rest kept."""

    def act(conn: Any, stored: StoredSeason) -> Written:
        merged = {**store.fields(stored.season, stored.left_out), **fields}
        merged["left_out"] = _still_within(conn, stored, merged)
        season, left_out = _read(conn, stored.club_id, merged)
        return Changed(store.save(conn, stored, season, left_out))

    return _write(club_id, season_id, token, version, act)


def delete(
    club_id: Any, season_id: Any, token: str | None, *, version: int | None = None
) -> Written:
    """The season gone (its evenings stay as they are)."""

    def act(conn: Any, stored: StoredSeason) -> Written:
        store.remove(conn, stored.id)
        return Deleted(stored.id)

    return _write(club_id, season_id, token, version, act)


def _write(
    club_id: Any, season_id: Any, token: str | None, version: int | None, act: Any
) -> Written:
    # The token is asked first: a call without the club's token learns nothing, not even
    # whether the season is there (one deleted a moment ago is a 403 to it, not a 404).
    if not isinstance(club_id, str) or not can_edit(club_id, token):
        return Forbidden("missing_club_token" if token is None else "bad_club_token")
    if not isinstance(season_id, str) or load_in(club_id, season_id) is None:
        return SeasonMissing()
    try:
        with database().writing() as conn:
            clubs_service.lock_on(conn, club_id)
            stored = store.read(conn, season_id, lock=True)
            if stored is None:
                return SeasonMissing()
            if version is not None and version != stored.version:
                return Stale(version, stored)
            result: Written = act(conn, stored)
            return result
    except ClubNotFound:
        return SeasonMissing()
    except GameRefused as refused:
        return Refused(refused.reasons)


def _still_within(conn: Any, stored: StoredSeason, fields: Mapping[str, Any]) -> Any:
    """The evenings left out, less those the season's old dates held and its new ones do not
    (narrowing the dates drops them; an id the club never had in them is still refused)."""
    left_out = fields.get("left_out")
    first = _read_date(fields.get("starts"), "starts", [])
    last = _read_date(fields.get("ends"), "ends", [])
    if not isinstance(left_out, list) or first is None or last is None:
        return left_out  # _read says what is wrong
    old = _ids_within(conn, stored.club_id, stored.season.starts, stored.season.ends)
    now = _ids_within(conn, stored.club_id, first, last)
    return [i for i in left_out if not isinstance(i, str) or i in now or i not in old]


def _ids_within(conn: Any, club_id: str, starts: datetime.date, ends: datetime.date) -> set[str]:
    """The ids a season of those dates may leave out: its evenings and its ordinary games."""
    evenings = store.evenings_on(conn, club_id, starts, ends)
    return {e.id for e in evenings} | {g.id for g in store.games_on(conn, club_id, starts, ends)}


def _read(conn: Any, club_id: str, fields: Mapping[str, Any]) -> tuple[Season, list[str]]:
    """The season `fields` describe, checked against the club's evenings (and games) in its
    dates; GameRefused with every reason."""
    reasons: list[Reason] = []
    starts = _read_date(fields.get("starts"), "starts", reasons)
    ends = _read_date(fields.get("ends"), "ends", reasons)
    found = store.evenings_on(conn, club_id, starts, ends) if starts and ends else []
    played = _as_now(store.games_on(conn, club_id, starts, ends)) if starts and ends else []
    wanted = _left_out(fields.get("left_out") or [], found, played, reasons)
    try:
        season = Season.create(
            name=fields.get("name"),
            starts=starts,
            ends=ends,
            rule=fields.get("rule", "sum"),
            best=fields.get("best"),
            min_evenings=fields.get("min_evenings"),
            club_games=fields.get("club_games", False),
            evenings=sum(e.id not in wanted for e in found),
            game_days=len({g.date for g in played if g.id not in wanted and _finished(g)}),
        )
    except GameRefused as refused:
        raise GameRefused([*reasons, *refused.reasons]) from None
    if reasons:
        raise GameRefused(reasons)
    return season, sorted(wanted)


def _left_out(
    left_out: Any,
    found: Sequence[StoredEvening],
    played: Sequence[StoredGame],
    reasons: list[Reason],
) -> set[str]:
    """The ids to leave out, each an evening or an ordinary game within the dates (a reason
    for the first that is not)."""
    within = {e.id for e in found} | {g.id for g in played}
    wanted = [i for i in left_out if isinstance(i, str)]
    strays = [i for i in wanted if i not in within]
    if strays or len(wanted) != len(left_out):
        stray = strays[0] if strays else next(i for i in left_out if not isinstance(i, str))
        reasons.append(reason("not_a_season_evening", field="left_out", event=str(stray)[:40]))
    return set(wanted)


def _read_date(value: Any, field: str, reasons: list[Reason]) -> datetime.date | None:
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        reasons.append(reason("bad_season_date", field=field, date=str(value)[:20]))
        return None


def club_exists(club_id: str) -> bool:
    return clubs_service.load(club_id) is not None


def club_version(club_id: str) -> int | None:
    """What the club's stream tells (the season page follows it: a round saved at an
    evening's table tells the club, and the season moves with it)."""
    return clubs_service.live_version(club_id)
