"""Players check themselves in: the evening's check-in link, the phone's proof of who it is for,
and the writes a check-in link may make (its own player in or out, nothing else).

The link's key is an HMAC of the club and the evening with the server's SECRET_KEY (nothing
kept, nothing to migrate; a new SECRET_KEY makes new links). A phone that checked a player in
keeps a player token: an HMAC of the evening and the player's name, followed by the name, in a
cookie scoped to the link's path (the API hands the same token to its client). A check-out, or
asking for one's own table, needs the token of that name: a check-in link adds or removes only
its own player. The host closes the link (the evening's `check_in_closed`) and undoes what a
phone did through the club's edit token (`service.undo_self_service`, `service.set_check_in`).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any, Final

from flask import current_app
from sqlalchemy import Connection

from referee.engine.errors import GameRefused, reason
from referee.engine.events import Event, EventPlayer
from referee.engine.names import name_key
from referee.web.clubs import service as clubs_service
from referee.web.clubs.store import ClubNotFound
from referee.web.core import signals
from referee.web.games import links as game_links
from referee.web.plumbing.database import database

from . import service, store
from .store import StoredEvent

#: Characters of a check-in key and of a player token's proof (128 bits, base64url).
KEY_LENGTH: Final = 22
#: The cookie that says whom a phone checked in (its path is the evening's check-in link).
COOKIE: Final = "rr_check_in"


def _mac(*parts: str) -> str:
    key = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(key, "\x1f".join(parts).encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:KEY_LENGTH]


def key_of(club_id: str, event_id: str) -> str:
    """The evening's check-in key (the last part of its check-in link)."""
    return _mac("check-in", club_id, event_id)


def key_fits(club_id: str, event_id: str, key: str) -> bool:
    expected = key_of(club_id, event_id)
    return isinstance(key, str) and hmac.compare_digest(key.encode(), expected.encode())


def player_token(event_id: str, name: str) -> str:
    """The proof that a phone checked `name` in: its HMAC for this evening, then the name."""
    spelled = base64.urlsafe_b64encode(name.encode()).decode().rstrip("=")
    return f"{_mac('check-in-player', event_id, name_key(name))}.{spelled}"


