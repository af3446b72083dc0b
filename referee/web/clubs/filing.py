"""Games started from a club: the names as the club writes them, the game kept with its own
edit token, and filed in the club (its new names become members)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection

from referee.engine.game import Game, GameRefused, reason
from referee.web.games import queries as game_queries
from referee.web.games import service as games_service
from referee.web.games.queries import StoredGame

from . import store
from .store import StoredClub


def start_game(
    club: StoredClub,
    variant: Any,
    players: Any,
    *,
    lang: str,
    house_rules: Mapping[str, Any] | None = None,
    first_dealer: Any = None,
) -> tuple[StoredGame, str]:
    """A new game of the club (GameRefused with every reason it cannot start)."""
    if isinstance(players, Sequence) and not isinstance(players, str):
        players = store.canonical_names(club.members, players)
    game = Game.start(variant, players, house_rules=house_rules, first_dealer=first_dealer)
    return _file(club, game, lang=lang)


def _file(club: StoredClub, game: Game, *, lang: str) -> tuple[StoredGame, str]:
    """The game kept and filed in the club in one transaction (the games service's)."""
    store.check_names(game.players)
    store.check_room(club, game.players)

    def filing(conn: Connection, stored: StoredGame) -> None:
        players = stored.game.players
        store.file_game_on(conn, club.id, stored.id, players, played_at=stored.created_at)

    started = games_service.create(game, lang=lang, filing=filing)
    if isinstance(started, games_service.Refused):
        raise GameRefused(started.reasons)
    return started.stored, started.token


def rematch(club: StoredClub, last_game_id: str) -> tuple[StoredGame, str]:
    """The last table again, filed in the club (the engine's rematch: the same players in the
    same seats, variant and house rules; the first deal passes to the next seat)."""
    last = game_queries.load(last_game_id)
    if last is None:
        raise GameRefused([reason("no_game_to_rematch")])
    return _file(club, last.game.rematch(), lang=last.lang)
