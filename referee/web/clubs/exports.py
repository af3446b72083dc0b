"""A club out and back in: SPEC's JSON (`GET /api/v1/clubs/<id>` and `…/stats`) built by the
models of `schemas.py`, the club as a file (JSON with every game's rounds, `schemas.ClubFile`;
CSV with a line per player and game), and a club file read and checked for an import (the
service keeps it, in one transaction)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from referee.engine.club import Club, Ledger
from referee.engine.errors import GameRefused, Reason, reason
from referee.engine.game import Game, Step
from referee.engine.ratings import DEFAULT
from referee.web.core.languages import supported
from referee.web.core.spreadsheets import csv_text
from referee.web.games import queries as game_queries
from referee.web.games.exports import read_export, results_json
from referee.web.jsonapi.schemas import Problem, Unreadable, read
from referee.web.vocabulary.messages import describe_reason

from . import schemas
from .links import view_url
from .presenting import ClubView
from .store import StoredClub

# -- SPEC's JSON ------------------------------------------------------------------------------


def club_answer(club: StoredClub) -> schemas.ClubAnswer:
    """The club in the shape of GET /api/v1/clubs/<id> (SPEC.md), without its games."""
    return schemas.ClubAnswer(
        id=club.id,
        name=club.name,
        lang=club.lang,
        members=list(club.members),
        games=[],
        version=club.version,
        view_url=view_url(club.id, external=True),
    )


def club_json(club: StoredClub, lines: list[dict[str, Any]]) -> dict[str, Any]:
    """GET /api/v1/clubs/<id>'s answer with the games' lines as kept: each made by
    `schemas.ClubGame` when its game was written, so 500 lines are not made again per read."""
    return {**club_answer(club).model_dump(mode="json"), "games": lines}


def stats_answer(view: ClubView) -> schemas.ClubStats:
    """The stats in the shape of GET /api/v1/clubs/<id>/stats (SPEC.md), plus head to head."""
    ratings = view.ratings
    return schemas.ClubStats(
        club=view.club.id,
        variant=view.variant,
        players=[
            schemas.PlayerStats.of(stats, ratings.get(stats.name, DEFAULT)) for stats in view.stats
        ],
        head_to_head=[
            schemas.HeadToHead(player=a, opponent=b, ahead=m.ahead, behind=m.behind, level=m.level)
            for (a, b), m in sorted(view.meetings.items())
        ],
    )


# -- the club as a file -----------------------------------------------------------------------


def club_file(club: StoredClub, ledger: Ledger) -> schemas.ClubFile:
    """Everything needed to make the club again: members, and every game's rounds."""
    loaded = {
        stored.id: stored for stored in game_queries.load_many([g.game_id for g in ledger.games])
    }
    games = []
    for kept in ledger.games:
        stored = loaded.get(kept.game_id)
        if stored is None or kept.record is None:
            continue
        played = stored.game
        games.append(
            schemas.FileGame(
                id=kept.game_id,
                date=schemas.utc_text(kept.played_at),
                variant=played.variant.id,
                house_rules=dict(played.house_rules),
                players=list(played.players),
                first_dealer=played.players[played.first_dealer],
                lang=stored.lang,
                rounds=[
                    {"round": r.number, "results": results_json(played, r)} for r in played.rounds
                ],
                totals=dict(zip(played.players, played.standings.totals, strict=True)),
                finished=kept.record.finished,
                winners=list(kept.record.winners),
            )
        )
    return schemas.ClubFile.of(club.name, club.lang, club.created_at, club.members, games)


CSV_COLUMNS: Final = (
    "date", "game", "variant", "finished", "player", "total", "place", "won", "rounds",
    "rounds_out",
)  # fmt: skip


def to_csv(ledger: Ledger) -> str:
    """A line per player and game, oldest game first: for a spreadsheet."""
    rows: list[Sequence[Any]] = [CSV_COLUMNS]
    for game in ledger.games:
        record = game.record
        if record is None:
            continue
        date = schemas.utc_text(game.played_at)
        rows.extend(
            (date, game.game_id, game.variant, int(record.finished), seat.name, seat.total,
             seat.place, int(seat.won), seat.rounds, seat.rounds_out)
            for seat in record.seats
        )  # fmt: skip
    return csv_text(rows)


# -- a club file read back --------------------------------------------------------------------


@dataclass(frozen=True)
class FiledGame:
    """A game of a club file, read and checked: as it started, the steps of its rounds, its
    language and its date in the club."""

    start: Game
    steps: tuple[Step, ...]
    lang: str
    played_at: datetime

    @property
    def game(self) -> Game:
        return self.steps[-1].game if self.steps else self.start


@dataclass(frozen=True)
class ClubFileRead:
    """A club file read and checked, nothing kept: the club with every member (the file's,
    then each game's newcomers), its language, and its games in the file's order."""

    club: Club
    lang: str
    games: tuple[FiledGame, ...]


def _bad(field: str, **params: Any) -> GameRefused:
    return GameRefused([reason("bad_club_import", field=field, **params)])


def _bad_game(number: int, said: Reason) -> GameRefused:
    text = describe_reason(said)
    return GameRefused([reason("bad_club_game", field="games", game=number, reason=text)])


def _unreadable(problem: Problem) -> GameRefused:
    where = problem.where
    if where[:1] == ("games",) and len(where) > 1 and isinstance(where[1], int):
        return _bad_game(where[1] + 1, reason("bad_import", field="data"))
    return _bad(str(where[0]) if where[:1] in (("games",), ("members",)) else "data")


def _played_at(value: str | None, fallback: datetime) -> datetime:
    if value is None:
        return fallback
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return fallback
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def read_club_file(data: Any, *, lang: str) -> ClubFileRead:
    """A club file read and checked, every game entered again by the engine: GameRefused says
    what does not read (the game it is about in `game`, counted from 1)."""
    if not isinstance(data, dict) or data.get("format") != schemas.FORMAT:
        raise _bad("data")
    try:
        read_file = read(schemas.ClubFile, data)
    except Unreadable as unreadable:
        raise _unreadable(unreadable.problems[0]) from None
    try:
        club = Club.found(read_file.name, read_file.members)
    except GameRefused as refused:
        raise _bad("members" if refused.reasons[0].field == "members" else "data") from None
    now = datetime.now(UTC)
    games: list[FiledGame] = []
    for number, entry in enumerate(read_file.games, start=1):
        try:
            start, steps, game_lang = read_export(entry.game_export(), lang=lang)
        except GameRefused as refused:
            raise _bad_game(number, refused.reasons[0]) from None
        fallback = now + timedelta(microseconds=number)
        games.append(FiledGame(start, tuple(steps), game_lang, _played_at(entry.date, fallback)))
    everyone = [name for game in games for name in game.start.players]
    if not club.can_file(everyone):  # every game's newcomers, as filing them one by one would
        raise _bad("members")
    return ClubFileRead(club.file(everyone).club, supported(read_file.lang) or lang, tuple(games))
