"""A restore's last step before it commits: every game, club and club night read back through
the app's own readers (the games', clubs' and evenings' stores, the engine's `Game.restore` and
`Event.from_json`), on the restore's connection, and worked out as their pages work them out
(standings, the next deal, a club's records, ratings and board, an evening's standings). Rows
that the database took but that no page could show (results that are not results, a variant
this version does not know, a language it does not speak) refuse the whole restore, each said
with the game, club or evening it is about.

Rows are also held to what the app itself writes, where a reader would take a crafted one
without a word (issue 34): a game's players a list of names (not a text, whose letters a reader
would take for players), its rounds numbered 1 to n (a round 10¹⁵ is never corrected), a kept
answer a JSON 2xx or a redirect within the site (a replay gives it again as it is), and a club
night's tables naming games of its own club, with the table's seats and rules, and filed for
that table (else its rounds never reach the evening).

Rounds are also entered again, one by one, into a new game of the same table with today's
rules: a round today's rules would refuse is said as a warning, not refused (it was accepted
when it was played, and the game reads).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from typing import Final

from sqlalchemy import Connection, select

from referee.engine.club import read_club_name, read_members
from referee.engine.errors import GameRefused, RefereeError
from referee.engine.events import Event
from referee.engine.game import Game
from referee.engine.names import clean_name
from referee.engine.records import record_of
from referee.engine.seasons import MAX_EVENINGS, Season
from referee.web.backup.reader import BackupError
from referee.web.clubs import board
from referee.web.clubs import store as clubs_store
from referee.web.clubs.models import club_games, clubs
from referee.web.core import ids
from referee.web.core.languages import LANGUAGES
from referee.web.events import store as events_store
from referee.web.events.models import event_games, events
from referee.web.games import queries as game_queries
from referee.web.games.models import games, requests, rounds
from referee.web.seasons import service as seasons_service
from referee.web.seasons import store as seasons_store
from referee.web.seasons.models import seasons

#: The problems named one by one; past that, only counted.
NAMED: Final = 10


class Unreadable(BackupError):
    """Rows that were restored but that the app cannot read back: every problem found."""

    def __init__(self, problems: list[str], checked: int) -> None:
        self.problems = problems
        listed = "\n".join(f"  {problem}" for problem in problems[:NAMED])
        more = len(problems) - NAMED
        tail = f"\n  ... and {more} more" if more > 0 else ""
        super().__init__(
            f"{len(problems)} of the {checked} games, clubs and club nights in the backup "
            "cannot be read "
            f"back, nothing was restored:\n{listed}{tail}"
        )


def read_back(conn: Connection) -> list[str]:
    """Read every game and club on `conn`; Unreadable with every problem, else the warnings."""
    problems: list[str] = []
    warnings: list[str] = []
    checked = 0
    for game_id, read in game_queries.read_back(conn):
        _checked(problems, f"game {game_id}", partial(_game, conn, game_id, read, warnings))
        checked += 1
    problems += _kept_answers(conn)
    club_ids = conn.execute(select(clubs.c.id).order_by(clubs.c.id)).scalars().all()
    for club_id in club_ids:
        _checked(problems, f"club {club_id}", partial(_club, conn, club_id))
    event_ids = conn.execute(select(events.c.id).order_by(events.c.id)).scalars().all()
    for event_id in event_ids:
        _checked(problems, f"club night {event_id}", partial(_event, conn, event_id))
    season_ids = conn.execute(select(seasons.c.id).order_by(seasons.c.id)).scalars().all()
    for season_id in season_ids:
        _checked(problems, f"season {season_id}", partial(_season, conn, season_id))
    if problems:
        raise Unreadable(problems, checked + len(club_ids) + len(event_ids) + len(season_ids))
    return warnings


def _checked(problems: list[str], what: str, check: Callable[[], None]) -> None:
    try:
        check()
    except _Problem as problem:
        problems.append(f"{what}: {problem}")
    except (RefereeError, ArithmeticError, LookupError, TypeError, ValueError, AttributeError) as e:
        # Whatever a reader trips on is what a page would trip on: a 500 for every visitor.
        problems.append(f"{what} does not read: {_said(e)}")


class _Problem(Exception):
    """One thing wrong with a game or club, in words."""


def _said(error: Exception) -> str:
    if isinstance(error, GameRefused):
        return ", ".join(reason.code for reason in error.reasons)
    if isinstance(error, RefereeError):
        params = ", ".join(f"{key} {value!r}" for key, value in error.params.items())
        return f"{error.code} ({params})" if params else error.code
    return f"{type(error).__name__}: {error}"


def _game(
    conn: Connection,
    game_id: str,
    read: Callable[[], game_queries.Readback],
    warnings: list[str],
) -> None:
    _as_written(conn, game_id)
    stored, history = read()
    if stored.lang not in LANGUAGES:
        raise _Problem(f"its language {stored.lang!r} is not one of {', '.join(LANGUAGES)}")
    game = stored.game
    if not all(
        isinstance(name, str) and name and clean_name(name) == name for name in game.players
    ):
        raise _Problem("its players' names are not names a table can have")
    if not 0 <= game.first_dealer < len(game.players):
        raise _Problem(f"its first dealer, seat {game.first_dealer}, is not at the table")
    for number, entered in enumerate(game.rounds, start=1):
        if len(entered.results) != len(game.players):
            raise _Problem(f"round {number} has {len(entered.results)} results for "
                           f"{len(game.players)} players")  # fmt: skip
    if game.version < len(history):
        raise _Problem(f"its version {game.version} is older than its {len(history)} changes")
    # What every page of the game works out.
    game.running_totals()
    _ = game.standings, game.winners
    if game.next_round is not None:
        game.deal(game.next_round)
    record_of(game)
    _rules_of_today(game_id, game, warnings)


def _as_written(conn: Connection, game_id: str) -> None:
    """The game's rows as the app writes them, where a reader would take another shape."""
    row = conn.execute(
        select(games.c.players, games.c.house_rules).where(games.c.id == game_id)
    ).one()
    if not isinstance(row.players, list) or not all(isinstance(p, str) for p in row.players):
        raise _Problem(f"its players {_short(row.players)} are not a list of names")
    if not isinstance(row.house_rules, dict):
        raise _Problem(f"its house rules {_short(row.house_rules)} are not an object")
    numbers = (
        conn.execute(
            select(rounds.c.number).where(rounds.c.game_id == game_id).order_by(rounds.c.number)
        )
        .scalars()
        .all()
    )
    if list(numbers) != list(range(1, len(numbers) + 1)):
        said = ", ".join(str(n) for n in numbers[:6]) + (", ..." if len(numbers) > 6 else "")
        raise _Problem(f"its rounds are numbered {said}, not 1 to {len(numbers)}")


