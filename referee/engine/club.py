"""A club: the same people over many games, as frozen states.

`Club` is the club's name and members. Filing a game's players in it (its newcomers become
members) and adding members come as pokerkit's trio, like `Game`'s operations:
`verify_x()` raises `GameRefused` with every reason at once, `can_x()` answers yes or no, and
`x()` returns a `Joined`: the club after it and the names that joined.

`Ledger` is the club's games in date order, each with its record (records.py) as of a version
of the game and its players' ratings after it (ratings.py). `with_records` takes fresh records
of some games (a round entered, a correction, an undo, a game filed) and rates again from the
first game whose ratings can have changed, in each chain: nothing else is replayed.

Glossary: a *member* is a name the club knows, compared by `name_key` ("ann" is Ann); a
*newcomer* is a player of a game filed in the club who is not a member yet; a *chain* is an
order in which games are rated, each from its players' ratings after their game before it in
the chain: all the club's games ("all"), and each variant's own ("variant").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Final

from .errors import GameRefused, Reason, allowed, reason
from .names import clean_name, is_read_name, name_key, read_name
from .ratings import Rating, rate_in_order
from .records import GameRecord

#: The longest club name, in characters.
MAX_CLUB_NAME: Final = 40
#: The most members a club keeps (a family, a Thursday table, a small league).
MAX_MEMBERS: Final = 60
#: The two chains every finished game is rated in.
CHAINS: Final = ("all", "variant")


# -- names ------------------------------------------------------------------------------------


def read_club_name(raw: Any) -> tuple[str, list[Reason]]:
    """The name cleaned, and the reasons it cannot be a club's."""
    if not isinstance(raw, str):
        return "", [reason("bad_input", field="name")]
    name = clean_name(raw)
    if not name:
        return name, [reason("empty_club_name", field="name")]
    if len(name) > MAX_CLUB_NAME:
        return name, [reason("club_name_too_long", field="name", max=MAX_CLUB_NAME)]
    return name, []


def read_members(raw: Any) -> tuple[tuple[str, ...], list[Reason]]:
    """Members' names as typed or sent (a club file's list): each read as a player's name is
    (`names.read_name`, one rule for both), a name given twice kept once."""
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        return (), [reason("bad_input", field="members")]
    names: list[str] = []
    reasons: list[Reason] = []
    seen: set[str] = set()
    for index, value in enumerate(raw):
        name, wrong = read_name(value, seat=index, field="members")
        if wrong is not None:
            reasons.append(wrong)
        if name and name_key(name) not in seen:
            seen.add(name_key(name))
            names.append(name)
    return tuple(names), reasons


# -- the club ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Joined:
    """The club after names joined it, and the names that joined (its newcomers, in order)."""

    club: Club
    joined: tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Club:
    """A club's name and members, in the order they joined."""

    name: str
    members: tuple[str, ...] = ()

    @classmethod
    def found(cls, name: Any, members: Any = ()) -> Club:
        """A new club; GameRefused with every reason it cannot be (its name, its members'
        names, more members than a club keeps)."""
        cleaned, reasons = read_club_name(name)
        names, member_reasons = read_members(members)
        reasons.extend(member_reasons)
        if len(names) > MAX_MEMBERS:
            reasons.append(reason("too_many_members", field="members", max=MAX_MEMBERS))
        if reasons:
            raise GameRefused(reasons)
        return cls(name=cleaned, members=names)

    # -- names as the club writes them ---------------------------------------------------

    def canonical_names(self, typed: Sequence[Any]) -> list[Any]:
        """The typed names with each member written as the club writes them ("ann" is Ann).

        Anything that is not text is passed on as it is, for the game to refuse.
        """
        known = {name_key(member): member for member in self.members}
        out: list[Any] = []
        for raw in typed:
            if isinstance(raw, str):
                name = clean_name(raw)
                out.append(known.get(name_key(name), name))
            else:
                out.append(raw)
        return out

    def newcomers(self, names: Iterable[str]) -> tuple[str, ...]:
        """The names that are not members yet, each once, in order."""
        seen = {name_key(member) for member in self.members}
        out: list[str] = []
        for name in names:
            if name_key(name) not in seen:
                seen.add(name_key(name))
                out.append(name)
        return tuple(out)

    # -- filing a game's players ---------------------------------------------------------

    def verify_filing(self, players: Sequence[str]) -> None:
        """GameRefused unless a game of `players` (as the game reads them) can be filed: the
        newcomers among them must fit. A game of members only is never refused, even in a
        club that has more members than it may keep now."""
        reasons = [
            reason("bad_input", player=seat, field="players")
            for seat, name in enumerate(players)
            if not is_read_name(name)
        ]
        reasons.extend(self._room_reasons(players, "players"))
        if reasons:
            raise GameRefused(reasons)

    def can_file(self, players: Sequence[str]) -> bool:
        return allowed(lambda: self.verify_filing(players))

    def file(self, players: Sequence[str]) -> Joined:
        """The club with the game's newcomers as members."""
        self.verify_filing(players)
        return self._joined(self.newcomers(players))

    # -- adding members ------------------------------------------------------------------

    def verify_adding(self, names: Any) -> None:
        """GameRefused unless `names` (as typed) can all be members: each a player's name, and
        room for the newcomers among them."""
        read, reasons = read_members(names)
        reasons.extend(self._room_reasons(read, "members"))
        if reasons:
            raise GameRefused(reasons)

    def can_add(self, names: Any) -> bool:
        return allowed(lambda: self.verify_adding(names))

    def add(self, names: Any) -> Joined:
        """The club with `names` as members (those already in it are left as they are)."""
        self.verify_adding(names)
        read, _reasons = read_members(names)
        return self._joined(self.newcomers(read))

    def _room_reasons(self, names: Sequence[str], where: str) -> list[Reason]:
        added = len(self.newcomers(names))
        if added and len(self.members) + added > MAX_MEMBERS:
            return [reason("too_many_members", field=where, max=MAX_MEMBERS)]
        return []

    def _joined(self, newcomers: tuple[str, ...]) -> Joined:
        return Joined(replace(self, members=(*self.members, *newcomers)), newcomers)


