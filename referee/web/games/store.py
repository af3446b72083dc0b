"""Games kept at the table: create, read, enter and correct rounds, undo, export and import.

The store checks every write against the rules (the engine's `score_round` and the game's
own rules: rounds in order, no round after the end) and against the version the writer saw,
and keeps a history of every change. Errors are `GameError`s with a code and params; the
web layer turns them into words.
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import re
import secrets
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from flask import current_app, url_for
from sqlalchemy import Connection, delete, func, insert, select, update

from referee.engine.cards import parse_cards
from referee.engine.errors import RefereeError
from referee.engine.scoring import (
    PlayerResult,
    Standings,
    max_hand_size,
    penalty_of,
    score_round,
    standings,
)
from referee.engine.variants import Scoring, Variant, get_variant

from . import db
from .models import changes, games, rounds

MAX_NAME = 24
_WHOLE_NUMBER = re.compile(r"-?[0-9]+")
MAX_ROUNDS_WITHOUT_CONTRACTS = 60  # a rummy game to a target; far beyond any real evening


class GameError(Exception):
    """Input or a state that a game cannot take. `status` is the HTTP status it becomes."""

    status = 400

    def __init__(
        self, code: str, /, *, player: int | None = None, field: str | None = None, **params: Any
    ) -> None:
        super().__init__(code)
        self.code = code
        self.params: dict[str, Any] = params
        self.player = player  # the seat the error is about, for the form
        self.field = field  # the input field it is about (API: `field`)


class GameNotFound(GameError):
    status = 404

    def __init__(self) -> None:
        super().__init__("game_not_found")


class Conflict(GameError):
    """The writer saw an older version: `changes` lists what happened since."""

    status = 409

    def __init__(self, version: int, current: int, since: list[Change]) -> None:
        super().__init__("stale_version", version=version, current=current)
        self.current = current
        self.since = since


# -- the game as data -------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatResult:
    """One player's end of a round, as entered."""

    went_out: bool = False
    penalty: int = 0
    rummy: bool = False
    cards: tuple[str, ...] | None = None  # canonical cards, when the hand was entered card by card
    buys: int = 0

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"went_out": self.went_out, "penalty": self.penalty}
        if self.rummy:
            data["rummy"] = True
        if self.cards is not None:
            data["cards"] = list(self.cards)
        if self.buys:
            data["buys"] = self.buys
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatResult:
        cards = data.get("cards")
        return cls(
            went_out=bool(data.get("went_out")),
            penalty=int(data.get("penalty", 0)),
            rummy=bool(data.get("rummy")),
            cards=tuple(cards) if cards is not None else None,
            buys=int(data.get("buys", 0)),
        )


@dataclass(frozen=True)
class Round:
    number: int
    results: tuple[SeatResult, ...]
    scores: tuple[int, ...]

    @property
    def went_out(self) -> int | None:
        return next((i for i, r in enumerate(self.results) if r.went_out), None)


@dataclass(frozen=True)
class Change:
    id: int
    version: int
    at: datetime
    action: str  # add, edit, undo
    round: int
    before: tuple[SeatResult, ...] | None
    after: tuple[SeatResult, ...] | None
    undone: bool


@dataclass(frozen=True)
class Game:
    id: str
    variant: Variant
    variant_id: str
    house_rules: dict[str, Any]
    players: tuple[str, ...]
    first_dealer: int
    lang: str
    version: int
    created_at: datetime
    updated_at: datetime
    rounds: tuple[Round, ...] = ()
    standings: Standings = field(init=False)

    def __post_init__(self) -> None:
        scores = [r.scores for r in self.rounds]
        object.__setattr__(self, "standings", standings(self.variant, scores, len(self.players)))

    @property
    def finished(self) -> bool:
        return self.standings.finished

    @property
    def next_round(self) -> int | None:
        """The number of the round to enter next, None once the game is over."""
        if self.finished:
            return None
        number = len(self.rounds) + 1
        if self.variant.rounds is None and number > MAX_ROUNDS_WITHOUT_CONTRACTS:
            return None
        return number

    @property
    def winner(self) -> str | None:
        seat = self.standings.winner
        return None if seat is None else self.players[seat]

    def dealer_of(self, number: int) -> int:
        return self.variant.dealer_of(number, self.first_dealer, len(self.players))

    def starter_of(self, number: int) -> int:
        return (self.dealer_of(number) + 1) % len(self.players)

    def running_totals(self) -> list[tuple[int, ...]]:
        totals = [0] * len(self.players)
        out = []
        for r in self.rounds:
            totals = [t + s for t, s in zip(totals, r.scores, strict=True)]
            out.append(tuple(totals))
        return out


