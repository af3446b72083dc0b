"""The engine's errors, refusals and rule verdicts: stable codes with plain parameters, no words.

A `RefereeError` is input the engine cannot work with; a refusal (`GameRefused`, an evening's
`EventRefused`) gives every `Reason` an operation is refused at once, and `allowed` turns a
`verify_x()` into its `can_x()`, for a game, a club and an evening alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

Params = Mapping[str, Any]

_EMPTY: Params = MappingProxyType({})


class RefereeError(ValueError):
    """Input the engine cannot work with. `code` names the failure; `params` fill its message."""

    code = "bad_input"

    def __init__(self, code: str | None = None, /, **params: Any) -> None:
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = params
        detail = ", ".join(f"{key}={value!r}" for key, value in params.items())
        super().__init__(f"{self.code}: {detail}" if detail else self.code)


class CardNotationError(RefereeError):
    """A token that is not a card (`params['token']` is the token)."""

    code = "bad_card"


class UnknownVariantError(RefereeError):
    """A variant id or alias that is not registered."""

    code = "unknown_variant"


class HouseRuleError(RefereeError):
    """A house rule with an unknown name or a value the rule cannot take."""

    code = "bad_house_rule"


class RoundError(RefereeError):
    """A round number outside the variant's rounds, or a round in a game without rounds."""

    code = "bad_round"


class PlayersError(RefereeError):
    """A number of players the variant does not allow."""

    code = "bad_players"


# -- what a refusal says ----------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """One reason an operation is refused: a code with its params, and what it is about."""

    code: str
    params: Params = field(default_factory=lambda: _EMPTY)
    player: int | None = None  # the seat it is about
    field: str | None = None  # the input it is about: round, went_out, penalty, cards, buys...

    @classmethod
    def of(cls, error: RefereeError, *, field: str | None = None) -> Reason:
        """An input error (a bad variant, house rule, round...) as a reason, said of `field`."""
        return cls(error.code, MappingProxyType(error.params), None, field)


def reason(
    code: str, /, *, player: int | None = None, field: str | None = None, **params: Any
) -> Reason:
    """A reason to refuse, with its params, said of a seat and an input where there is one."""
    return Reason(code, MappingProxyType(params), player, field)


class GameRefused(RefereeError):
    """An operation the game cannot take; `reasons` holds every reason, the first one first.

    The error's own `code` and `params` are the first reason's, so it reads like any other
    `RefereeError` where one sentence is enough.
    """

    def __init__(self, reasons: Sequence[Reason]) -> None:
        if not reasons:
            raise ValueError("a refusal needs at least one reason")
        first = reasons[0]
        super().__init__(first.code, **first.params)
        self.reasons: tuple[Reason, ...] = tuple(reasons)


class EventRefused(GameRefused):
    """An operation a club night cannot take (`referee.engine.events`): the same shape as a
    game's refusal, every reason at once, so a caller that answers one answers the other."""


def allowed(verify: Callable[[], object]) -> bool:
    """Whether `verify()` lets the operation through: the `can_x()` of pokerkit's trio, from
    its `verify_x()` (a game's, a club's, an evening's)."""
    try:
        verify()
    except GameRefused:
        return False
    return True


# -- rule verdicts ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Violation:
    """One reason a meld, contract or lay-off breaks the rules."""

    code: str
    params: Params = field(default_factory=lambda: _EMPTY)
    meld: int | None = None

    def at(self, meld: int) -> Violation:
        """The same violation, said of the meld at index `meld`."""
        return Violation(self.code, self.params, meld)


# Every code the engine can produce, for the translation tests and the API docs.
ERROR_CODES = frozenset(
    {
        "bad_input",
        "bad_card",
        "unknown_variant",
        "bad_house_rule",
        "bad_round",
        "bad_players",
        "no_contract",
        "too_many_cards",
        "hand_too_short",
        "unknown_house_rule",
        "deal_length",
        # round results
        "two_players_out",
        "no_player_out",
        "rummy_needs_going_out",
        "impossible_penalty",
        "penalty_below_whole_hand",
    }
)

# A game's refusals (`referee.engine.game`): starting, entering, correcting, undoing.
GAME_CODES = frozenset(
    {
        "empty_name",
        "name_too_long",
        "duplicate_name",
        "unknown_player",
        "game_finished",
        "round_out_of_order",
        "no_such_round",
        "nothing_changed",
        "ends_game_early",
        "nothing_to_undo",
        "not_the_last_change",
        "nothing_to_restore",
        "cannot_restore",
        "rummy_not_in_variant",
        "buying_off",
        "too_many_buys",
        "out_with_cards",
        "no_penalty",
        "penalty_mismatch",
        "hand_too_big",
        "hand_too_small",
    }
)

