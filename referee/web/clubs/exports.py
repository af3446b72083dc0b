"""A club out and back in: SPEC's JSON (`GET /api/v1/clubs/<id>` and `…/stats`), the club as
a file (JSON with every game's rounds; CSV with a line per player and game), and importing
such a JSON file as a new club."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from referee.engine.game import GameRefused, name_key, reason
from referee.engine.ratings import DEFAULT, Rating
from referee.engine.records import PlayerStats
from referee.web.core.languages import LANGUAGES
from referee.web.games import queries as game_queries
from referee.web.games import service as games_service
from referee.web.games.exports import read_export, results_json
from referee.web.messages import describe_reason

from . import store
from .board import GameLine
from .links import view_url
from .presenting import ClubView
from .store import ClubGame, StoredClub

JSON = dict[str, Any]
#: What a club file says it is.
FORMAT: Final = "rummy-referee-club"
#: The most games one import brings in.
MAX_IMPORTED_GAMES: Final = 2000


def _date(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def club_game_json(game: GameLine) -> JSON:
    winners = list(game.winners)
    return {
        "id": game.game_id,
        "variant": game.variant,
        "players": list(game.players),
        "finished": game.finished,
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "date": _date(game.played_at),
    }


def club_json(club: StoredClub, games: Sequence[GameLine]) -> JSON:
    """The club in the shape of GET /api/v1/clubs/<id> (SPEC.md)."""
    return {
        "id": club.id,
        "name": club.name,
        "lang": club.lang,
        "members": list(club.members),
        "games": [club_game_json(game) for game in games],
        "version": club.version,
        "view_url": view_url(club.id, external=True),
    }


def rating_json(rating: Rating) -> JSON:
    return {"mu": rating.mu, "sigma": rating.sigma, "ordinal": rating.ordinal}


def player_json(stats: PlayerStats, rating: Rating) -> JSON:
    return {
        "name": stats.name,
        "games": stats.games,
        "finished": stats.finished,
        "wins": stats.wins,
        "win_rate": stats.win_rate,
        "average_round_penalty": stats.average_round,
        "rounds_out": stats.rounds_out,
        "rating": rating_json(rating),
        # beside SPEC's fields: what the club page shows too
        "rounds": stats.rounds,
        "best_round": stats.best,
        "worst_round": stats.worst,
        "longest_streak": stats.longest_streak,
    }


def stats_json(view: ClubView) -> JSON:
    """The stats in the shape of GET /api/v1/clubs/<id>/stats (SPEC.md), plus head to head."""
    ratings = view.ratings
    return {
        "club": view.club.id,
        "variant": view.variant,
        "players": [player_json(stats, ratings.get(stats.name, DEFAULT)) for stats in view.stats],
        "head_to_head": [
            {"player": a, "opponent": b, "ahead": m.ahead, "behind": m.behind, "level": m.level}
            for (a, b), m in sorted(view.meetings.items())
        ],
    }


# -- the club as a file -------------------------------------------------------------------------


def _game_file(game: ClubGame) -> JSON | None:
    stored = game_queries.load(game.game_id)
    if stored is None:
        return None
    played = stored.game
    return {
        "id": game.game_id,
        "date": _date(game.played_at),
        "variant": played.variant.id,
        "house_rules": dict(played.house_rules),
        "players": list(played.players),
        "first_dealer": played.players[played.first_dealer],
        "lang": stored.lang,
        "rounds": [{"round": r.number, "results": results_json(played, r)} for r in played.rounds],
        "totals": dict(zip(played.players, played.standings.totals, strict=True)),
        "finished": game.record.finished,
        "winners": list(game.record.winners),
    }


def club_file(club: StoredClub, games: Sequence[ClubGame]) -> JSON:
    """Everything needed to make the club again: members, and every game's rounds."""
    files = [_game_file(game) for game in games]
    return {
        "format": FORMAT,
        "version": 1,
        "name": club.name,
        "lang": club.lang,
        "created": _date(club.created_at),
        "members": list(club.members),
        "games": [entry for entry in files if entry is not None],
    }


CSV_COLUMNS: Final = (
    "date", "game", "variant", "finished", "player", "total", "place", "won", "rounds",
    "rounds_out",
)  # fmt: skip


def to_csv(games: Sequence[ClubGame]) -> str:
    """A line per player and game, oldest game first: for a spreadsheet."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for game in games:
        record = game.record
        for seat in record.seats:
            writer.writerow(
                [
                    _date(game.played_at),
                    game.game_id,
                    game.variant,
                    int(record.finished),
                    seat.name,
                    seat.total,
                    seat.place,
                    int(seat.won),
                    seat.rounds,
                    seat.rounds_out,
                ]
            )
    return buffer.getvalue()


def _bad(field: str, **params: Any) -> GameRefused:
    return GameRefused([reason("bad_club_import", field=field, **params)])


def _played_at(value: Any, fallback: datetime) -> datetime:
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return fallback
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return fallback


def import_club(data: Any, *, lang: str) -> tuple[StoredClub, str]:
    """A new club (new ids and tokens, for the club and each game) from a club file.

    Every game is read and checked before anything is kept: GameRefused says what does not
    read (the game it is about in `game`, counted from 1).
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise _bad("data")
    name, reasons = store.read_club_name(data.get("name"))
    members, games = data.get("members", []), data.get("games", [])
    if reasons or not isinstance(members, list) or not isinstance(games, list):
        raise _bad("data")
    if not all(isinstance(m, str) for m in members) or len(members) > store.MAX_MEMBERS:
        raise _bad("members")
    try:
        store.check_names(members)
    except GameRefused:
        raise _bad("members") from None
    if len(games) > MAX_IMPORTED_GAMES:
        raise _bad("games")
    read = []
    for number, entry in enumerate(games, start=1):
        try:
            read.append(read_export(entry, lang=lang))
        except GameRefused as refused:
            said = describe_reason(refused.reasons[0])
            raise GameRefused(
                [reason("bad_club_game", field="games", game=number, reason=said)]
            ) from None
    everyone = [*members, *(name for start, _steps, _lang in read for name in start.players)]
    try:
        store.check_names(everyone)
    except GameRefused:
        raise _bad("members") from None
    if len({name_key(name) for name in everyone if isinstance(name, str)}) > store.MAX_MEMBERS:
        raise _bad("members")
    language = data.get("lang") if data.get("lang") in LANGUAGES else lang
    club, token = store.create(name, lang=str(language), members=members)
    now = datetime.now(UTC)
    for number, ((start, steps, game_lang), entry) in enumerate(zip(read, games, strict=True)):
        started = games_service.create(start, lang=game_lang, steps=steps)
        assert isinstance(started, games_service.Created)  # nothing files it: nothing refuses
        played_at = _played_at(entry.get("date"), now + timedelta(microseconds=number))
        club = store.file_game(club.id, started.stored.id, start.players, played_at=played_at)
    store.club_games_of(club.id)  # summed up and rated now, not on the first visit
    return club, token