# -- tokens and links -------------------------------------------------------------------------


def new_game_id() -> str:
    return secrets.token_urlsafe(16)  # 128 random bits, 22 characters


def new_edit_token() -> str:
    return secrets.token_urlsafe(24)  # 192 random bits


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def view_url(game_id: str, *, external: bool = False) -> str:
    """The read-only link of a game."""
    return url_for("games.show", game_id=game_id, _external=external)


def edit_url(game_id: str, token: str, *, external: bool = False) -> str:
    """The link that lets its holder enter and correct rounds."""
    return url_for("games.edit", game_id=game_id, token=token, _external=external)


# -- reading and checking results -------------------------------------------------------------


def _database_url() -> str:
    return str(current_app.config["DATABASE_URL"])


def _now() -> datetime:
    return datetime.now(UTC)


def _int(value: Any, field_name: str, player: int | None = None) -> int:
    if isinstance(value, bool):
        raise GameError("not_a_number", player=player, field=field_name, value=str(value))
    if isinstance(value, int):
        return value
    # ASCII digits only: str.isdigit() also says yes to "²" and "٣", which int() refuses or
    # reads as another number than the one shown.
    if isinstance(value, str) and _WHOLE_NUMBER.fullmatch(value.strip()) and len(value) < 9:
        return int(value.strip())
    raise GameError("not_a_number", player=player, field=field_name, value=str(value)[:20])


def check_players(variant: Variant, players: Sequence[Any]) -> tuple[str, ...]:
    """Distinct, non-empty names, as many as the variant allows."""
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise GameError("bad_input", field="players")
    names: list[str] = []
    for raw in players:
        if not isinstance(raw, str):
            raise GameError("bad_input", field="players")
        name = " ".join(raw.split())
        if not name:
            raise GameError("empty_name", field="players")
        if len(name) > MAX_NAME:
            raise GameError("name_too_long", field="players", name=name[:MAX_NAME], max=MAX_NAME)
        if name.casefold() in (n.casefold() for n in names):
            raise GameError("duplicate_name", field="players", name=name)
        names.append(name)
    try:
        variant.check_players(len(names))
    except RefereeError as error:
        raise GameError(error.code, field="players", **error.params) from None
    return tuple(names)


def read_results(
    game: Game, number: int, entries: Sequence[Any], lang: str | None = None
) -> tuple[tuple[SeatResult, ...], tuple[int, ...]]:
    """Results in the API's shape (one per player, any order) -> seat results and scores.

    Each entry: ``{"player": name, "went_out": true}`` or ``"penalty": N`` or ``"cards": [...]``
    (both may be given when they agree); ``"rummy": true`` beside ``went_out`` where the
    variant doubles for a rummy; ``"buys": N`` where buying is on.
    """
    variant = game.variant
    players = game.players
    if not isinstance(entries, Sequence) or isinstance(entries, str):
        raise GameError("bad_input", field="results")
    by_seat: dict[int, Mapping[str, Any]] = {}
    for entry in entries:
        if not isinstance(entry, Mapping):
            raise GameError("bad_input", field="results")
        name = entry.get("player")
        seat = next((i for i, p in enumerate(players) if p == name), None)
        if seat is None:
            raise GameError("unknown_player", field="results", name=str(name)[:40])
        if seat in by_seat:
            raise GameError("duplicate_result", player=seat, field="results")
        by_seat[seat] = entry
    for seat in range(len(players)):
        if seat not in by_seat:
            raise GameError("missing_result", player=seat, field="results")
    results = tuple(
        _read_seat(game, number, seat, by_seat[seat], lang) for seat in range(len(players))
    )
    if variant.scoring is Scoring.WINNER_COLLECTS and not any(r.went_out for r in results):
        raise GameError("no_player_out", field="results")
    try:
        scores = score_round(
            variant, number, [PlayerResult(r.went_out, r.penalty, r.rummy) for r in results]
        )
    except RefereeError as error:
        params = dict(error.params)
        seat = params.pop("player", None)
        raise GameError(error.code, player=seat, field="results", **params) from None
    return results, scores


