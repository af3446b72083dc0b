"""What is wrong with a round as typed, said where it is fixed: each problem under its player and
field, and all of them in a summary at the top of the form that links to those fields (the
GOV.UK error summary). The engine says every reason at once with its seat and field; the form
adds what it could not read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext

from referee.engine.errors import Reason
from referee.web.vocabulary.messages import describe_reason
from referee.web.vocabulary.words import player_label

#: The order of a player's fields on the round screen: problems are listed in it.
FIELD_ORDER = ("went_out", "penalty", "classes", "cards", "buys", "rummy")


@dataclass(frozen=True)
class Problem:
    """One thing to fix: what to say, whose and which field it is, and the input to fix it in."""

    text: str
    seat: int | None
    field: str | None
    target: str
    code: str = "bad_input"  # the reason's code (a field's own error: its input is not read)

    @property
    def place(self) -> tuple[int, int]:
        """Where it is on the page: problems of the whole round first, then seat by seat."""
        field = FIELD_ORDER.index(self.field) if self.field in FIELD_ORDER else len(FIELD_ORDER)
        return (-1 if self.seat is None else self.seat, field)


def target_of(seat: int | None, field: str | None, params: Any = None) -> str:
    """The id of the input a problem is fixed in (the ids the round form gives its inputs)."""
    if field == "went_out":
        seats = params.get("players") if isinstance(params, dict) else None
        first = seats[0] if isinstance(seats, list) and seats else seat
        return f"went-out-{first if isinstance(first, int) else 0}"
    if field == "rummy":
        return "rummy"
    if seat is None:
        return "form-title"
    return {
        "cards": f"seats-{seat}-cards",
        "buys": f"seats-{seat}-buys",
        "classes": f"seats-{seat}-classes-0",
    }.get(field or "", f"seat-{seat}-penalty")


def round_problems(form: Any, reasons: Iterable[Reason], players: Sequence[str]) -> list[Problem]:
    """Every problem of a posted round form: its fields' own errors and the reasons given."""
    found = [
        Problem(
            describe_reason(r, players),
            r.player,
            r.field,
            target_of(r.player, r.field, dict(r.params)),
            r.code,
        )
        for r in reasons
    ]
    if getattr(form, "csrf_token", None) is not None and form.csrf_token.errors:
        text = gettext("Please send the form again.")
        found.append(Problem(text, None, None, "form-title", "csrf_failed"))
    for seat, entry in enumerate(form.seats.entries[: len(players)]):
        name = player_label(seat, players)
        for field in entry.form:
            inputs = list(field) if field.type == "FieldList" else [field]
            where = field.short_name
            for each in inputs:
                target = f"seat-{seat}-penalty" if where == "penalty" else each.id
                for error in each.errors:
                    text = gettext("%(player)s: %(message)s", player=name, message=error)
                    found.append(Problem(text, seat, where, target))
    return sorted(found, key=lambda p: p.place)


Place = tuple[int | None, str | None]


def problems_by_place(problems: Iterable[Problem]) -> dict[Place, list[str]]:
    """The problems' texts by (seat, field), for the form to say each under its input."""
    placed: dict[Place, list[str]] = {}
    for problem in problems:
        placed.setdefault((problem.seat, problem.field), []).append(problem.text)
    return placed
