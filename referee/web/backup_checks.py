"""A restore's last step before it commits: every game, club and club night read back through
the app's own readers (the games', clubs' and evenings' stores, the engine's `Game.restore` and
`Event.from_json`), on the restore's connection, and worked out as their pages work them out
(standings, the next deal, a club's records, ratings and board, an evening's standings). Rows
that the database took but that no page could show (results that are not results, a variant
this version does not know, a language it does not speak) refuse the whole restore, each said
with the game, club or evening it is about.

Rounds are also entered again, one by one, into a new game of the same table with today's
rules: a round today's rules would refuse is said as a warning, not refused (it was accepted
when it was played, and the game reads).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Final

from sqlalchemy import Connection, select

from referee.engine.club import read_club_name, read_members
from referee.engine.errors import RefereeError
from referee.engine.game import Game, GameRefused, clean_name
from referee.engine.records import record_of

from .backup_reader import BackupError
from .clubs import board
from .clubs import store as clubs_store
from .clubs.models import clubs
from .core.languages import LANGUAGES
from .events import store as events_store
from .events.models import events
from .games import queries as game_queries

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
        _checked(problems, f"game {game_id}", partial(_game, game_id, read, warnings))
        checked += 1
    club_ids = conn.execute(select(clubs.c.id).order_by(clubs.c.id)).scalars().all()
    for club_id in club_ids:
        _checked(problems, f"club {club_id}", partial(_club, conn, club_id))
    event_ids = conn.execute(select(events.c.id).order_by(events.c.id)).scalars().all()
    for event_id in event_ids:
        _checked(problems, f"club night {event_id}", partial(_event, conn, event_id))
    if problems:
        raise Unreadable(problems, checked + len(club_ids) + len(event_ids))
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


def _game(game_id: str, read: Callable[[], game_queries.Readback], warnings: list[str]) -> None:
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
    stored.event.standings(unfinished=True)