def _read_seat(
    game: Game, number: int, seat: int, entry: Mapping[str, Any], lang: str | None
) -> SeatResult:
    variant = game.variant
    went_out = entry.get("went_out", False)
    rummy = entry.get("rummy", False)
    if not isinstance(went_out, bool) or not isinstance(rummy, bool):
        raise GameError("bad_input", player=seat, field="went_out")
    if rummy and variant.scoring is not Scoring.WINNER_COLLECTS:
        raise GameError("rummy_not_in_variant", player=seat, field="rummy")
    buys = _int(entry.get("buys", 0), "buys", seat)
    if buys and not variant.buying:
        raise GameError("buying_off", player=seat, field="buys")
    if not 0 <= buys <= variant.buy_limit:
        raise GameError(
            "too_many_buys", player=seat, field="buys", buys=buys, limit=variant.buy_limit
        )
    has_penalty = entry.get("penalty") not in (None, "")
    raw_cards = entry.get("cards")
    has_cards = raw_cards not in (None, "", [])
    if went_out:
        if (has_penalty and _int(entry["penalty"], "penalty", seat) != 0) or has_cards:
            raise GameError("out_with_cards", player=seat, field="penalty")
        return SeatResult(went_out=True, rummy=rummy, buys=buys)
    if rummy:
        raise GameError("rummy_needs_going_out", player=seat, field="rummy")
    cards: tuple[str, ...] | None = None
    if has_cards:
        try:
            hand = parse_cards(raw_cards, lang)
        except RefereeError as error:
            raise GameError(error.code, player=seat, field="cards", **error.params) from None
        _check_hand(game, number, seat, hand)
        cards = tuple(str(c.plain) for c in hand)
        penalty = penalty_of(hand, variant)
        if has_penalty and _int(entry["penalty"], "penalty", seat) != penalty:
            raise GameError(
                "penalty_mismatch",
                player=seat,
                field="penalty",
                penalty=_int(entry["penalty"], "penalty", seat),
                cards_penalty=penalty,
            )
    elif has_penalty:
        penalty = _int(entry["penalty"], "penalty", seat)
    else:
        raise GameError("no_penalty", player=seat, field="penalty")
    return SeatResult(went_out=False, penalty=penalty, cards=cards, buys=buys)


def _check_hand(game: Game, number: int, seat: int, hand: Sequence[Any]) -> None:
    """A hand the shoe can hold: no more copies of a card than decks, jokers than the shoe has."""
    variant = game.variant
    shoe = variant.shoe_for(len(game.players))
    limit = max_hand_size(variant, number, len(game.players))
    if len(hand) > limit:
        raise GameError("hand_too_big", player=seat, field="cards", count=len(hand), max=limit)
    for card, count in Counter(c.plain for c in hand).items():
        most = shoe.jokers if card.is_joker else shoe.decks
        if card.is_joker and most == 0:
            raise GameError("card_not_in_shoe", player=seat, field="cards", card=str(card))
        if count > most:
            raise GameError(
                "too_many_copies", player=seat, field="cards", card=str(card), count=count, max=most
            )


# -- storage ----------------------------------------------------------------------------------


