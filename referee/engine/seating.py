"""Seating a club night: how many tables of which size, and who sits where in each series.

Glossary: a *series* is one sitting of the whole room (every table plays one game, or a fixed
number of rounds, at the same time); a *draw* seats the players of a series at its tables; two
players *meet* when they sit at one table in a series, and a *repeat* is a meeting of two
players who already met earlier that evening (a pair that meets three times makes two repeats).

Table sizes (`table_sizes`): tables of the preferred size where the count allows it, and of
another size within the limits only where the count needs it. Of every way to split the count,
the one with the most tables of the preferred size; then the one whose tables differ least from
it in all; then the fewest tables. With tables of 4 between 3 and 5 that reads: one player over
makes one table of 5, two over make two tables of 3, three over one table of 3 (`split_rule`
says it for any limits, as data the page words).

The draws, each reproducible from its seed (`random.Random(seed)`, nothing else random):
- `random_draw`: the first series, and any series the host wants drawn blind.
- `standings_draw`: strongest together, as Rommé clubs re-seat for a later series: the first
  ranks at table 1 (in rank order, the leader in seat 1), the next at table 2, and so on.
- `greedy_draw`: the baseline: players in a seeded order, each to the table where they add the
  fewest repeats.
- `mix_draw`: opponents repeat as little as possible over the whole evening. It plans this
  series together with the series still to come (as if the same players stayed: a myopic
  draw can leave no good seating for the last series, as 16 players at tables of 4 show),
  starting from the greedy plan of the same seed and improving it by a tabu search over swaps
  of two players at different tables of one series, with restarts from the best plan found,
  within a counted budget (`Search`), so a draw always stops at the same place on every
  machine. The plan never costs more than the one it started from. Its cost, in order of
  weight: repeats; then meetings beyond the second (a third meeting weighs more than a
  second); then seats at a table of another size than the preferred one given to players who
  already sat at one (nobody should sit at the table of 3 all evening).

Seating rules (`SeatingRule`): keep two players apart (a couple), keep two together (they share
a car), a fixed table for one player (mobility). Each draw honours them: the mix draw weighs a
broken rule above any repeat in its search (`_RULE`; fixed players and together-pairs are
seated first in its greedy start), the random and standings draws are mended by the same search
with the rules and each player's distance from the table drawn as its cost (`honour`), so
they move as few players as little as the rules need. A rule that cannot be met (a partner
absent, a table not drawn, rules that leave no seating) is named with its reason (`judge`); the
draw still seats everyone. Without rules every draw is what it was.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from .errors import Reason, reason

#: Seats at any table of an event (the issue's 3–5).
SMALLEST_TABLE: Final = 3
LARGEST_TABLE: Final = 5
#: Players an event seats: far beyond any club night (the draw stays well under a second).
MAX_PLAYERS: Final = 100

Tables = tuple[tuple[str, ...], ...]
Past = Sequence[Sequence[Sequence[str]]]  # the series before, each its tables' seats

# The mix draw's cost of one seating (see the module's docstring): a repeat outweighs any
# number of the lesser faults, and a third meeting outweighs every seat at an odd table.
_REPEAT: Final = 1_000_000
_MEETING_AGAIN: Final = 1_000
_ODD_AGAIN: Final = 1
#: A broken seating rule, in any series planned: above every repeat an evening can have.
_RULE: Final = 10**13
#: Seating rules an evening may have (a club's couples, cars and wheelchairs, with room).
MAX_SEATING_RULES: Final = 20


class DrawMethod(Enum):
    """How a series is seated."""

    RANDOM = "random"  # seeded, blind
    STANDINGS = "standings"  # strongest together: ranks 1–4 at table 1, 5–8 at table 2...
    MIX = "mix"  # opponents repeat as little as possible


class Keep(Enum):
    """What a seating rule keeps."""

    APART = "apart"  # two players never at one table (a couple)
    TOGETHER = "together"  # two players at one table (they share a car)
    TABLE = "table"  # one player always at one table number (mobility)


@dataclass(frozen=True, kw_only=True)
class SeatingRule:
    """A seating rule: two players (`apart`, `together`) or one and a table number (`table`)."""

    keep: Keep
    players: tuple[str, ...]
    table: int | None = None  # 1-based, for `table`

    def names(self, name: str) -> bool:
        return name in self.players

    def to_json(self) -> dict[str, object]:
        kept: dict[str, object] = {"keep": self.keep.value, "players": list(self.players)}
        if self.keep is Keep.TABLE:
            kept["table"] = self.table
        return kept


#: Why a draw could not honour a rule (the codes the web layer words).
PARTNER_ABSENT: Final = "partner_absent"  # together: one of the two plays no part this series
TABLE_NOT_DRAWN: Final = "table_not_drawn"  # the series has fewer tables than the number
NO_SEATING: Final = "no_seating_found"  # with the other rules and the table sizes, no seating
CHANGED_BY_HOST: Final = "changed_by_host"  # met by the draw, undone by a swap or a move


@dataclass(frozen=True, kw_only=True)
class UnmetRule:
    """A rule a series' seating does not meet, and why."""

    rule: SeatingRule
    reason: str