def _short(value: object) -> str:
    said = repr(value)
    return said if len(said) <= 40 else said[:39] + "…"


#: What a kept answer to a keyed write is: the API's JSON, or a form's redirect (games.store).
_KEPT_STATUSES: Final = range(200, 300)
_REDIRECTS: Final = frozenset({301, 302, 303, 307, 308})


def _kept_answers(conn: Connection) -> list[str]:
    """Every kept answer (game_requests) that a replay could not give as the app gave it."""
    problems: list[str] = []
    for row in conn.execute(select(requests).order_by(requests.c.game_id, requests.c.key)):
        what = f"game {row.game_id}: the answer kept for key {row.key[:40]!r}"
        if row.status in _REDIRECTS:
            local = isinstance(row.location, str) and row.location.startswith("/")
            if not local or row.location.startswith("//") or "\\" in row.location or row.body:
                problems.append(f"{what} is a redirect off the site or with a body")
        elif row.status in _KEPT_STATUSES:
            if row.content_type != "application/json" or not _json(row.body):
                problems.append(f"{what} is {_short(row.content_type)}, not JSON")
        else:
            problems.append(f"{what} has the status {row.status}, not one this app answers")
    return problems


def _json(text: str | None) -> bool:
    try:
        json.loads(text or "")
    except ValueError:
        return False
    return True