def _game_from_row(row: Any, round_rows: Sequence[Any]) -> Game:
    variant = get_variant(row.variant, row.house_rules or None)
    built: list[Round] = []
    for r in round_rows:
        results = tuple(SeatResult.from_json(x) for x in r.results)
        scores = score_round(
            variant, r.number, [PlayerResult(x.went_out, x.penalty, x.rummy) for x in results]
        )
        built.append(Round(r.number, results, scores))
    return Game(
        id=row.id,
        variant=variant,
        variant_id=row.variant,
        house_rules=dict(row.house_rules or {}),
        players=tuple(row.players),
        first_dealer=row.first_dealer,
        lang=row.lang,
        version=row.version,
        created_at=_aware(row.created_at),
        updated_at=_aware(row.updated_at),
        rounds=tuple(built),
    )


def _aware(moment: datetime) -> datetime:
    # SQLite hands back naive datetimes; they were written in UTC.
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _load(conn: Connection, game_id: str, *, lock: bool = False) -> Any:
    query = select(games).where(games.c.id == game_id)
    if lock:
        query = query.with_for_update()
    return conn.execute(query).first()


def _load_game(conn: Connection, game_id: str, *, lock: bool = False) -> Game | None:
    row = _load(conn, game_id, lock=lock)
    if row is None:
        return None
    round_rows = conn.execute(
        select(rounds).where(rounds.c.game_id == game_id).order_by(rounds.c.number)
    ).all()
    return _game_from_row(row, round_rows)


def _valid_id(game_id: str) -> bool:
    return isinstance(game_id, str) and 16 <= len(game_id) <= 32


def get_game(game_id: str) -> Game | None:
    """The game as it is now, or None."""
    if not _valid_id(game_id):
        return None
    with db.reading(_database_url()) as conn:
        return _load_game(conn, game_id)


def get_version(game_id: str) -> int | None:
    """Only the version: what a poller needs to know whether anything changed."""
    if not _valid_id(game_id):
        return None
    with db.reading(_database_url()) as conn:
        return conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()


def get_games(game_ids: Sequence[str]) -> list[Game]:
    """Several games (for the recent list on `/`), most recently changed first."""
    wanted = [g for g in game_ids if _valid_id(g)][:20]
    if not wanted:
        return []
    with db.reading(_database_url()) as conn:
        found = [_load_game(conn, game_id) for game_id in wanted]
    return sorted((g for g in found if g), key=lambda g: g.updated_at, reverse=True)


def check_token(game_id: str, token: str | None) -> bool:
    """Whether `token` is the game's edit token (compared in constant time)."""
    if not token or not _valid_id(game_id) or len(token) > 64:
        return False
    with db.reading(_database_url()) as conn:
        stored = conn.execute(select(games.c.edit_token_hash).where(games.c.id == game_id)).scalar()
    return stored is not None and hmac.compare_digest(stored, token_hash(token))


def create_game(
    variant_id: str,
    players: Sequence[Any],
    *,
    house_rules: Mapping[str, Any] | None = None,
    first_dealer: int | str | None = None,
    lang: str = "en",
) -> tuple[Game, str]:
    """A new game with no rounds yet; returns it and its edit token."""
    try:
        variant = get_variant(variant_id, house_rules)
    except RefereeError as error:
        field_name = "variant" if error.code == "unknown_variant" else "house_rules"
        raise GameError(error.code, field=field_name, **error.params) from None
    names = check_players(variant, players)
    seat = _first_dealer(names, first_dealer)
    game_id, token = new_game_id(), new_edit_token()
    now = _now()
    with db.writing(_database_url()) as conn:
        conn.execute(
            insert(games).values(
                id=game_id,
                edit_token_hash=token_hash(token),
                variant=variant_id_of(variant_id),
                house_rules=dict(house_rules or {}),
                players=list(names),
                first_dealer=seat,
                lang=lang,
                version=1,
                created_at=now,
                updated_at=now,
            )
        )
        game = _load_game(conn, game_id)
    assert game is not None
    return game, token


def variant_id_of(name: str) -> str:
    return get_variant(name).id


def _first_dealer(names: Sequence[str], first_dealer: int | str | None) -> int:
    if first_dealer is None or first_dealer == "":
        return 0
    if isinstance(first_dealer, int) and not isinstance(first_dealer, bool):
        if 0 <= first_dealer < len(names):
            return first_dealer
    elif isinstance(first_dealer, str) and first_dealer in names:
        return names.index(first_dealer)
    raise GameError("unknown_player", field="first_dealer", name=str(first_dealer)[:40])