def in_force(
    rules: Sequence[SeatingRule], players: Sequence[str], tables: int
) -> tuple[tuple[SeatingRule, ...], tuple[UnmetRule, ...]]:
    """The rules a draw of `players` at `tables` tables can try to meet, and those it cannot
    from the start (a partner absent, a table not drawn). A rule naming a player who does not
    play (apart, a fixed table) asks nothing of this series."""
    here = set(players)
    kept: list[SeatingRule] = []
    unmet: list[UnmetRule] = []
    for rule in rules:
        present = [name in here for name in rule.players]
        if rule.keep is Keep.TOGETHER and not all(present):
            if any(present):
                unmet.append(UnmetRule(rule=rule, reason=PARTNER_ABSENT))
        elif not all(present):
            continue
        elif rule.keep is Keep.TABLE and (rule.table is None or rule.table > tables):
            unmet.append(UnmetRule(rule=rule, reason=TABLE_NOT_DRAWN))
        else:
            kept.append(rule)
    return tuple(kept), tuple(unmet)


def rule_met(rule: SeatingRule, tables: Sequence[Sequence[str]]) -> bool:
    """Whether `tables` meet `rule` (a rule about a player not seated is met)."""
    where = {name: number for number, seats in enumerate(tables, start=1) for name in seats}
    found = [where.get(name) for name in rule.players]
    if None in found:
        return rule.keep is not Keep.TOGETHER or all(f is None for f in found)
    if rule.keep is Keep.APART:
        return found[0] != found[1]
    if rule.keep is Keep.TOGETHER:
        return found[0] == found[1]
    return found[0] == rule.table


def judge(
    rules: Sequence[SeatingRule],
    tables: Sequence[Sequence[str]],
    *,
    before: Sequence[UnmetRule] | None = None,
) -> tuple[UnmetRule, ...]:
    """The rules `tables` do not meet, each with its reason; with `before` (the draw's own
    verdict) a rule the draw met and the seats no longer do was changed by the host."""
    players = [name for seats in tables for name in seats]
    kept, unmet = in_force(rules, players, len(tables))
    earlier = {u.rule: u.reason for u in before or ()}
    said = list(unmet)
    for rule in kept:
        if not rule_met(rule, tables):
            reason_ = NO_SEATING if before is None else earlier.get(rule, CHANGED_BY_HOST)
            said.append(UnmetRule(rule=rule, reason=reason_))
    order = {rule: i for i, rule in enumerate(rules)}
    return tuple(sorted(said, key=lambda u: order[u.rule]))