# -- the ledger: games summed up and rated ----------------------------------------------------

#: chain -> each player's rating after the game (None: not rated, the game is not finished).
Ratings = Mapping[str, Mapping[str, Rating] | None]


@dataclass(frozen=True)
class ClubGame:
    """A game filed in the club, as the club keeps it."""

    game_id: str
    variant: str
    played_at: datetime  # orders the club's games (the game's creation, or its date in a file)
    version: int = 0  # the game's version its record is of; 0: not summed up yet
    record: GameRecord | None = None
    ratings: Ratings = field(default_factory=lambda: dict.fromkeys(CHAINS))

    def rating_after(self, chain: str) -> Mapping[str, Rating] | None:
        return self.ratings.get(chain)

    @property
    def order(self) -> tuple[datetime, str]:
        return (self.played_at, self.game_id)


def _rating_key(record: GameRecord | None) -> Any:
    """What a game's ratings depend on: whether it is over, and who finished where."""
    if record is None or not record.finished:
        return None
    return tuple((seat.name, seat.place) for seat in record.seats)


@dataclass(frozen=True)
class Ledger:
    """The club's games in date order, with their records and ratings."""

    games: tuple[ClubGame, ...] = ()

    def filed(self, game: ClubGame, version: int, record: GameRecord) -> Ledger:
        """The ledger with a new game in its place by date, summed up and rated."""
        games = sorted((*self.games, game), key=lambda g: g.order)
        return Ledger(tuple(games)).with_records({game.game_id: (version, record)})

    def with_records(self, fresh: Mapping[str, tuple[int, GameRecord]]) -> Ledger:
        """The ledger with fresh records of some games (game id -> (version, record)), each
        chain rated again from its first game whose places changed, or that ended, or that
        is finished without ratings yet."""
        games = list(self.games)
        first_all: int | None = None
        first_of_variant: dict[str, int] = {}
        for index, game in enumerate(games):
            if game.game_id not in fresh:
                continue
            version, record = fresh[game.game_id]
            unrated = record.finished and any(game.ratings.get(c) is None for c in CHAINS)
            if unrated or _rating_key(record) != _rating_key(game.record):
                first_all = index if first_all is None else first_all
                first_of_variant.setdefault(game.variant, index)
            games[index] = replace(game, version=version, record=record)
        if first_all is not None:
            _rate_again(games, "all", None, first_all)
        for variant, start in first_of_variant.items():
            _rate_again(games, "variant", variant, start)
        return Ledger(tuple(games))

    def changed_since(self, before: Ledger) -> list[ClubGame]:
        """The games that are not as they were in `before` (or were not in it)."""
        old = {game.game_id: game for game in before.games}
        return [game for game in self.games if old.get(game.game_id) != game]

    @property
    def key(self) -> str:
        """Which state of its games the ledger is of: versions only grow, so any change
        shows ("<games>:<sum of their versions>")."""
        return f"{len(self.games)}:{sum(game.version for game in self.games)}"


def _rate_again(games: list[ClubGame], chain: str, variant: str | None, start: int) -> None:
    """The chain's ratings from `games[start]` on, from everyone's ratings before it."""
    in_chain = [i for i, game in enumerate(games) if variant is None or game.variant == variant]
    before: dict[str, Rating] = {}
    for index in in_chain:
        if index >= start:
            break
        before.update(games[index].ratings.get(chain) or {})
    tail = [index for index in in_chain if index >= start]
    rated = rate_in_order((games[index].record for index in tail), before)
    for index, after in zip(tail, rated, strict=True):
        game = games[index]
        if game.ratings.get(chain) != after:
            games[index] = replace(game, ratings={**game.ratings, chain: after})
