"""The clubs' operations between the pages and API (`routes.py`, `api.py`) and the store: each
returns one result type, and each that writes owns its transaction. The rules are the engine's
(`engine.club`: a club's name and members, filing a game's players, the re-rating); the store
only loads and saves.

What a club keeps of its games (each game's record and ratings, and the board its pages read)
is written in the transaction of the write that changed it, never while a page is read:

- a game started in the club (or the last table again, or a club file imported) is filed in
  the same transaction that keeps the game, under the club's row lock (the member cap holds
  against filings at the same moment);
- a round entered, corrected, undone or restored: `on_game_written`, the receiver of
  `core.signals.game_written`, which the games service sends inside the game's write.

A board that is not of the games as they are (a database restored from an older backup, an
older schema) is worked out for the page in memory and kept by the club's next write or by
`flask clubs refresh`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from sqlalchemy import Connection

from referee.engine.club import CHAINS, Club, Ledger
from referee.engine.errors import GameRefused, Reason, reason
from referee.engine.game import Change, Game
from referee.engine.records import GameRecord, record_of
from referee.web.core import ids, signals
from referee.web.games import queries as game_queries
from referee.web.games import service as games_service
from referee.web.games.queries import StoredGame
from referee.web.plumbing.database import database

from . import exports, schemas, store
from .board import FORMAT as BOARD_FORMAT
from .board import Board, build_board, from_json, key_of, to_json
from .store import ClubNotFound, StoredClub

log = logging.getLogger(__name__)

# -- what an operation comes to ---------------------------------------------------------------


@dataclass(frozen=True)
class Founded:
    """A new club (founded, or imported from a file) and its edit token."""

    club: StoredClub
    token: str


@dataclass(frozen=True)
class GameFiled:
    """A new game kept and filed in the club, and the game's own edit token."""

    club: StoredClub
    game: StoredGame
    token: str


@dataclass(frozen=True)
class MembersAdded:
    club: StoredClub
    joined: tuple[str, ...]  # the names that were not members yet


@dataclass(frozen=True)
class Refused:
    """Nothing kept: every reason (each with the field it is about)."""

    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class ClubMissing:
    """No club by that id (a 404)."""

    code: ClassVar[str] = "club_not_found"


@dataclass(frozen=True)
class Forbidden:
    """No edit token of the club (`missing_club_token`) or not the club's (`bad_club_token`)."""

    code: str


@dataclass(frozen=True)
class NotTheLast:
    """A rematch of a table that is no longer the club's last: someone started another game
    meanwhile (a 409; nothing is started)."""


# -- founding and members ---------------------------------------------------------------------


def found(name: Any, *, lang: str) -> Founded | Refused:
    """A new club without members or games."""
    try:
        club = Club.found(name)
    except GameRefused as refused:
        return Refused(refused.reasons)
    with database().writing() as conn:
        stored, token = store.insert_club(conn, club, lang=lang)
        _keep_up(conn, stored.id, {})
    return Founded(stored, token)


def add_members(club_id: str, names: Any) -> MembersAdded | Refused | ClubMissing:
    """Members added by name (those already in the club are left as they are)."""
    with database().writing() as conn:
        try:
            return add_members_on(conn, club_id, names)
        except ClubNotFound:
            return ClubMissing()


def add_members_on(conn: Connection, club_id: str, names: Any) -> MembersAdded | Refused:
    """`add_members` in the caller's transaction (an evening's check-in), under the club's row
    lock, so the member cap holds. ClubNotFound when there is no such club."""
    stored = store.lock(conn, club_id)
    try:
        joined = stored.club.add(names)
    except GameRefused as refused:
        return Refused(refused.reasons)
    if joined.joined:
        store.insert_members(conn, stored.id, joined.joined)
        stored = store.touch(conn, replace(stored, club=joined.club))
        _tell(conn, stored.id)
    return MembersAdded(stored, joined.joined)


def lock_on(conn: Connection, club_id: str) -> StoredClub:
    """The club, its row locked for the caller's transaction (ClubNotFound if there is none).
    A feature that writes under a club (an evening) takes it first, as a game's write does."""
    return store.lock(conn, club_id)