# -- table sizes ------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class TableSize:
    """The table sizes an event allows: `preferred` where it can, between `smallest` and
    `largest` where the count needs it."""

    preferred: int = 4
    smallest: int = SMALLEST_TABLE
    largest: int = LARGEST_TABLE

    def reasons(self) -> list[Reason]:
        """Every reason these sizes cannot seat an event (bounds, and their order)."""
        found: list[Reason] = []
        for where in ("preferred", "smallest", "largest"):
            size = getattr(self, where)
            if isinstance(size, bool) or not isinstance(size, int):
                found.append(reason("bad_input", field=f"table_size.{where}"))
            elif not SMALLEST_TABLE <= size <= LARGEST_TABLE:
                found.append(
                    reason(
                        "bad_table_size",
                        field=f"table_size.{where}",
                        size=size,
                        min=SMALLEST_TABLE,
                        max=LARGEST_TABLE,
                    )
                )
        if not found and not self.smallest <= self.preferred <= self.largest:
            found.append(
                reason(
                    "table_sizes_out_of_order",
                    field="table_size",
                    smallest=self.smallest,
                    preferred=self.preferred,
                    largest=self.largest,
                )
            )
        return found


def _splits(players: int, sizes: Sequence[int]) -> Iterable[dict[int, int]]:
    """Every way to seat `players` at tables of `sizes` (as counts per size)."""
    if not sizes:
        if players == 0:
            yield {}
        return
    size, rest = sizes[0], sizes[1:]
    for count in range(players // size + 1):
        for split in _splits(players - count * size, rest):
            yield {size: count, **split}


def table_sizes(players: int, size: TableSize) -> tuple[int, ...] | None:
    """The sizes of the tables `players` sit at (the preferred size first, then the others
    largest first), or None when no split fits the limits."""
    if players < 1:
        return None
    allowed = range(size.smallest, size.largest + 1)

    def worse(split: dict[int, int]) -> tuple[int, int, int]:
        off = sum(abs(s - size.preferred) * n for s, n in split.items())
        return (-split.get(size.preferred, 0), off, sum(split.values()))

    best = min(_splits(players, list(allowed)), key=worse, default=None)
    if best is None:
        return None
    others = sorted((s for s in best if s != size.preferred), reverse=True)
    return (size.preferred,) * best.get(size.preferred, 0) + tuple(
        s for s in others for _ in range(best[s])
    )


def split_reasons(players: int, size: TableSize) -> list[Reason]:
    """Why `players` cannot be seated at tables of these sizes ([] when they can)."""
    if players < size.smallest:
        return [reason("too_few_players", field="players", players=players, min=size.smallest)]
    if players > MAX_PLAYERS:
        return [reason("too_many_players", field="players", players=players, max=MAX_PLAYERS)]
    if table_sizes(players, size) is None:
        return [
            reason(
                "players_cannot_be_split",
                field="players",
                players=players,
                smallest=size.smallest,
                largest=size.largest,
            )
        ]
    return []


@dataclass(frozen=True)
class Extra:
    """With `over` players beyond a whole number of preferred tables, the tables that differ."""

    over: int
    sizes: tuple[int, ...] | None  # None: that many over can never be seated


@dataclass(frozen=True, kw_only=True)
class SplitRule:
    """The table rule as data, for the page to say in words: tables of `preferred`; for each
    remainder, the tables of other sizes; the counts that can never be seated."""

    preferred: int
    smallest: int
    largest: int
    extras: tuple[Extra, ...]  # over = 1 .. preferred - 1
    impossible: tuple[int, ...]  # player counts from 1 to MAX_PLAYERS no split fits


def split_rule(size: TableSize) -> SplitRule:
    """How any count is split under these sizes (a large count shows the steady pattern; the
    few small counts that differ from it are in `impossible` when they cannot be seated)."""
    steady = size.preferred * (2 * LARGEST_TABLE + 2)
    extras = []
    for over in range(1, size.preferred):
        sizes = table_sizes(steady + over, size)
        odd = None if sizes is None else tuple(s for s in sizes if s != size.preferred)
        extras.append(Extra(over, odd))
    impossible = tuple(n for n in range(1, MAX_PLAYERS + 1) if table_sizes(n, size) is None)
    return SplitRule(
        preferred=size.preferred,
        smallest=size.smallest,
        largest=size.largest,
        extras=tuple(extras),
        impossible=impossible,
    )


# -- meetings ---------------------------------------------------------------------------------


def meetings_of(past: Past) -> dict[frozenset[str], int]:
    """How often each pair of players sat at one table in the series given."""
    met: dict[frozenset[str], int] = {}
    for tables in past:
        for seats in tables:
            for i, a in enumerate(seats):
                for b in seats[i + 1 :]:
                    pair = frozenset((a, b))
                    met[pair] = met.get(pair, 0) + 1
    return met


def repeats_of(tables: Sequence[Sequence[str]], past: Past) -> int:
    """Pairs at one table of this series who already met in `past`."""
    met = meetings_of(past)
    return sum(
        1
        for seats in tables
        for i, a in enumerate(seats)
        for b in seats[i + 1 :]
        if met.get(frozenset((a, b)), 0)
    )


def evening_repeats(series: Past) -> int:
    """Repeats over a whole evening: each meeting of a pair after its first."""
    return sum(count - 1 for count in meetings_of(series).values())


# -- the draws --------------------------------------------------------------------------------


def _chunks(players: Sequence[str], sizes: Sequence[int]) -> Tables:
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(players[start : start + size]))
        start += size
    return tuple(tables)