def name_of_token(event_id: str, token: str | None) -> str | None:
    """The name a player token is for, when it is this evening's; else None."""
    if not isinstance(token, str) or "." not in token or len(token) > 200:
        return None
    proof, spelled = token.split(".", 1)
    try:
        name = base64.urlsafe_b64decode(spelled + "=" * (-len(spelled) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    expected = _mac("check-in-player", event_id, name_key(name))
    return name if hmac.compare_digest(proof.encode(), expected.encode()) else None


# -- what a phone sees ------------------------------------------------------------------------


@dataclass(frozen=True)
class Seat:
    """A player's seat in the newest series drawn: the table, the seat, who deals first, the
    table's round screen (its game's edit link, as the table card's QR gives it; None until the
    series starts)."""

    series: int
    table: int
    seat: int  # 1-based
    seats: tuple[str, ...]
    dealer: str
    started: bool
    link: str | None


@dataclass(frozen=True)
class Phone:
    """What a check-in link shows a phone: the evening, whether the link is open, the names
    to tap, and the phone's own player (None: nobody yet) with their seat."""

    stored: StoredEvent
    open: bool
    members: tuple[str, ...]
    player: EventPlayer | None
    seat: Seat | None

    @property
    def event(self) -> Event:
        return self.stored.event


def seat_of(stored: StoredEvent, name: str) -> Seat | None:
    """`name`'s seat in the newest series drawn, or None."""
    newest = stored.event.series[-1] if stored.event.series else None
    table = None if newest is None else newest.table_of(name)
    if newest is None or table is None:
        return None
    key = name_key(name)
    seat = next(i for i, s in enumerate(table.seats) if name_key(s) == key)
    pair = service.table_edit_link_token(stored, newest.number, table.number)
    return Seat(
        series=newest.number,
        table=table.number,
        seat=seat + 1,
        seats=table.seats,
        dealer=table.seats[table.first_dealer],
        started=newest.started,
        link=None if pair is None else game_links.edit_url(*pair, external=True),
    )


def phone(stored: StoredEvent, token: str | None) -> Phone:
    """The evening as a check-in link shows it to a phone holding `token` (or none)."""
    name = name_of_token(stored.id, token)
    player = None if name is None else stored.event.player(name)
    here = {name_key(p.name) for p in stored.event.players if p.present}
    members = tuple(m for m in service.club_members(stored.club_id) if name_key(m) not in here)
    return Phone(
        stored=stored,
        open=stored.event.check_in_open,
        members=members,
        player=player,
        seat=None if player is None or not player.present else seat_of(stored, player.name),
    )


def load(club_id: str, event_id: str, key: str) -> StoredEvent | None:
    """The evening its check-in link names, or None (no such evening, or not its key)."""
    if not isinstance(club_id, str) or not isinstance(event_id, str):
        return None
    stored = service.load_in(club_id, event_id)
    return stored if stored is not None and key_fits(club_id, event_id, key) else None


# -- what a phone may do ----------------------------------------------------------------------


@dataclass(frozen=True)
class CheckedIn:
    """The phone's player is in (or out): the evening as it now is, and the player's token."""

    stored: StoredEvent
    name: str
    token: str


Done = CheckedIn | service.Refused | service.EventMissing | service.Forbidden


def check_in(club_id: Any, event_id: Any, key: Any, name: Any) -> Done:
    """`name` checked in by their own phone (a name the club does not know is marked new for
    the host, and becomes a member once seated), drawn from the next series not yet drawn."""
    if not isinstance(name, str):
        return service.Refused((reason("no_names", field="name"),))

    def act(conn: Connection, stored: StoredEvent) -> tuple[Event, str]:
        club = clubs_service.lock_on(conn, stored.club_id).club
        canonical = club.canonical_names([name])[0]
        known = {name_key(m) for m in club.members}
        event = stored.event.check_in(
            canonical, by_player=True, new=name_key(canonical) not in known
        )
        # Room in the club for everyone now in (the member cap), nothing kept: a new name
        # joins the club when its table's game is filed, so names typed on a phone and checked
        # out again never fill the club's members (GameRefused keeps nothing).
        club.add([p.name for p in event.players if p.present])
        player = event.player(canonical)
        assert player is not None
        return event, player.name

    return _by_link(club_id, event_id, key, act)


def check_out(club_id: Any, event_id: Any, key: Any, name: Any, token: str | None) -> Done:
    """The phone's own player out of every later draw (what they scored stays): a 403 unless
    `token` is that player's."""
    if not isinstance(event_id, str):
        return service.EventMissing()
    own = name_of_token(event_id, token)
    if not isinstance(name, str) or own is None or name_key(own) != name_key(name):
        return service.Forbidden("not_your_check_in")

    def act(_conn: Connection, stored: StoredEvent) -> tuple[Event, str]:
        event = stored.event.leave(own, by_player=True)
        player = event.player(own)
        assert player is not None
        return event, player.name

    return _by_link(club_id, event_id, key, act)


def _by_link(club_id: Any, event_id: Any, key: Any, act: Any) -> Done:
    """One write by a check-in link: the club's lock, then the evening's (the order of every
    evening write); the engine's refusal keeps nothing."""
    if not isinstance(club_id, str) or not isinstance(event_id, str) or not isinstance(key, str):
        return service.EventMissing()
    if store.club_of(event_id) != club_id or not key_fits(club_id, event_id, key):
        return service.EventMissing()
    try:
        with database().writing() as conn:
            try:
                clubs_service.lock_on(conn, club_id)
            except ClubNotFound:
                return service.EventMissing()
            stored = store.read(conn, event_id, lock=True)
            if stored is None:
                return service.EventMissing()
            event, name = act(conn, stored)
            kept = store.save(conn, stored, event)
            signals.changed.send(signals.topic("event", kept.id), conn=conn, version=kept.version)
            return CheckedIn(kept, name, player_token(kept.id, name))
    except GameRefused as refused:  # raised in the transaction: nothing kept
        return service.Refused(tuple(refused.reasons))
