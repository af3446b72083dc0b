"""A club's records and stats (referee.engine.records) against a fixture worked out by hand, and
OpenSkill ratings (referee.engine.ratings) against openskill called directly."""

from __future__ import annotations

import pytest
from club_fixture import FIXTURE, MEMBERS, play
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from referee.engine.ratings import DEFAULT, Rating, rate, rate_in_order
from referee.engine.records import (
    GameRecord,
    Meetings,
    head_to_head,
    never_ahead,
    places_of,
    player_stats,
    record_of,
)


@pytest.fixture(scope="module")
def records() -> list[GameRecord]:
    return [record_of(play(*game)) for game in FIXTURE]


def test_a_record_holds_totals_places_wins_and_rounds(records: list[GameRecord]) -> None:
    g1, g2, g3, g4 = records
    assert [(s.name, s.total, s.place, s.won) for s in g1.seats] == [
        ("Ann", 35, 1, True), ("Bo", 80, 2, False), ("Cy", 115, 3, False),
    ]  # fmt: skip
    # Equal totals share a place; the engine's tie-break leaves both winning: a shared win.
    assert [(s.total, s.place, s.won) for s in g2.seats] == [
        (60, 1, True), (60, 1, True), (70, 3, False),
    ]  # fmt: skip
    assert g2.winners == ("Ann", "Bo")
    assert not g3.finished and g3.winners == ()
    # Where the winner collects, the highest total is first and the best round the highest.
    assert g4.high_wins and g4.places == (1, 2)
    cy, di = g4.seats
    assert (cy.best, cy.worst, cy.rounds_out, cy.points) == (65, 0, 2, 105)
    assert (di.best, di.worst, di.rounds_out) == (30, 0, 1)
    ann = g1.seats[0]
    assert (ann.rounds, ann.rounds_out, ann.points, ann.best, ann.worst) == (7, 4, 35, 0, 20)


def test_a_record_survives_json(records: list[GameRecord]) -> None:
    for record in records:
        assert GameRecord.from_json(record.to_json()) == record


def test_stats_of_every_member_as_worked_out_by_hand(records: list[GameRecord]) -> None:
    stats = {s.name: s for s in player_stats(records, MEMBERS)}
    ann, bo, cy, di = (stats[name] for name in MEMBERS)
    # Ann: G1 and G2 (a shared win counts), 14 rounds, 95 points, out 6 times.
    assert (ann.games, ann.finished, ann.wins, ann.win_rate) == (2, 2, 2, 1.0)
    assert (ann.rounds, ann.points, ann.rounds_out) == (14, 95, 6)
    assert ann.average_round == pytest.approx(95 / 14)
    assert (ann.best, ann.worst, ann.longest_streak) == (0, 20, 2)
    # Bo: the unfinished G3 counts as a game and its rounds, not as a finished game.
    assert (bo.games, bo.finished, bo.wins, bo.win_rate) == (3, 2, 1, 0.5)
    assert (bo.rounds, bo.points, bo.rounds_out) == (16, 165, 5)
    assert (bo.best, bo.worst, bo.longest_streak) == (0, 30, 1)
    # Cy: the rummy game's rounds count for points, not for best and worst (a round of 0 is
    # the best in a penalty game and the worst where the winner collects).
    assert (cy.games, cy.finished, cy.wins) == (3, 2, 1)
    assert (cy.rounds, cy.points, cy.rounds_out) == (12, 230, 4)
    assert (cy.best, cy.worst, cy.longest_streak) == (0, 40, 1)
    assert (di.games, di.finished, di.wins, di.win_rate) == (3, 2, 0, 0.0)
    assert (di.rounds, di.points, di.rounds_out) == (12, 120, 4)
    assert (di.best, di.worst, di.longest_streak) == (0, 30, 0)


def test_stats_of_one_variant(records: list[GameRecord]) -> None:
    rummy = {s.name: s for s in player_stats([r for r in records if r.high_wins], MEMBERS)}
    assert (rummy["Cy"].wins, rummy["Cy"].best, rummy["Cy"].worst) == (1, 65, 0)
    assert rummy["Ann"].games == 0 and rummy["Ann"].win_rate is None
    assert rummy["Ann"].average_round is None and rummy["Ann"].best is None