def _check(players: Sequence[str], sizes: Sequence[int]) -> None:
    if sum(sizes) != len(players) or len(set(players)) != len(players):
        raise ValueError("a draw seats every player once, at tables that add up to them")


def random_draw(players: Sequence[str], sizes: Sequence[int], seed: int) -> Tables:
    """The players shuffled by the seed and dealt to the tables in order."""
    _check(players, sizes)
    order = list(players)
    random.Random(seed).shuffle(order)
    return _chunks(order, sizes)


def standings_draw(ranked: Sequence[str], sizes: Sequence[int]) -> Tables:
    """Strongest together: `ranked` best first, the first `sizes[0]` at table 1 in rank order."""
    _check(ranked, sizes)
    return _chunks(ranked, sizes)


@dataclass(frozen=True)
class Search:
    """How long the mix draw searches: swaps weighed (each the same work on every machine)."""

    steps: int = 60_000
    tenure: int = 5  # moves a swapped player sits out, so the search leaves a valley
    restart: int = 100  # moves without progress before starting again from the best, shaken
    shake: int = 3  # random swaps a round of the best plan takes for a new start
    patience: int = 1_000  # moves without a cheaper plan before the search gives up


DEFAULT_SEARCH: Final = Search()
#: With seating rules: a pair kept together meets again each series, so no plan reaches the
#: floor and the search always runs to its patience; it is given more of both (the draw stays
#: near a tenth of a second).
RULED_SEARCH: Final = Search(steps=120_000, patience=2_000)


def _marginal(meeting: int) -> int:
    """What the `meeting`-th meeting of a pair costs: nothing the first time, a repeat after,
    and more for each meeting beyond the second."""
    return 0 if meeting <= 1 else _REPEAT + _MEETING_AGAIN * (meeting - 2)


