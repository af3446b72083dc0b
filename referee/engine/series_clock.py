"""A series' clock: its time limit, the rule at zero, its pauses and each table's extra minutes,
from which the time left at any moment follows.

The engine has no clock of its own: every moment is given (aware, UTC) by the web layer, and a
clock keeps only what the time left is computed from (when it started, the seconds it stood
paused, since when it stands paused, each table's extra minutes), so that any page can say the
time left at any "now" without a timer anywhere.

*The round in progress* at zero: a table's rounds are written when they are played, so the first
round a table writes after its time ran out is the one it was playing when it ran out. That
round is the table's last (`FINISH_ROUND`), or the one after it (`ONE_MORE`): the last round is
the rounds written before it + 1 (+ 2 with one more). `Event.fix_last_round` keeps that number
for the table once that round is written, so that it never moves again (a pause, a correction).
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, Final

#: A series' time limit, in minutes.
MIN_SERIES_MINUTES: Final = 5
MAX_SERIES_MINUTES: Final = 240
#: Extra minutes the host gives a table at once, and a table's extra minutes in all.
MAX_EXTRA_MINUTES: Final = 60
MAX_EXTRA_IN_ALL: Final = 240


class ClockRule(Enum):
    """What the tables do when the series' time runs out."""

    FINISH_ROUND = "finish_round"  # the round in progress is the last
    ONE_MORE = "one_more"  # the round in progress, then one more

    @property
    def rounds_after(self) -> int:
        """Rounds a table still plays from the one in progress at zero (that one included)."""
        return 1 if self is ClockRule.FINISH_ROUND else 2


def utc(moment: datetime.datetime) -> datetime.datetime:
    """A moment in whole seconds, UTC (what a clock keeps and compares)."""
    if moment.tzinfo is None:
        raise ValueError("a clock's moments are aware")
    return moment.astimezone(datetime.UTC).replace(microsecond=0)


@dataclass(frozen=True, kw_only=True)
class SeriesClock:
    """A running (or paused) series' clock. `extra` and `last_rounds` are (table, number)
    pairs in table order."""

    minutes: int
    rule: ClockRule
    started_at: datetime.datetime
    paused_at: datetime.datetime | None = None
    paused_seconds: int = 0  # the pauses already over, in all
    extra: tuple[tuple[int, int], ...] = ()
    last_rounds: tuple[tuple[int, int], ...] = ()

    @property
    def paused(self) -> bool:
        return self.paused_at is not None

    def extra_of(self, table: int) -> int:
        return dict(self.extra).get(table, 0)

    def last_round_kept(self, table: int) -> int | None:
        return dict(self.last_rounds).get(table)

    def _end(self, table: int | None) -> datetime.datetime:
        """Where the clock ends for `table` (None: the series' own time) if it ran from now."""
        minutes = self.minutes + (0 if table is None else self.extra_of(table))
        return self.started_at + datetime.timedelta(minutes=minutes, seconds=self.paused_seconds)

    def seconds_left(self, now: datetime.datetime, table: int | None = None) -> int:
        """Whole seconds left for `table` (None: the series without extra minutes) at `now`;
        a paused clock stands where it was paused."""
        at = self.paused_at or utc(now)
        return max(0, int((self._end(table) - at).total_seconds()))

    def ends_at(self, table: int | None = None) -> datetime.datetime | None:
        """When the time runs out for `table`, as the clock runs now (None while paused)."""
        return None if self.paused_at is not None else self._end(table)

    def time_up(self, now: datetime.datetime, table: int | None = None) -> bool:
        return self.seconds_left(now, table) == 0

    # -- the host's changes (Event checks them first) ----------------------------------------

    def paused_now(self, now: datetime.datetime) -> SeriesClock:
        return replace(self, paused_at=max(utc(now), self.started_at))

    def resumed(self, now: datetime.datetime) -> SeriesClock:
        assert self.paused_at is not None
        stood = max(0, int((utc(now) - self.paused_at).total_seconds()))
        return replace(self, paused_at=None, paused_seconds=self.paused_seconds + stood)

    def with_extra(self, table: int, minutes: int) -> SeriesClock:
        given = dict(self.extra)
        given[table] = given.get(table, 0) + minutes
        return replace(self, extra=tuple(sorted(given.items())))

    def with_last_round(self, table: int, last: int) -> SeriesClock:
        kept = dict(self.last_rounds)
        kept[table] = last
        return replace(self, last_rounds=tuple(sorted(kept.items())))

    # -- keeping it ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "minutes": self.minutes,
            "rule": self.rule.value,
            "started_at": self.started_at.isoformat(),
            "paused_at": None if self.paused_at is None else self.paused_at.isoformat(),
            "paused_seconds": self.paused_seconds,
            "extra": [list(pair) for pair in self.extra],
            "last_rounds": [list(pair) for pair in self.last_rounds],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeriesClock:
        paused = data.get("paused_at")
        return cls(
            minutes=int(data["minutes"]),
            rule=ClockRule(data["rule"]),
            started_at=utc(datetime.datetime.fromisoformat(data["started_at"])),
            paused_at=None if paused is None else utc(datetime.datetime.fromisoformat(paused)),
            paused_seconds=int(data.get("paused_seconds", 0)),
            extra=tuple((int(t), int(m)) for t, m in data.get("extra", ())),
            last_rounds=tuple((int(t), int(n)) for t, n in data.get("last_rounds", ())),
        )