def _changes_since(conn: Connection, game_id: str, version: int) -> list[Change]:
    rows = conn.execute(
        select(changes)
        .where(changes.c.game_id == game_id, changes.c.version > version)
        .order_by(changes.c.id)
    ).all()
    return [_change(r) for r in rows]


def _change(row: Any) -> Change:
    def seats(data: Any) -> tuple[SeatResult, ...] | None:
        return None if data is None else tuple(SeatResult.from_json(x) for x in data)

    return Change(
        id=row.id,
        version=row.version,
        at=_aware(row.at),
        action=row.action,
        round=row.round,
        before=seats(row.before),
        after=seats(row.after),
        undone=bool(row.undone),
    )


def _write(game_id: str, version: int | None, change: Any) -> Game:
    """Run `change(conn, game)` on the locked game, if `version` is current; bump the version."""
    if not _valid_id(game_id):
        raise GameNotFound()
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
        raise GameError("bad_input", field="version")
    with db.writing(_database_url()) as conn:
        game = _load_game(conn, game_id, lock=True)
        if game is None:
            raise GameNotFound()
        if version is not None and version != game.version:
            # A version from the future (or far past) is stale too; only real ones have history.
            since = _changes_since(conn, game_id, version) if 0 < version < game.version else []
            raise Conflict(version, game.version, since)
        new_version = game.version + 1
        change(conn, game, new_version)
        done = conn.execute(
            update(games)
            .where(games.c.id == game_id, games.c.version == game.version)
            .values(version=new_version, updated_at=_now())
        )
        if done.rowcount != 1:  # pragma: no cover - the row lock makes this unreachable
            raise Conflict(game.version, game.version + 1, [])
        result = _load_game(conn, game_id)
    assert result is not None
    return result


def _record(
    conn: Connection,
    game: Game,
    version: int,
    action: str,
    number: int,
    before: Sequence[SeatResult] | None,
    after: Sequence[SeatResult] | None,
) -> None:
    conn.execute(
        insert(changes).values(
            game_id=game.id,
            version=version,
            at=_now(),
            action=action,
            round=number,
            before=None if before is None else [r.to_json() for r in before],
            after=None if after is None else [r.to_json() for r in after],
            undone=False,
        )
    )


def _check_round_number(number: Any) -> int:
    if isinstance(number, bool) or not isinstance(number, int):
        raise GameError("bad_input", field="round")
    return number


def add_round(
    game_id: str,
    number: Any,
    entries: Sequence[Any],
    *,
    version: int | None = None,
    lang: str | None = None,
) -> Game:
    """Enter the next round. Refused: a round out of order, after the end, or against the rules."""

    def change(conn: Connection, game: Game, new_version: int) -> None:
        n = _check_round_number(number)
        if game.next_round is None:
            raise GameError("game_finished", field="round")
        if n != game.next_round:
            raise GameError("round_out_of_order", field="round", round=n, expected=game.next_round)
        try:
            game.variant.check_round(n)
        except RefereeError as error:
            raise GameError(error.code, field="round", **error.params) from None
        results, _scores = read_results(game, n, entries, lang)
        conn.execute(
            insert(rounds).values(game_id=game.id, number=n, results=[r.to_json() for r in results])
        )
        _record(conn, game, new_version, "add", n, None, results)

    return _write(game_id, version, change)


def edit_round(
    game_id: str,
    number: Any,
    entries: Sequence[Any],
    *,
    version: int | None = None,
    lang: str | None = None,
) -> Game:
    """Correct a round already entered; refused when the correction would end the game earlier."""

    def change(conn: Connection, game: Game, new_version: int) -> None:
        n = _check_round_number(number)
        if not 1 <= n <= len(game.rounds):
            raise GameError("no_such_round", field="round", round=n)
        old = game.rounds[n - 1]
        results, scores = read_results(game, n, entries, lang)
        all_scores = [r.scores for r in game.rounds]
        all_scores[n - 1] = scores
        _check_no_round_after_end(game, all_scores)
        if results == old.results:
            raise GameError("nothing_changed", field="results", round=n)
        conn.execute(
            update(rounds)
            .where(rounds.c.game_id == game.id, rounds.c.number == n)
            .values(results=[r.to_json() for r in results])
        )
        _record(conn, game, new_version, "edit", n, old.results, results)

    return _write(game_id, version, change)


