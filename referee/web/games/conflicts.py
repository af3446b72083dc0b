"""Two entries of one round: the one saved, and this phone's, side by side.

When a phone saves a round another phone has saved meanwhile (a 409, or an entry the phone kept
while it had no signal), its entry stays on the round it was meant for, beside the saved one,
and the table decides. `templates/games/_conflict.html` shows a `ConflictView`; the view is
built from the saved round and from the entry as the phone typed it (read or not). A stale
correction sent again keeps only what this phone changed (`merge_stale_correction`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from referee.engine.game import Game, SeatResult
from referee.engine.scoring import penalty_of
from referee.engine.variants import Variant


@dataclass(frozen=True)
class ConflictRow:
    """One player's line: what was saved, what this phone has."""

    name: str
    saved: str
    entry: str

    @property
    def differs(self) -> bool:
        return self.saved != self.entry


@dataclass(frozen=True)
class ConflictView:
    """Round `number` as saved and as this phone has it."""

    number: int
    rows: tuple[ConflictRow, ...]


def result_text(result: SeatResult, variant: Variant) -> str:
    """A seat's result as the table says it: "out", "out, rummy" or the points left."""
    if result.went_out:
        return gettext("out, rummy") if result.rummy else gettext("out")
    if result.penalty is None and result.cards is not None:
        return str(penalty_of(result.cards, variant))
    return "–" if result.penalty is None else str(result.penalty)


def entry_texts(form: Any, results: Sequence[SeatResult | None], variant: Variant) -> list[str]:
    """Each seat's entry on a round form: its result where it reads, else what was typed."""
    texts = []
    for result, entry in zip(results, form.seats.entries, strict=False):
        if result is not None:
            texts.append(result_text(result, variant))
            continue
        typed = (entry.form.penalty.raw_data or [""])[0].strip()
        texts.append(typed or (entry.form.cards.data or "").strip() or "–")
    return texts


def conflict_view(game: Game, number: int, entry: Sequence[str]) -> ConflictView:
    """Round `number` as `game` has it saved, beside this phone's `entry` (one text a seat)."""
    saved = game.rounds[number - 1].results
    rows = tuple(
        ConflictRow(name, result_text(result, game.variant), text)
        for name, result, text in zip(game.players, saved, entry, strict=False)
    )
    return ConflictView(number, rows)


def merge_stale_correction(form: Any, was: Any, now: Any) -> None:
    """After a 409 on a correction: take the other writer's values where this one typed nothing.

    `was` is a round form showing the round as it was when this `form` was made, `now` one
    showing it as it is. A field of `form` still holding what `was` holds was not touched
    here, so it shows the round as it is now; only what this writer changed stays theirs.
    Without this, saving again would quietly put back the values the other phone had just
    corrected.
    """
    pairs: list[tuple[Any, Any, Any]] = [
        (form.went_out, was.went_out, now.went_out),
        (form.rummy, was.rummy, now.rummy),
    ]
    for mine, before, current in zip(form.seats, was.seats, now.seats, strict=False):
        if any(entry.data for entry in mine.form.classes.entries):
            continue  # counted by value here: this writer's count decides the points
        for name in ("penalty", "cards", "buys"):
            pairs.append((mine.form[name], before.form[name], current.form[name]))
    for mine, before, current in pairs:
        if _same(mine.data, before.data):
            mine.data = current.data
            mine.raw_data = None


def _same(a: Any, b: Any) -> bool:
    """Whether two fields' values read the same (None and "" alike, spaces around ignored)."""
    return str(a if a is not None else "").strip() == str(b if b is not None else "").strip()