def _rules_of_today(game_id: str, game: Game, warnings: list[str]) -> None:
    number = 0
    try:
        replay = Game.start(game.variant.id, game.players, house_rules=game.house_rules or None,
                            first_dealer=game.first_dealer)  # fmt: skip
        for number, entered in enumerate(game.rounds, start=1):
            replay = replay.enter_round(number, entered.results).game
    except GameRefused as refused:
        where = f"round {number}" if number else "its start"
        said = _said(refused)
        warnings.append(f"game {game_id}, {where}: today's rules would refuse it ({said})")


def _club(conn: Connection, club_id: str) -> None:
    club, ledger, kept_board = clubs_store.read_back(conn, club_id)
    if club is None:
        raise _Problem("is gone")
    if read_club_name(club.name) != (club.name, []):
        raise _Problem(f"its name {club.name!r} is not a club's name")
    if club.lang not in LANGUAGES:
        raise _Problem(f"its language {club.lang!r} is not one of {', '.join(LANGUAGES)}")
    if read_members(list(club.members)) != (club.members, []):
        raise _Problem("its members' names are not names a table can have")
    if kept_board is not None:
        board.from_json(kept_board)
    board.build_board(ledger)


def _event(conn: Connection, event_id: str) -> None:
    """A club night as its pages read it: its state through the engine's reader (which checks
    its settings as a new evening's), of its row's version, in a language we speak, its
    standings worked out."""
    stored = events_store.read(conn, event_id)
    if stored is None:
        raise _Problem("is gone")
    version = events_store.version_on(conn, event_id)
    if version != stored.event.version:
        raise _Problem(f"its version {version} is not its state's ({stored.event.version})")
    if stored.lang not in LANGUAGES:
        raise _Problem(f"its language {stored.lang!r} is not one of {', '.join(LANGUAGES)}")
    _tables_games(conn, event_id, stored.club_id, stored.event)
    stored.event.standings(unfinished=True)


def _season(conn: Connection, season_id: str) -> None:
    """A season as the engine would make it (its name, dates and rule, whatever evenings it
    counts), leaving out only ids, and its table worked out from the evenings restored."""
    stored = seasons_store.read(conn, season_id)
    if stored is None:
        raise _Problem("it does not read")
    season = stored.season
    Season.create(
        name=season.name,
        starts=season.starts,
        ends=season.ends,
        rule=season.rule.value,
        best=season.best,
        min_evenings=season.min_evenings,
        club_games=season.club_games,
        evenings=MAX_EVENINGS,
    )
    if not all(isinstance(i, str) and ids.valid_id(i) for i in stored.left_out):
        raise _Problem("the evenings and games it leaves out are not ids")
    found = seasons_store.evenings_on(conn, stored.club_id, season.starts, season.ends)
    played = seasons_store.games_on(conn, stored.club_id, season.starts, season.ends)
    seasons_service.table_with(stored, found, played)


def _tables_games(conn: Connection, event_id: str, club_id: str, event: Event) -> None:
    """Each table's game is a game of the evening's club, of the table's seats and rules, and
    filed for that table; no game is filed for a table the evening does not have."""
    filed = {
        row.game_id: (row.event_id, row.series, row.table_number)
        for row in conn.execute(select(event_games).where(event_games.c.event_id == event_id))
    }
    named: set[str] = set()
    for drawn in event.series:
        for table in drawn.tables:
            if table.game_id is None:
                continue
            where = f"series {drawn.number}, table {table.number}"
            named.add(table.game_id)
            stored = game_queries.read(conn, table.game_id)
            if stored is None:
                raise _Problem(f"{where} names game {table.game_id}, which the backup lacks")
            club_of_game = conn.execute(
                select(club_games.c.club_id).where(club_games.c.game_id == table.game_id)
            ).scalar()
            if club_of_game != club_id:
                raise _Problem(f"{where} names game {table.game_id}, not a game of its club")
            if filed.get(table.game_id) != (event_id, drawn.number, table.number):
                raise _Problem(f"{where}: its game {table.game_id} is not filed for it")
            event.result_of_game(drawn.number, table.number, stored.game)  # seats, rules
    if set(filed) - named:
        stray = sorted(set(filed) - named)[0]
        raise _Problem(f"game {stray} is filed for a table the evening does not have")
