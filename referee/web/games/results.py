"""A round's results in the API's shape (one entry per player, by name) as the engine's seat
results: the one reader for `POST …/rounds`, `PUT …/rounds/<n>` and an imported game.

Each entry: ``{"player": name, "went_out": true}`` (with ``"rummy": true`` where a rummy
doubles), or ``"penalty": N``, or ``"cards": [...]`` (both may be given when they agree);
``"buys": N`` where buying is on. Every reason an entry cannot be read is given at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from referee.engine.cards import parse_cards
from referee.engine.errors import GameRefused, Reason, RefereeError, reason
from referee.engine.game import Game, SeatResult
from referee.web.plumbing.numbers import whole_number

from .schemas import SeatResultBody

#: The points a hand may be written with, and the buys: the round form reads the same.
POINTS: Final = (0, 9999)
BUYS: Final = (0, 20)


def _said_of(error: RefereeError, seat: int | None, field: str) -> Reason:
    return Reason(error.code, dict(error.params), seat, field)


def read_results(
    game: Game, entries: Sequence[SeatResultBody], lang: str | None = None
) -> tuple[SeatResult, ...]:
    """One `SeatResult` per seat, in seat order; GameRefused with every reason it cannot read.

    The entries come read by their schema (`schemas.SeatResultBody`): types are right, what
    they mean is checked here.
    """
    by_seat: dict[int, SeatResultBody] = {}
    reasons: list[Reason] = []
    for entry in entries:
        name = entry.player
        seat = game.players.index(name) if name in game.players else None
        if seat is None:
            reasons.append(reason("unknown_player", field="results", name=name[:40]))
        elif seat in by_seat:
            reasons.append(reason("duplicate_result", player=seat, field="results"))
        else:
            by_seat[seat] = entry
    if not reasons:  # a name misspelt is one reason, not that one and a missing result
        missing = [seat for seat in range(len(game.players)) if seat not in by_seat]
        reasons.extend(reason("missing_result", player=seat, field="results") for seat in missing)
    results: list[SeatResult] = []
    for seat in sorted(by_seat):
        result = _read_seat(seat, by_seat[seat], lang, reasons)
        if result is not None:
            results.append(result)
    if reasons:
        raise GameRefused(reasons)
    return tuple(results)


def _read_seat(
    seat: int, entry: SeatResultBody, lang: str | None, reasons: list[Reason]
) -> SeatResult | None:
    before = len(reasons)
    penalty = _number(entry.penalty, POINTS, seat, "penalty", reasons)
    buys = _number(entry.buys, BUYS, seat, "buys", reasons)
    cards = None
    if entry.cards not in (None, "", []):
        assert entry.cards is not None
        try:
            cards = parse_cards(entry.cards, lang)
        except RefereeError as error:
            reasons.append(_said_of(error, seat, "cards"))
    if len(reasons) > before:
        return None
    return SeatResult(
        went_out=bool(entry.went_out),
        penalty=penalty,
        rummy=bool(entry.rummy),
        cards=cards,
        buys=buys or 0,
    )


def _number(
    value: int | str | None, bounds: tuple[int, int], seat: int, field: str, reasons: list[Reason]
) -> int | None:
    if value is None or value == "":
        return None
    try:
        return whole_number(value, low=bounds[0], high=bounds[1])
    except RefereeError as error:
        reasons.append(_said_of(error, seat, field))
        return None
