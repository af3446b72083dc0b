"""The engine's club (referee.engine.club): a club's name rules, its members, filing a game's
players under the member cap (every reason at once, a game of members never refused), and the
ledger's re-rating, which must give what rating every game from the first gives."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from club_fixture import FIXTURE, play
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine.club import (
    CHAINS,
    MAX_CLUB_NAME,
    MAX_MEMBERS,
    Club,
    ClubGame,
    Ledger,
    read_club_name,
    read_members,
)
from referee.engine.errors import GameRefused
from referee.engine.names import MAX_NAME
from referee.engine.ratings import rate_in_order
from referee.engine.records import GameRecord, SeatRecord, record_of

NIGHT = datetime(2026, 1, 8, 20, tzinfo=UTC)


def _codes(refused: pytest.ExceptionInfo[GameRefused]) -> list[tuple[str, str | None]]:
    return [(r.code, r.field) for r in refused.value.reasons]


def _club(members: int) -> Club:
    return Club(name="League", members=tuple(f"Player {n}" for n in range(members)))


# -- names and members ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "name", "code"),
    [
        ("  The   Thursday table ", "The Thursday table", None),
        ("", "", "empty_club_name"),
        ("\u200b \u202e", "", "empty_club_name"),
        ("x" * (MAX_CLUB_NAME + 1), "x" * (MAX_CLUB_NAME + 1), "club_name_too_long"),
        (7, "", "bad_input"),
    ],
)
def test_a_clubs_name_is_cleaned_as_a_players_is(raw: object, name: str, code: str | None) -> None:
    read, reasons = read_club_name(raw)
    assert read == name
    assert [r.code for r in reasons] == ([code] if code else [])
    assert all(r.field == "name" for r in reasons)


def test_founding_says_every_reason_at_once() -> None:
    with pytest.raises(GameRefused) as refused:
        Club.found("", ["Ann", 3, "x" * (MAX_NAME + 1)])
    assert _codes(refused) == [
        ("empty_club_name", "name"),
        ("bad_input", "members"),
        ("name_too_long", "members"),
    ]
    with pytest.raises(GameRefused) as crowded:
        Club.found("Big", [f"P{n}" for n in range(MAX_MEMBERS + 1)])
    assert _codes(crowded) == [("too_many_members", "members")]


def test_members_are_read_by_the_players_rule_and_kept_once() -> None:
    """One rule for a name in games and in clubs: a zero-width joiner (emoji, some scripts)
    stays; controls go; "ann" is Ann, kept once."""
    names, reasons = read_members(["Ann", " ann ", "B\x00o", "👩\u200d👩\u200d👧"])
    assert reasons == []
    assert names == ("Ann", "Bo", "👩\u200d👩\u200d👧")
    club = Club.found("Family", ["Ann", "ann"])
    assert club.members == ("Ann",)


def test_names_are_written_as_the_club_writes_them() -> None:
    club = Club(name="C", members=("Ann", "Bo"))
    assert club.canonical_names([" ann", "BO", "Cy", 3]) == ["Ann", "Bo", "Cy", 3]
    assert club.newcomers(["ann", "Cy", "cy", "Di"]) == ("Cy", "Di")


# -- filing a game's players ------------------------------------------------------------------


def test_filing_makes_newcomers_members_in_seat_order() -> None:
    club = Club(name="C", members=("Ann", "Bo"))
    joined = club.file(["Cy", "Ann", "Di"])
    assert joined.joined == ("Cy", "Di")
    assert joined.club.members == ("Ann", "Bo", "Cy", "Di")
    assert club.members == ("Ann", "Bo")  # a frozen state: the old one is unchanged


def test_the_member_cap_refuses_newcomers_that_do_not_fit() -> None:
    club = _club(MAX_MEMBERS - 2)
    assert club.can_file(["New 1", "New 2", "Player 0"])
    with pytest.raises(GameRefused) as refused:
        club.verify_filing(["New 1", "New 2", "New 3"])
    assert _codes(refused) == [("too_many_members", "players")]
    assert refused.value.reasons[0].params["max"] == MAX_MEMBERS
    assert not club.can_file(["New 1", "New 2", "New 3"])


@pytest.mark.parametrize("members", [MAX_MEMBERS, MAX_MEMBERS + 9])
def test_a_game_of_members_is_never_refused(members: int) -> None:
    """Even in a club that has more members than it may keep now (a race before the cap was
    checked under the club's lock left some with 69)."""
    club = _club(members)
    joined = club.file(["Player 3", "player 1", "Player 0"])
    assert joined.joined == () and joined.club == club
    assert not club.can_file(["Player 3", "Newcomer"])


def test_a_name_no_table_could_have_is_refused_with_its_seat() -> None:
    with pytest.raises(GameRefused) as refused:
        Club(name="C").verify_filing(["Ann", " Bo", "x" * (MAX_NAME + 1)])
    assert [(r.code, r.player) for r in refused.value.reasons] == [
        ("bad_input", 1),
        ("bad_input", 2),
    ]


def test_adding_members_is_the_same_trio() -> None:
    club = _club(MAX_MEMBERS - 1)
    assert club.add(["player 0", "Zed"]).joined == ("Zed",)
    assert not club.can_add(["Y", "Z"])
    with pytest.raises(GameRefused) as refused:
        club.verify_adding(["", "Y", "Z"])
    assert _codes(refused) == [("empty_name", "members"), ("too_many_members", "members")]


# -- the ledger -------------------------------------------------------------------------------


def _record(variant: str, places: list[tuple[str, int]], finished: bool = True) -> GameRecord:
    seats = tuple(
        SeatRecord(name, 10 * place, place, place == 1, 7, 0, 10 * place, 0, 10)
        for name, place in places
    )
    return GameRecord(variant=variant, high_wins=False, finished=finished, seats=seats)


def _from_scratch(games: list[tuple[str, str, GameRecord]]) -> Ledger:
    """Every game rated from the first, in both chains (what the ledger must agree with)."""
    kept = [
        ClubGame(game_id, variant, NIGHT + timedelta(days=n), 1, record)
        for n, (game_id, variant, record) in enumerate(games)
    ]
    alls = list(rate_in_order(g.record for g in kept))
    by_variant: dict[str, list[ClubGame]] = {}
    for game in kept:
        by_variant.setdefault(game.variant, []).append(game)
    per_variant = {
        game.game_id: after
        for variant_games in by_variant.values()
        for game, after in zip(
            variant_games, rate_in_order(g.record for g in variant_games), strict=True
        )
    }
    return Ledger(
        tuple(
            ClubGame(
                g.game_id,
                g.variant,
                g.played_at,
                1,
                g.record,
                {"all": after, "variant": per_variant[g.game_id]},
            )
            for g, after in zip(kept, alls, strict=True)
        )
    )


PEOPLE = ["Ann", "Bo", "Cy", "Di", "Ed"]
A_GAME = st.tuples(
    st.sampled_from(["contract", "rummy"]),
    st.permutations(PEOPLE).flatmap(
        lambda people: st.integers(2, 4).flatmap(
            lambda n: st.lists(st.integers(1, n), min_size=n, max_size=n).map(
                lambda places: list(zip(people[:n], places, strict=True))
            )
        )
    ),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(
    games=st.lists(A_GAME, min_size=1, max_size=8),
    changed=st.data(),
)
def test_rating_again_from_the_first_change_is_rating_everything_again(
    games: list[tuple[str, list[tuple[str, int]], bool]], changed: st.DataObject
) -> None:
    """A correction, an undo or a game that just ended: the ledger rates again from the first
    game whose places changed, and gets what rating every game from the first gets."""
    before = [(f"g{n}", v, _record(v, places, done)) for n, (v, places, done) in enumerate(games)]
    ledger = _from_scratch(before)
    index = changed.draw(st.integers(0, len(games) - 1))
    _variant, places, done = changed.draw(A_GAME)
    game_id, old_variant, _old = before[index]
    new_record = _record(old_variant, places, done)
    after = [*before[:index], (game_id, old_variant, new_record), *before[index + 1 :]]
    moved = ledger.with_records({game_id: (1, new_record)})
    assert moved == _from_scratch(after)
    assert {g.game_id for g in moved.changed_since(ledger)} <= {g for g, _v, _r in after[index:]}


def test_a_game_filed_takes_its_place_by_date_and_an_unfinished_one_is_not_rated() -> None:
    records = [record_of(play(*game)) for game in FIXTURE]
    ledger = Ledger()
    for n, record in enumerate(records):
        game = ClubGame(f"g{n}", record.variant, NIGHT + timedelta(days=n))
        ledger = ledger.filed(game, 5, record)
    # Filed late but played first: every rating after it moves.
    early = ClubGame("g-early", "contract", NIGHT - timedelta(days=1))
    first = records[0]
    filed = ledger.filed(early, 3, first)
    assert [g.game_id for g in filed.games] == ["g-early", "g0", "g1", "g2", "g3"]
    assert filed.games[0].version == 3 and filed.games[0].rating_after("all") is not None
    assert {g.game_id for g in filed.changed_since(ledger)} == {"g-early", "g0", "g1", "g3"}
    unfinished = filed.games[3]  # G3 is not over
    assert unfinished.game_id == "g2" and unfinished.ratings == dict.fromkeys(CHAINS)
    assert ledger.key == "4:20" and filed.key == "5:23"