def test_the_longest_streak_is_wins_in_a_row_over_finished_games() -> None:
    # the last round is laid down only by going out: the others still hold the whole deal
    won = play("short", ["Ann", "Bo", "Cy"], [(0, {1: 60, 2: 60})] * 5)
    lost = play("short", ["Ann", "Bo", "Cy"], [(1, {0: 60, 2: 65})] * 5)
    running = play("short", ["Ann", "Bo", "Cy"], [(1, {0: 10, 2: 5})])  # unfinished: no break
    records = [record_of(g) for g in (won, won, lost, won, running, won, won, won, lost)]
    ann = player_stats(records, ["Ann"])[0]
    assert ann.longest_streak == 4 and ann.wins == 6


def test_head_to_head_and_who_cant_beat_whom(records: list[GameRecord]) -> None:
    meetings = head_to_head(records)
    assert meetings[("Ann", "Bo")] == Meetings(ahead=1, behind=0, level=1)
    assert meetings[("Bo", "Ann")] == Meetings(ahead=0, behind=1, level=1)
    assert meetings[("Cy", "Di")] == Meetings(1, 0, 0)  # the rummy game: Cy first
    assert ("Bo", "Di") in meetings and ("Ann", "Ann") not in meetings
    assert ("Cy", "Di") in meetings and meetings[("Di", "Cy")] == Meetings(0, 1, 0)
    # No pair met three times: nothing to say yet; over one game, Di never beat anyone.
    assert never_ahead(meetings) == []
    losers = {(a, b) for a, b, _m in never_ahead(meetings, at_least=1)}
    assert {("Di", "Ann"), ("Di", "Bo"), ("Di", "Cy"), ("Bo", "Ann")} <= losers
    assert ("Ann", "Bo") not in losers


@given(st.lists(st.integers(0, 300), min_size=2, max_size=8), st.booleans())
def test_equal_totals_share_a_place_and_better_totals_come_first(
    totals: list[int], high_wins: bool
) -> None:
    places = places_of(totals, high_wins=high_wins)
    for a, place_a in zip(totals, places, strict=True):
        for b, place_b in zip(totals, places, strict=True):
            better = a > b if high_wins else a < b
            assert (place_a < place_b) == better and (a == b) == (place_a == place_b)
    assert min(places) == 1


# -- ratings --------------------------------------------------------------------------------


def _direct(ratings: dict[str, object], names: list[str], ranks: list[int]) -> None:
    """openskill itself: rate the named players from `ratings` (new ones from the model)."""
    model = PlackettLuce()
    teams = [[ratings.setdefault(name, model.rating())] for name in names]
    for name, team in zip(names, model.rate(teams, ranks=ranks), strict=True):  # type: ignore[arg-type]
        ratings[name] = team[0]


def test_ratings_are_openskill_plackett_luce_over_finished_games_in_date_order(
    records: list[GameRecord],
) -> None:
    expected: dict[str, object] = {}
    _direct(expected, ["Ann", "Bo", "Cy"], [1, 2, 3])
    _direct(expected, ["Ann", "Bo", "Di"], [1, 1, 3])  # equal totals share a place
    _direct(expected, ["Cy", "Di"], [1, 2])  # G3 is not finished: not rated
    afters = list(rate_in_order(records))
    assert afters[2] is None
    current: dict[str, Rating] = {}
    for after in afters:
        current.update(after or {})
    for name in MEMBERS:
        rating = expected[name]
        assert current[name].mu == pytest.approx(rating.mu, abs=1e-9)  # type: ignore[attr-defined]
        assert current[name].sigma == pytest.approx(rating.sigma, abs=1e-9)  # type: ignore[attr-defined]
        assert current[name].ordinal == pytest.approx(rating.ordinal(), abs=1e-9)  # type: ignore[attr-defined]


def test_a_newcomer_starts_from_the_models_defaults(records: list[GameRecord]) -> None:
    model = PlackettLuce()
    assert (DEFAULT.mu, DEFAULT.sigma) == (model.mu, model.sigma)
    assert DEFAULT.ordinal == pytest.approx(model.rating().ordinal())
    after = rate({}, records[3])
    assert after["Cy"].mu > DEFAULT.mu > after["Di"].mu


def test_ratings_go_on_from_a_given_start(records: list[GameRecord]) -> None:
    """Rating again from a game on, from everyone's ratings before it, gives what rating
    everything from the start gives (what the club store does after a correction)."""
    whole = list(rate_in_order(records))
    before: dict[str, Rating] = {}
    for after in whole[:1]:
        before.update(after or {})
    assert list(rate_in_order(records[1:], before)) == whole[1:]