def file_new_on(
    conn: Connection,
    club_id: str,
    game: Game,
    lang: str,
    *,
    also: Callable[[Connection, StoredGame], None] | None = None,
) -> tuple[StoredGame, str]:
    """A new game kept and filed in the club in the caller's transaction (an evening's tables,
    all in the draw's): the game and its edit token. `also` files it somewhere else too, on the
    same connection. GameRefused (the member cap) is the caller's to roll back."""

    def filing(conn: Connection, stored: StoredGame) -> None:
        club = store.lock(conn, club_id)
        joined = club.club.file(stored.game.players)
        store.insert_members(conn, club_id, joined.joined)
        store.insert_games(conn, club_id, [(stored.id, stored.created_at)])
        store.touch(conn, replace(club, club=joined.club))
        _keep_up(conn, club_id, {stored.id: stored.game})
        if also is not None:
            also(conn, stored)

    return games_service.create_on(conn, game, lang=lang, filing=filing)


# -- games started in the club ----------------------------------------------------------------


def start_game(
    club_id: str,
    *,
    variant: Any,
    players: Any,
    lang: str,
    house_rules: Mapping[str, Any] | None = None,
    first_dealer: Any = None,
) -> GameFiled | Refused | ClubMissing:
    """A new game of the club, its players' names as the club writes them; its newcomers
    become members. Refused with every reason the game cannot start or be filed."""
    club = store.load(club_id)
    if club is None:
        return ClubMissing()
    if isinstance(players, Sequence) and not isinstance(players, str):
        players = club.club.canonical_names(players)
    try:
        game = Game.start(variant, players, house_rules=house_rules, first_dealer=first_dealer)
    except GameRefused as refused:
        return Refused(refused.reasons)
    filed = _file_new(club_id, game, lang)
    assert not isinstance(filed, NotTheLast)  # only a rematch names a last table
    return filed


def file_new_game(
    club_id: Any,
    token: str | None,
    *,
    variant: Any,
    players: Any,
    lang: str,
    house_rules: Mapping[str, Any] | None = None,
    first_dealer: Any = None,
) -> GameFiled | Refused | ClubMissing | Forbidden:
    """`POST /api/v1/games` with `club`: the club's edit token starts a game filed in it (the
    game keeps a token of its own). What the games API calls; it never imports clubs."""
    if not isinstance(club_id, str) or store.load(club_id) is None:
        return ClubMissing()
    if token is None:
        return Forbidden("missing_club_token")
    if not store.check_token(club_id, token):
        return Forbidden("bad_club_token")
    return start_game(
        club_id,
        variant=variant,
        players=players,
        lang=lang,
        house_rules=house_rules,
        first_dealer=first_dealer,
    )


def rematch(club_id: str, shown: str | None) -> GameFiled | Refused | ClubMissing | NotTheLast:
    """The last table again, filed in the club (the engine's rematch: the same players in the
    same seats, variant and house rules; the first deal passes to the next seat). `shown` is
    the game the page showed as the last one: it must still be the club's last."""
    if store.load(club_id) is None:
        return ClubMissing()
    last_id = store.last_game_id(club_id)
    last = None if last_id is None else game_queries.load(last_id)
    if last is None:
        return Refused((reason("no_game_to_rematch"),))
    if last.id != shown:
        return NotTheLast()
    return _file_new(club_id, last.game.rematch(), last.lang, last=last.id)


class _Moved(Exception):
    """The club's last table is no longer the one the page showed."""