class _Plan:
    """Seatings under way for this series and the `rounds - 1` after it, players as numbers.

    `table_of[r][p]` is player p's table in round r (round 0: the series being drawn). The cost
    counts every meeting and every seat at an odd table of the whole evening, the past's
    included: a pair's c-th meeting costs `_marginal(c)`; a player's k-th seat at a table of
    another size than the preferred one costs `_ODD_AGAIN` × (k − 1).

    Seating rules add `_RULE` to each round that breaks one: an apart-pair's meeting costs it
    (`pair`), a together-pair's meeting saves it (counted as a pair kept apart, `total`), a
    player away from their fixed table pays it (`away`, which also holds `home`'s cost: a
    player's distance from the table they were drawn to, when a draw is mended).
    """

    def __init__(
        self,
        players: Sequence[str],
        sizes: Sequence[int],
        past: Past,
        preferred: int | None,
        rounds: int,
        *,
        rules: Sequence[SeatingRule] = (),
        home: Sequence[int] | None = None,
    ) -> None:
        _check(players, sizes)
        self.names = list(players)
        self.sizes = list(sizes)
        self.rounds = rounds
        self._rules(rules, home)
        # A pair meets at most once a series: the cost of each meeting, looked up.
        self.marginal = [_marginal(k) for k in range(len(past) + rounds + 2)]
        self.odd = [preferred is not None and size != preferred for size in sizes]
        n = len(players)
        index = {name: i for i, name in enumerate(players)}
        self.past_met = [[0] * n for _ in range(n)]
        for pair, count in meetings_of(past).items():
            a, b = (index.get(name) for name in pair)
            if a is not None and b is not None:
                self.past_met[a][b] = self.past_met[b][a] = count
        self.past_odd = [0] * n
        if preferred is not None:
            for tables in past:
                for seats in tables:
                    for name in seats if len(seats) != preferred else ():
                        if name in index:
                            self.past_odd[index[name]] += 1
        self.load([])  # nothing planned yet

    def _rules(self, rules: Sequence[SeatingRule], home: Sequence[int] | None) -> None:
        n, tables = len(self.names), len(self.sizes)
        index = {name: i for i, name in enumerate(self.names)}
        self.pair = [[0] * n for _ in range(n)]
        self.away = [[0] * tables for _ in range(n)]
        self.partners: list[list[int]] = [[] for _ in range(n)]
        self.together: list[tuple[int, int]] = []
        self.first = [2] * n  # the greedy start seats fixed players (0), then partners (1)
        for rule in rules:
            seated = [index[name] for name in rule.players if name in index]
            if len(seated) != len(rule.players):
                continue  # `in_force` keeps such rules out
            if rule.keep is Keep.TABLE and rule.table is not None and rule.table <= tables:
                self._fixed(seated[0], rule.table - 1)
            elif rule.keep is not Keep.TABLE and seated[0] != seated[1]:
                self._paired(seated[0], seated[1], rule.keep)
        for p, t in enumerate(home or ()):
            for other in range(tables):
                self.away[p][other] += abs(other - t)

    def _fixed(self, p: int, table: int) -> None:
        """Player `p` kept at `table` (0-based): every other table costs a broken rule."""
        for t in range(len(self.sizes)):
            self.away[p][t] += _RULE if t != table else 0
        self.first[p] = 0

    def _paired(self, a: int, b: int, keep: Keep) -> None:
        """Players `a` and `b` kept apart (meeting costs a broken rule) or together (not
        meeting does: the pair's cost is negative)."""
        step = _RULE if keep is Keep.APART else -_RULE
        self.pair[a][b] += step
        self.pair[b][a] += step
        if keep is Keep.TOGETHER:
            self.together.append((a, b))
            self.partners[a].append(b)
            self.partners[b].append(a)
            self.first[a], self.first[b] = min(self.first[a], 1), min(self.first[b], 1)

    # -- a plan and what it costs ----------------------------------------------------------

    def load(self, table_of: Sequence[Sequence[int]]) -> None:
        """Take `table_of` as the plan: meetings, odd seats and every cached cost from it."""
        n, tables = len(self.names), len(self.sizes)
        self.table_of = [list(round_) for round_ in table_of]
        self.members: list[list[list[int]]] = [[[] for _ in range(tables)] for _ in self.table_of]
        self.met = [list(row) for row in self.past_met]
        self.odd_seats = list(self.past_odd)
        for r, round_ in enumerate(self.table_of):
            for p, t in enumerate(round_):
                for x in self.members[r][t]:
                    self.met[p][x] += 1
                    self.met[x][p] += 1
                self.members[r][t].append(p)
                self.odd_seats[p] += self.odd[t]
        # entry[r][p][t]: at p's own table, what its table-mates cost p now; at another
        # table, what its players would cost p there.
        self.entry = [[[0] * tables for _ in range(n)] for _ in self.table_of]
        for r in range(len(self.table_of)):
            for p in range(n):
                self._fill(r, p, range(tables))
        self.cost = self.total()

    def _fill(self, r: int, p: int, tables: Iterable[int]) -> None:
        met, own, row = self.met[p], self.table_of[r][p], self.entry[r][p]
        pair, away = self.pair[p], self.away[p]
        for t in tables:
            extra = t != own
            row[t] = away[t] + sum(
                _marginal(met[x] + extra) + pair[x] for x in self.members[r][t] if x != p
            )

    def total(self) -> int:
        n = len(self.names)
        pairs = sum(
            _marginal(k)
            for a in range(n)
            for b in range(a + 1, n)
            for k in range(2, self.met[a][b] + 1)
        )
        rules = 0
        for round_ in self.table_of:
            rules += sum(self.away[p][t] for p, t in enumerate(round_))
            rules += sum(
                self.pair[a][b]
                for a in range(n)
                for b in range(a + 1, n)
                if self.pair[a][b] > 0 and round_[a] == round_[b]
            )
            rules += _RULE * sum(round_[a] != round_[b] for a, b in self.together)
        return pairs + _ODD_AGAIN * sum(k * (k - 1) // 2 for k in self.odd_seats) + rules

    def floor(self) -> int:
        """No plan costs less: no repeats, and the odd seats to come spread as evenly as the
        seats already taken allow."""
        seats = list(self.past_odd)
        odd_size = sum(size for size, odd in zip(self.sizes, self.odd, strict=True) if odd)
        for _ in range(self.rounds * odd_size):
            seats[seats.index(min(seats))] += 1
        return _ODD_AGAIN * sum(k * (k - 1) // 2 for k in seats)

    def greedy(self, rng: random.Random) -> list[list[int]]:
        """Each round in turn, each player in a seeded order to the cheapest table with room
        (the first such table on a tie), counting the rounds before."""
        n = len(self.names)
        met = [list(row) for row in self.past_met]
        odd_seats = list(self.past_odd)
        plan = []
        for _ in range(self.rounds):
            order = list(range(n))
            rng.shuffle(order)
            order.sort(key=self.first.__getitem__)  # fixed players, then partners, first
            seated: list[list[int]] = [[] for _ in self.sizes]
            table_of = [0] * n
            for p in order:
                best, best_cost = -1, 0
                for t, seats in enumerate(seated):
                    if len(seats) == self.sizes[t]:
                        continue
                    cost = sum(_marginal(met[p][x] + 1) + self.pair[p][x] for x in seats)
                    cost += _ODD_AGAIN * odd_seats[p] if self.odd[t] else 0
                    cost += self.away[p][t]
                    if best < 0 or cost < best_cost:
                        best, best_cost = t, cost
                for x in seated[best]:
                    met[p][x] += 1
                    met[x][p] += 1
                seated[best].append(p)
                table_of[p] = best
                odd_seats[p] += self.odd[best]
            plan.append(table_of)
        return plan

    # -- swaps -----------------------------------------------------------------------------

    def delta(self, r: int, a: int, b: int) -> int:
        """The change in cost if `a` and `b` change tables in round `r`."""
        ta, tb = self.table_of[r][a], self.table_of[r][b]
        entry_a, entry_b = self.entry[r][a], self.entry[r][b]
        # a's entry at b's table counts b, and back
        meet = 2 * (_marginal(self.met[a][b] + 1) + self.pair[a][b])
        delta = entry_a[tb] + entry_b[ta] - entry_a[ta] - entry_b[tb] - meet
        if self.odd[ta] != self.odd[tb]:
            into, out = (a, b) if self.odd[tb] else (b, a)
            delta += _ODD_AGAIN * (self.odd_seats[into] - self.odd_seats[out] + 1)
        return delta

    def swap(self, r: int, a: int, b: int) -> None:
        """`a` and `b` change tables in round `r`; every cached cost follows."""
        ta, tb = self.table_of[r][a], self.table_of[r][b]
        changed = [(a, x, -1) for x in self.members[r][ta] if x != a]
        changed += [(b, x, +1) for x in self.members[r][ta] if x != a]
        changed += [(a, y, +1) for y in self.members[r][tb] if y != b]
        changed += [(b, y, -1) for y in self.members[r][tb] if y != b]
        for p, q, step in changed:
            self.met[p][q] += step
            self.met[q][p] += step
        members = self.members[r]
        members[ta][members[ta].index(a)] = b
        members[tb][members[tb].index(b)] = a
        self.table_of[r][a], self.table_of[r][b] = tb, ta
        if self.odd[ta] != self.odd[tb]:
            into, out = (a, b) if self.odd[tb] else (b, a)
            self.odd_seats[into] += 1
            self.odd_seats[out] -= 1
        for p in range(len(self.names)):
            self._fill(r, p, (ta, tb))
        for other in range(len(self.table_of)):
            if other != r:
                self._follow(other, changed)

    def _follow(self, r: int, changed: Sequence[tuple[int, int, int]]) -> None:
        """Round `r`'s cached costs after the meetings in `changed` moved by a step."""
        table_of, entry = self.table_of[r], self.entry[r]
        for p, q, step in changed:
            now = self.met[p][q]
            for me, other in ((p, q), (q, p)):
                t = table_of[other]
                extra = t != table_of[me]
                entry[me][t] += _marginal(now + extra) - _marginal(now - step + extra)

    def tables(self, rng: random.Random) -> Tables:
        """Round 0 in seat order (shuffled, so the first deal falls to anyone)."""
        seats: list[list[str]] = [[] for _ in self.sizes]
        for p, t in enumerate(self.table_of[0]):
            seats[t].append(self.names[p])
        for table in seats:
            rng.shuffle(table)
        return tuple(tuple(table) for table in seats)


class _Tabu:
    """A tabu search over swaps of two players at different tables in one round of a plan."""

    def __init__(self, plan: _Plan, search: Search) -> None:
        self.plan, self.search = plan, search
        self.best = [list(round_) for round_ in plan.table_of]
        self.best_cost = plan.cost
        self.steps = self.move = 0
        self.tabu_until = [[0] * len(plan.names) for _ in plan.table_of]

    def restart(self, rng: random.Random) -> None:
        """Search on from the best plan, each round shaken by a few random swaps."""
        shaken = [list(round_) for round_ in self.best]
        for round_ in shaken:
            for _ in range(self.search.shake):
                a, b = rng.sample(range(len(round_)), 2)
                round_[a], round_[b] = round_[b], round_[a]
        self.plan.load(shaken)
        n = len(self.plan.names)
        self.steps += n * n * len(shaken)  # the work of starting again, counted like swaps
        self.tabu_until = [[0] * n for _ in shaken]

    def run(self, rng: random.Random) -> list[list[int]]:
        plan, search = self.plan, self.search
        floor = plan.floor()
        found = lately = 0  # the move that last improved on the best, and on this run
        run_best = plan.cost
        while self.steps < search.steps and self.best_cost > floor:
            if self.move - found >= search.patience:
                break
            if self.move - lately >= search.restart:
                # A valley the tabu list does not leave: start again from the best, shaken.
                self.restart(rng)
                run_best, lately = plan.cost, self.move
            self.move += 1
            chosen = self.best_swap(rng)
            if chosen is None:
                lately = self.move - search.restart  # every move tabu: start again
                continue
            r, a, b, delta = chosen
            plan.swap(r, a, b)
            plan.cost += delta
            self.tabu_until[r][a] = self.tabu_until[r][b] = self.move + search.tenure
            if plan.cost < run_best:
                run_best, lately = plan.cost, self.move
            if plan.cost < self.best_cost:
                self.best, self.best_cost = [list(t) for t in plan.table_of], plan.cost
                found = self.move
        return self.best

    def movers(self) -> list[tuple[int, int]]:
        """(round, player) worth moving: whoever costs something where they sit."""
        plan = self.plan
        return [
            (r, p)
            for r, round_ in enumerate(plan.table_of)
            for p, t in enumerate(round_)
            if plan.entry[r][p][t]
            or (plan.odd[t] and plan.odd_seats[p] > 1)
            or any(round_[q] != t for q in plan.partners[p])
        ]

    def best_swap(self, rng: random.Random) -> tuple[int, int, int, int] | None:
        """The cheapest swap allowed now (round, a, b, change in cost): a tabu player moves
        only when the swap beats the best plan found. `_Plan.delta`, inlined: this loop is
        where the search spends its time."""
        plan, move = self.plan, self.move
        marginal, met, odd, odd_seats = plan.marginal, plan.met, plan.odd, plan.odd_seats
        movers = self.movers()
        rng.shuffle(movers)
        chosen: tuple[int, int, int, int] | None = None
        best = 0
        worst_allowed = self.best_cost - plan.cost  # a tabu swap must gain more than this
        for r, a in movers:
            round_, tabu, entry = plan.table_of[r], self.tabu_until[r], plan.entry[r]
            ta = round_[a]
            entry_a, met_a, odd_a, odd_ta = entry[a], met[a], odd_seats[a], odd[ta]
            pair_a = plan.pair[a]
            a_free, stays = tabu[a] <= move, entry_a[ta]
            self.steps += len(round_) - len(plan.members[r][ta])
            for b, tb in enumerate(round_):
                if tb == ta:
                    continue
                entry_b = entry[b]
                delta = (
                    entry_a[tb] + entry_b[ta] - stays - entry_b[tb]
                    - 2 * (marginal[met_a[b] + 1] + pair_a[b])
                )  # fmt: skip
                if odd_ta != odd[tb]:
                    delta += (
                        odd_seats[b] - odd_a + 1 if odd_ta else odd_a - odd_seats[b] + 1
                    ) * _ODD_AGAIN
                if chosen is not None and delta >= best:
                    continue
                if (a_free and tabu[b] <= move) or delta < worst_allowed:
                    chosen, best = (r, a, b, delta), delta
        return chosen


def greedy_draw(
    players: Sequence[str],
    sizes: Sequence[int],
    past: Past,
    seed: int,
    *,
    preferred: int | None = None,
) -> Tables:
    """The baseline: players in a seeded order, each to the table where they add least."""
    plan = _Plan(players, sizes, past, preferred, 1)
    rng = random.Random(seed)
    plan.load(plan.greedy(rng))
    return plan.tables(rng)


def mix_draw(
    players: Sequence[str],
    sizes: Sequence[int],
    past: Past,
    seed: int,
    *,
    preferred: int | None = None,
    ahead: int = 0,
    search: Search | None = None,
    rules: Sequence[SeatingRule] = (),
) -> Tables:
    """Opponents repeat as little as possible over the evening: this series planned with the
    `ahead` series still to come (the same players at the same tables, as far as anyone knows
    now), from the greedy plan of the same seed, by a tabu search over swaps. The plan never
    costs more than the greedy one; with nothing ahead, the draw repeats no more than
    `greedy_draw` of the same seed. `rules` (those `in_force`) outweigh any repeat: they are
    met whenever the search finds a seating that meets them."""
    plan = _Plan(players, sizes, past, preferred, 1 + ahead, rules=rules)
    rng = random.Random(seed)
    plan.load(plan.greedy(rng))
    if search is None:
        search = RULED_SEARCH if rules else DEFAULT_SEARCH
    if len(sizes) > 1:  # at one table there is nothing to swap
        plan.load(_Tabu(plan, search).run(rng))
    return plan.tables(rng)


#: The search that mends a random or standings draw for its rules: a few players to move.
MENDING: Final = Search(steps=20_000, patience=300)


def honour(
    tables: Sequence[Sequence[str]],
    rules: Sequence[SeatingRule],
    seed: int,
    *,
    search: Search = MENDING,
) -> Tables:
    """`tables` (a random or standings draw) mended for `rules` (those `in_force`): the same
    tables where they meet every rule; else players swapped until they do (or the search finds
    no better), each kept as near the table they were drawn to as the rules allow. Each table
    keeps its players in the order of the draw (a standings table stays in rank order)."""
    order = [name for seats in tables for name in seats]
    home = [t for t, seats in enumerate(tables) for _ in seats]
    if not rules or all(rule_met(rule, tables) for rule in rules):
        return tuple(tuple(seats) for seats in tables)
    sizes = [len(seats) for seats in tables]
    plan = _Plan(order, sizes, [], None, 1, rules=rules, home=home)
    plan.load([home])
    best = _Tabu(plan, search).run(random.Random(seed))[0]
    seated: list[list[str]] = [[] for _ in tables]
    for p, t in enumerate(best):
        seated[t].append(order[p])
    return tuple(tuple(seats) for seats in seated)