def _check_no_round_after_end(game: Game, all_scores: Sequence[Sequence[int]]) -> None:
    # A game to a target ends when someone reaches it: a correction may not end it before
    # rounds that were played after.
    for end in range(1, len(all_scores)):
        if standings(game.variant, all_scores[:end], len(game.players)).finished:
            raise GameError("ends_game_early", field="results", round=end)


def undo(game_id: str, *, version: int | None = None) -> Game:
    """Take back the last change not yet taken back (again and again, one step each time)."""

    def change(conn: Connection, game: Game, new_version: int) -> None:
        row = conn.execute(
            select(changes)
            .where(
                changes.c.game_id == game.id,
                changes.c.action != "undo",
                changes.c.undone.is_(False),
            )
            .order_by(changes.c.id.desc())
            .limit(1)
        ).first()
        if row is None:
            raise GameError("nothing_to_undo")
        last = _change(row)
        current = game.rounds[last.round - 1].results if last.round <= len(game.rounds) else None
        if last.before is None:
            conn.execute(
                delete(rounds).where(rounds.c.game_id == game.id, rounds.c.number == last.round)
            )
        else:
            conn.execute(
                update(rounds)
                .where(rounds.c.game_id == game.id, rounds.c.number == last.round)
                .values(results=[r.to_json() for r in last.before])
            )
        conn.execute(update(changes).where(changes.c.id == last.id).values(undone=True))
        _record(conn, game, new_version, "undo", last.round, current, last.before)

    return _write(game_id, version, change)


def history(game_id: str) -> list[Change]:
    """Every change to the game, newest first."""
    with db.reading(_database_url()) as conn:
        rows = conn.execute(
            select(changes).where(changes.c.game_id == game_id).order_by(changes.c.id.desc())
        ).all()
    return [_change(r) for r in rows]


def can_undo(game_id: str) -> bool:
    with db.reading(_database_url()) as conn:
        count = conn.execute(
            select(func.count())
            .select_from(changes)
            .where(
                changes.c.game_id == game_id,
                changes.c.action != "undo",
                changes.c.undone.is_(False),
            )
        ).scalar()
    return bool(count)


# -- the game as JSON (SPEC: GET /api/v1/games/<id>) ------------------------------------------


def results_json(game: Game, round_: Round) -> list[dict[str, Any]]:
    """A round's results in the shape POST .../rounds takes, so an export can be entered again."""
    out = []
    for name, r in zip(game.players, round_.results, strict=True):
        entry: dict[str, Any] = {"player": name}
        if r.went_out:
            entry["went_out"] = True
            if r.rummy:
                entry["rummy"] = True
        elif r.cards is not None:
            entry["cards"] = list(r.cards)
            entry["penalty"] = r.penalty
        else:
            entry["penalty"] = r.penalty
        if r.buys:
            entry["buys"] = r.buys
        out.append(entry)
    return out


def round_info(game: Game, number: int) -> dict[str, Any]:
    """What the table needs before dealing a round: contract, dealer, starter, cards, shoe."""
    from referee.web.messages import contract_text

    variant = game.variant
    players = len(game.players)
    contract = variant.contract_for(number) if variant.has_contracts else None
    shoe = variant.shoe_for(players)
    return {
        "round": number,
        "contract": contract_text(contract) if contract is not None else None,
        "dealer": game.players[game.dealer_of(number)],
        "starter": game.players[game.starter_of(number)],
        "deal": variant.cards_dealt(number, players),
        "shoe": {"decks": shoe.decks, "jokers": shoe.jokers},
    }