def _file_new(
    club_id: str, game: Game, lang: str, *, last: str | None = None
) -> GameFiled | Refused | ClubMissing | NotTheLast:
    """The game kept and filed in one transaction: under the club's row lock, its players
    filed (the member cap checked: GameRefused keeps nothing), its record and the club's
    board kept. `last`: the club's last table must still be that game."""
    filed: list[StoredClub] = []

    def filing(conn: Connection, stored: StoredGame) -> None:
        club = store.lock(conn, club_id)
        if last is not None and store.last_game_id(club_id, conn) != last:
            raise _Moved()
        joined = club.club.file(stored.game.players)
        store.insert_members(conn, club_id, joined.joined)
        store.insert_games(conn, club_id, [(stored.id, stored.created_at)])
        filed.append(store.touch(conn, replace(club, club=joined.club)))
        _keep_up(conn, club_id, {stored.id: stored.game})

    try:
        created = _create(game, lang, filing)
    except ClubNotFound:
        return ClubMissing()
    except _Moved:
        return NotTheLast()
    if isinstance(created, Refused):
        return created
    return GameFiled(filed[0], *created)


def _create(
    game: Game, lang: str, filing: Callable[[Connection, StoredGame], None]
) -> tuple[StoredGame, str] | Refused:
    """The game kept by the games service and filed by `filing` on the same connection, in one
    transaction (GameRefused from `filing`: nothing is kept)."""
    created = games_service.create(game, lang=lang, filing=filing)
    if isinstance(created, games_service.Refused):
        return Refused(created.reasons)
    return created.stored, created.token


# -- a club file in ---------------------------------------------------------------------------


def import_club(data: Any, *, lang: str) -> Founded | Refused:
    """A new club (new ids and tokens, for the club and each game) from a club file: every game
    read and checked first, then the club, its members, its games, their records and ratings
    and its board kept in one transaction (a worker stopped halfway keeps nothing)."""
    try:
        read = exports.read_club_file(data, lang=lang)
    except GameRefused as refused:
        return Refused(refused.reasons)
    with database().writing() as conn:
        stored, token = store.insert_club(conn, read.club, lang=read.lang)
        made = [
            (games_service.create_on(conn, game.start, lang=game.lang, steps=game.steps)[0], game)
            for game in read.games
        ]
        store.insert_games(conn, stored.id, [(kept.id, game.played_at) for kept, game in made])
        _keep_up(conn, stored.id, {kept.id: game.game for kept, game in made})
        if made:
            stored = store.touch(conn, stored)
    return Founded(stored, token)


# -- reading: never a write -------------------------------------------------------------------

#: A club by its id (None: no such club), several (a phone's recent list, the missing left
#: out), the club a game is filed in, and whether a token is a club's edit token.
load = store.load
load_many = store.load_many
club_of_game = store.club_of_game
check_token = store.check_token


def board(club_id: str) -> Board:
    """The club's board: the one kept while it is of the club's games as they are, else worked
    out in memory for this read (and kept by the club's next write)."""
    kept = store.kept_board(club_id, BOARD_FORMAT)
    if kept is not None:
        return from_json(kept)
    log.info("club %s: its board is behind its games, worked out for this read", club_id)
    return build_board(_ledger_now(club_id))


def game_lines(club_id: str) -> list[dict[str, Any]]:
    """Every game of the club in date order, as the club's JSON lists them (`schemas.ClubGame`,
    made when the game was written), else worked out in memory for this read."""
    kept = store.kept_board(club_id, BOARD_FORMAT, with_games=True)
    if kept is not None:
        return list(kept)
    return _lines_json(build_board(_ledger_now(club_id)))


def _lines_json(board: Board) -> list[dict[str, Any]]:
    return [schemas.ClubGame.of(line).model_dump(mode="json") for line in board.games]


def last_game_id(club_id: str) -> str | None:
    """The club's last table (the newest game, whatever its variant)."""
    return store.last_game_id(club_id)


def club_file(club: StoredClub) -> schemas.ClubFile:
    """The club as a file: everything needed to make it again."""
    return exports.club_file(club, _ledger_now(club.id))


def club_csv(club: StoredClub) -> str:
    """The club's games as CSV, a line per player and game."""
    return exports.to_csv(_ledger_now(club.id))


def _ledger_now(club_id: str) -> Ledger:
    """The club's ledger with every game's record of the game as it is now (read only)."""
    with database().reading() as conn:
        ledger, versions = store.ledger(conn, club_id)
    return ledger.with_records(_fresh_records(ledger, versions, {}))


# -- keeping up with the games ----------------------------------------------------------------