VIOLATION_CODES = frozenset(
    {
        # a single meld
        "too_few_cards",
        "not_same_rank_or_suit",
        "set_ranks_differ",
        "run_suits_differ",
        "set_too_large",
        "set_suits_repeat",
        "run_ranks_repeat",
        "run_gap",
        "run_around_the_corner",
        "run_too_long",
        "ace_low_only",
        "no_natural_card",
        "too_many_jokers",
        "jokers_not_allowed",
        "joker_declaration_mismatch",
        "joker_not_declared",
        "too_many_copies",
        # a contract
        "wrong_sets_and_runs",
        "contract_run_too_short",
        "contract_set_too_short",
        "runs_same_suit_and_start",
        "runs_same_suit",
        "sets_same_rank",
        "last_round_goes_out",
        # going out
        "going_out_needs_discard",
        "going_out_no_discard",
        "last_round_no_discard",
        "discard_taken_this_turn",
        # lay-offs and joker swaps
        "layoff_changes_meld",
        "nothing_to_lay_off",
        "joker_swap_not_allowed",
        "joker_swap_in_set",
        "no_joker_to_swap",
        "swap_card_does_not_fit",
        "layoff_before_contract",
        "layoff_same_turn_as_contract",
        "swap_before_contract",
        "swap_same_turn_as_contract",
        "swap_from_own_meld",
    }
)

# A club night's refusals (`referee.engine.events`, `seating`, `tournament`), beside the codes
# above they share (bad_input, empty_name, name_too_long, unknown_player, unknown_variant...).
# In ALL_CODES: the web layer gives each its sentence (tests/web/words/test_messages.py holds
# ALL_CODES to the messages).
EVENT_CODES = frozenset(
    {
        # the settings
        "bad_series_count",
        "bad_table_size",
        "table_sizes_out_of_order",
        "table_size_not_in_variant",
        "bad_series_rounds",
        "unknown_draw_method",
        "bad_seed",
        "unknown_scheme",
        "bad_place_points",
        "place_points_not_descending",
        "bad_bonus",
        "bonus_not_descending",
        "bad_tie_breaks",
        # check-in
        "no_series_left",
        "already_checked_in",
        "already_left",
        "seated_in_next_series",
        "check_in_closed",
        "no_check_in_to_undo",
        # the draw
        "too_few_players",
        "too_many_players",
        "players_cannot_be_split",
        "all_series_drawn",
        "series_already_drawn",
        "series_out_of_order",
        "series_still_playing",
        "no_standings_yet",
        "not_the_newest_series",
        "series_started",
        "no_such_series",
        "no_such_table",
        # the host's swap
        "not_seated",
        "same_player",
        "same_table",
        # the host's move of one player to another table
        "table_too_small",
        "table_too_large",
        "already_at_table",
        # a series fixed once the next is drawn, reopened by the host
        "series_closed",
        "series_not_closed",
        "series_already_reopened",
        "series_not_reopened",
        "series_reopened",
        # a series' clock
        "bad_series_minutes",
        "unknown_clock_rule",
        "series_has_no_clock",
        "clock_already_paused",
        "clock_not_paused",
        "clock_ran_out",
        "bad_extra_minutes",
        "too_many_extra_minutes",
        "table_already_finishing",
        "series_time_up",
        # the tables' games
        "game_already_attached",
        "bad_result",
        "too_many_rounds",
        "no_rounds_played",
        "game_seats_differ",
        "game_rules_differ",
        # seating rules (keep apart, keep together, a fixed table)
        "bad_seating_rule",
        "too_many_seating_rules",
        "rule_names_a_stranger",
        "apart_from_themself",
        "together_with_themself",
        "fixed_table_out_of_range",
        "seating_rule_twice",
        "rules_contradict",
        "two_fixed_tables",
    }
)

# A pack of drills that cannot be drawn (`referee.engine.drills`), beside `bad_seed`,
# `bad_players` and `no_contract`.
DRILL_CODES = frozenset(
    {
        "unknown_drill_kind",
        "bad_drill_level",
        "bad_drill_count",
        "no_drills_of_kind",
        "too_few_drills",
    }
)

# What a valid lay-off or joker swap waits for where the check was not told (a verdict's
# `conditions`, said like violations).
CONDITION_CODES = frozenset(
    {
        "once_contract_down",
        "once_contract_down_next_turn",
        "swap_use_joker_this_turn",
        "swap_from_another_players_meld",
    }
)

# A club's season that cannot be (`referee.engine.seasons`).
SEASON_CODES = frozenset(
    {
        "empty_season_name",
        "season_name_too_long",
        "season_ends_before_start",
        "season_without_evenings",
        "too_many_season_evenings",
        "unknown_season_rule",
        "bad_best_evenings",
        "bad_min_evenings",
    }
)

ALL_CODES = (
    ERROR_CODES
    | GAME_CODES
    | VIOLATION_CODES
    | CONDITION_CODES
    | EVENT_CODES
    | DRILL_CODES
    | SEASON_CODES
)