def to_json(game: Game) -> dict[str, Any]:
    """The game in the shape of GET /api/v1/games/<id> (SPEC.md), plus what an import needs."""
    players = game.players
    rounds_out = []
    for r in game.rounds:
        info = round_info(game, r.number)
        rounds_out.append(
            {
                "round": r.number,
                "contract": info["contract"],
                "dealer": info["dealer"],
                "deal": info["deal"],
                "scores": dict(zip(players, r.scores, strict=True)),
                "went_out": None if r.went_out is None else players[r.went_out],
                "results": results_json(game, r),
            }
        )
        if game.variant.buying:  # an extra beside SPEC's shape: {name: buys} in the round
            rounds_out[-1]["buys"] = {
                name: result.buys for name, result in zip(players, r.results, strict=True)
            }
    st = game.standings
    return {
        "id": game.id,
        "variant": game.variant_id,
        "house_rules": game.house_rules,
        "players": list(players),
        "first_dealer": players[game.first_dealer],
        "lang": game.lang,
        "rounds": rounds_out,
        "totals": dict(zip(players, st.totals, strict=True)),
        "leaders": [players[i] for i in st.leaders] if game.rounds else [],
        "finished": st.finished,
        "winner": game.winner,
        "next_round": round_info(game, game.next_round) if game.next_round else None,
        "version": game.version,
        "view_url": view_url(game.id, external=True),
    }


def game_json(game_id: str) -> dict[str, Any] | None:
    """GET /api/v1/games/<id> as a dict (the printed score sheet is drawn from it), or None."""
    game = get_game(game_id)
    return None if game is None else to_json(game)


# -- export and import ------------------------------------------------------------------------


def to_csv(game: Game) -> str:
    """One line per round: round, dealer, who went out, each player's score, then the totals.

    Where buying is on, each player's buys in the round follow the scores (``buys <name>``),
    and the totals line sums them.
    """
    buying = game.variant.buying
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    buy_columns = [f"buys {name}" for name in game.players] if buying else []
    writer.writerow(["round", "contract", "dealer", "went_out", *game.players, *buy_columns])
    for r in game.rounds:
        info = round_info(game, r.number)
        out = "" if r.went_out is None else game.players[r.went_out]
        buys = [result.buys for result in r.results] if buying else []
        writer.writerow([r.number, info["contract"] or "", info["dealer"], out, *r.scores, *buys])
    total_buys = [
        sum(r.results[seat].buys for r in game.rounds) for seat in range(len(game.players))
    ]
    writer.writerow(["total", "", "", "", *game.standings.totals, *(total_buys if buying else [])])
    return buffer.getvalue()


def import_game(data: Any, *, lang: str | None = None) -> tuple[Game, str]:
    """A new game (new id and token) from a JSON export: the rounds are entered again, checked."""
    if not isinstance(data, Mapping):
        raise GameError("bad_import")
    rounds_in = data.get("rounds", [])
    if not isinstance(rounds_in, Sequence) or isinstance(rounds_in, str):
        raise GameError("bad_import")
    game, token = create_game(
        data.get("variant", ""),
        data.get("players", []),
        house_rules=data.get("house_rules") or None,
        first_dealer=data.get("first_dealer"),
        lang=_known_language(data.get("lang")) or _known_language(lang) or "en",
    )
    try:
        for index, entry in enumerate(rounds_in, start=1):
            if not isinstance(entry, Mapping) or "results" not in entry:
                raise GameError("bad_import", round=index)
            game = add_round(game.id, index, entry["results"], version=game.version, lang=lang)
    except GameError:
        _delete_game(game.id)
        raise
    return game, token


def _known_language(lang: Any) -> str | None:
    from referee.web.i18n import LANGUAGES

    return lang if isinstance(lang, str) and lang in LANGUAGES else None


def _delete_game(game_id: str) -> None:
    with db.writing(_database_url()) as conn:
        conn.execute(delete(changes).where(changes.c.game_id == game_id))
        conn.execute(delete(rounds).where(rounds.c.game_id == game_id))
        conn.execute(delete(games).where(games.c.id == game_id))