def on_game_written(
    game_id: str, *, conn: Connection, stored: StoredGame, change: Change | None = None, **_: Any
) -> None:
    """The receiver of `game_written`: when the game is filed in a club, its record, the
    ratings from the first game whose places changed and the club's board, written on `conn`
    so that they commit with the game.

    A game in no club costs one lookup by key. The same write told twice is kept once. Should
    keeping up fail, the game's write still stands (only the club's savepoint is rolled back):
    the club's pages then work the board out as they read it, until its next write or
    `flask clubs refresh`.
    """
    filed = store.filed_in(conn, game_id)
    if filed is None or filed[1] == stored.game.version:
        return
    club_id = filed[0]
    try:
        with conn.begin_nested():
            store.lock(conn, club_id)
            _keep_up(conn, club_id, {game_id: stored.game})
    except Exception:
        log.exception("club %s: could not keep up with game %s", club_id, game_id)


def refresh(club_ids: Sequence[str] = (), *, full: bool = False) -> list[str]:
    """Every club (or those named) whose board is not of its games as they are: the games that
    moved on summed up again (`full`: every game, and every rating from the first), rated
    again and the board kept. Returns the clubs it kept up."""
    done: list[str] = []
    for club_id in club_ids or store.all_ids():
        if not full and store.kept_board(club_id, BOARD_FORMAT) is not None:
            continue
        with database().writing() as conn:
            try:
                store.lock(conn, club_id)
            except ClubNotFound:
                continue
            _keep_up(conn, club_id, {}, full=full)
        done.append(club_id)
    return done


def _keep_up(
    conn: Connection, club_id: str, games: Mapping[str, Game], *, full: bool = False
) -> None:
    """On the club's locked row: fresh records of `games` (and of any other game of the club
    that moved on since its record), the ratings from the first whose places changed, and the
    board, kept."""
    ledger, versions = store.ledger(conn, club_id)
    if full:
        ledger = Ledger(
            tuple(replace(g, record=None, ratings=dict.fromkeys(CHAINS)) for g in ledger.games)
        )
    fresh = _fresh_records(ledger, versions, games)
    now = ledger.with_records(fresh)
    store.save_games(conn, now.changed_since(ledger))
    board = build_board(now)
    store.keep_board(conn, club_id, to_json(board), _lines_json(board), key_of(now))
    _tell(conn, club_id)


def _tell(conn: Connection, club_id: str) -> None:
    """The pages that follow the club hear of this write once it commits (web/live/)."""
    version = store.live_version(conn, club_id)
    if version is not None:
        signals.changed.send(signals.topic("club", club_id), conn=conn, version=version)


def live_version(club_id: str) -> int | None:
    """What the club's stream tells: a number that grows with every change its page shows."""
    if not ids.valid_id(club_id):
        return None
    with database().reading() as conn:
        return store.live_version(conn, club_id)


def records_now(game_ids: Sequence[str]) -> dict[str, GameRecord]:
    """Each game's record as the game is now, loaded (for a record kept behind its game: a
    season reads them so, as the club's pages work out a board that is behind)."""
    return {game_id: record for game_id, (_version, record) in _loaded_records(game_ids).items()}


def _loaded_records(game_ids: Sequence[str]) -> dict[str, tuple[int, GameRecord]]:
    """game id -> (version, record) of each game, loaded as it is now (none: no query)."""
    loaded = game_queries.load_many(list(game_ids)) if game_ids else []
    return {found.id: (found.game.version, record_of(found.game)) for found in loaded}


def _fresh_records(
    ledger: Ledger, versions: Mapping[str, int], games: Mapping[str, Game]
) -> dict[str, tuple[int, GameRecord]]:
    """game id -> (version, record) of `games`, and of every other game whose record is
    behind the game (loaded as it is now)."""
    fresh = {game_id: (game.version, record_of(game)) for game_id, game in games.items()}
    behind = [
        kept.game_id
        for kept in ledger.games
        if kept.game_id not in fresh
        and (kept.record is None or kept.version != versions[kept.game_id])
    ]
    return fresh | _loaded_records(behind)
