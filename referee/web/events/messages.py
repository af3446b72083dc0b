"""Club nights' codes in words (the engine's `Event` refusals and what the events feature
adds: an evening not found or changed meanwhile, a date, the API's names), registered with
`vocabulary.messages` beside the service."""

from __future__ import annotations

from flask_babel import gettext, ngettext

from referee.web.vocabulary.messages import Message, plural_count, register

SENTENCES: dict[str, Message] = {
    "event_not_found": lambda p: gettext("There is no club night at this address."),
    "stale_event_version": lambda p: gettext(
        "The evening changed on another phone meanwhile (it is at version %(current)s, this "
        "page showed %(version)s): look at it again, then do it once more.",
        **p,
    ),
    "bad_event_date": lambda p: gettext("“%(date)s” is not a date: write it as 2025-03-07.", **p),
    "no_names": lambda p: gettext("Name at least one player."),
    "one_name_at_a_time": lambda p: gettext("One player leaves at a time: name one."),
    "swap_two_players": lambda p: gettext("A swap names two players, one at each table."),
    "move_names_a_table": lambda p: gettext(
        "A move names one player (“name”) and the table they go to (“table”)."
    ),
    "bad_event_file": lambda p: gettext(
        "This is not a club night saved by Rummy Referee (a .json file from an evening’s page)."
    ),
    "bad_series_count": lambda p: gettext(
        "An evening has %(min)s to %(max)s series, not %(series)s.", **p
    ),
    "bad_table_size": lambda p: gettext(
        "A table seats %(min)s to %(max)s players, not %(size)s.", **p
    ),
    "table_sizes_out_of_order": lambda p: gettext(
        "The table sizes must go smallest (%(smallest)s), preferred (%(preferred)s), largest "
        "(%(largest)s), each at least the one before.",
        **p,
    ),
    "table_size_not_in_variant": lambda p: gettext(
        "This variant is played by %(min_players)s to %(max_players)s players: no table of "
        "%(size)s.",
        **p,
    ),
    "bad_series_rounds": lambda p: gettext(
        "A series of rounds has 1 to %(max)s rounds, not %(rounds)s.", **p
    ),
    "unknown_draw_method": lambda p: gettext(
        "“%(method)s” is no way to draw: mix, standings or random.", **p
    ),
    "bad_seed": lambda p: gettext("A seed is a whole number from 0 to %(max)s.", **p),
    "unknown_scheme": lambda p: gettext(
        "“%(scheme)s” is no tournament scheme: romme, placement or points.", **p
    ),
    "bad_place_points": lambda p: gettext(
        "A table of %(size)s needs whole place points, one for each place.", **p
    ),
    "place_points_not_descending": lambda p: gettext(
        "At a table of %(size)s a better place must earn at least the points of a worse one.",
        **p,
    ),
    "bad_bonus": lambda p: gettext(
        "The bonus is at most %(max)s steps, each two whole numbers: points left, bonus.", **p
    ),
    "bonus_not_descending": lambda p: gettext(
        "The bonus must be larger the fewer points are left."
    ),
    "bad_tie_breaks": lambda p: gettext("Ties can only be broken by: %(allowed)s.", **p),
    "no_series_left": lambda p: gettext(
        "All %(series)s series are drawn: nobody can join the evening now.", **p
    ),
    "already_checked_in": lambda p: gettext("%(name)s is already checked in.", **p),
    "already_left": lambda p: gettext("%(name)s has already left.", **p),
    "seated_in_next_series": lambda p: gettext(
        "%(name)s sits at table %(table)s of series %(series)s, drawn and not started: swap "
        "them out or draw the series again first.",
        **p,
    ),
    "too_few_players": lambda p: gettext(
        "Drawing needs at least %(min)s players; %(players)s are checked in for this series.",
        **p,
    ),
    "too_many_players": lambda p: gettext("An evening seats at most %(max)s players.", **p),
    "players_cannot_be_split": lambda p: gettext(
        "%(players)s players cannot be split into tables of these sizes: check one in or let "
        "one leave.",
        **p,
    ),
    "all_series_drawn": lambda p: gettext("All %(series)s series are drawn.", **p),
    "series_already_drawn": lambda p: gettext(
        "Series %(series)s is already drawn (on another phone, perhaps): here it is.", **p
    ),
    "series_out_of_order": lambda p: gettext(
        "The next series to draw is series %(expected)s, not %(series)s.", **p
    ),
    "series_still_playing": lambda p: gettext(
        "Series %(series)s is still being played at table %(tables)s: the next series is drawn "
        "once every table has finished.",
        **p,
    ),
    "no_standings_yet": lambda p: gettext(
        "The first series cannot be drawn by standings: there are none yet."
    ),
    "not_the_newest_series": lambda p: gettext(
        "Only the newest series can be drawn again, not series %(series)s.", **p
    ),
    "series_started": lambda p: gettext("Series %(series)s has started: its seats are fixed.", **p),
    "no_such_series": lambda p: gettext("There is no series %(series)s yet.", **p),
    "no_such_table": lambda p: gettext("Series %(series)s has no table %(table)s.", **p),
    "not_seated": lambda p: gettext("%(name)s has no seat in series %(series)s.", **p),
    "same_player": lambda p: gettext(
        "Swap two different players, not %(name)s with themself.", **p
    ),
    "same_table": lambda p: gettext(
        "Both sit at table %(table)s: a swap moves two players between tables.", **p
    ),
    "already_at_table": lambda p: gettext("%(name)s already sits at table %(table)s.", **p),
    "table_too_small": lambda p: gettext(
        "Table %(table)s would have fewer than %(size)s players left: move someone else there "
        "first, or swap two players.",
        **p,
    ),
    "table_too_large": lambda p: gettext(
        "Table %(table)s already seats %(size)s players, the most this evening allows: swap "
        "two players instead.",
        **p,
    ),
    "bad_series_minutes": lambda p: gettext(
        "A series' time limit is %(min)s to %(max)s minutes, not %(minutes)s.", **p
    ),
    "unknown_clock_rule": lambda p: gettext(
        "“%(rule)s” is no rule for the end of the time: finish_round or one_more.", **p
    ),
    "series_has_no_clock": lambda p: gettext("Series %(series)s is played without a clock.", **p),
    "clock_already_paused": lambda p: gettext(
        "The clock of series %(series)s is paused already.", **p
    ),
    "clock_not_paused": lambda p: gettext("The clock of series %(series)s is not paused.", **p),
    "clock_ran_out": lambda p: gettext(
        "The time of series %(series)s has run out: there is no clock left to pause.", **p
    ),
    "bad_extra_minutes": lambda p: gettext(
        "Extra time is 1 to %(max)s minutes at once, not %(minutes)s.", **p
    ),
    "too_many_extra_minutes": lambda p: gettext(
        "Table %(table)s would have more than %(max)s extra minutes.", **p
    ),
    "table_already_finishing": lambda p: gettext(
        "Table %(table)s is already playing its last round or has finished.", **p
    ),
    "series_time_up": lambda p: gettext(
        "The time for series %(series)s has run out: round %(rounds)s was this table's last.",
        **p,
    ),
    "series_closed": lambda p: gettext(
        "Series %(series)s is over and series %(next)s is drawn: its results stand. The host "
        "can reopen it on the evening's page.",
        **p,
    ),
    "series_not_closed": lambda p: gettext(
        "Series %(series)s is still open: only a series the next draw has fixed is reopened.",
        **p,
    ),
    "series_already_reopened": lambda p: gettext("Series %(series)s is already reopened.", **p),
    "series_not_reopened": lambda p: gettext(
        "Series %(series)s is not reopened: there is nothing to close.", **p
    ),
    "series_reopened": lambda p: gettext(
        "Series %(series)s is reopened: close it again before the next series is drawn.", **p
    ),
    "game_already_attached": lambda p: gettext(
        "Table %(table)s of series %(series)s already has its game.", **p
    ),
    "bad_result": lambda p: ngettext(
        "A table's result has one total for its %(num)d seat.",
        "A table's result has one total for each of its %(num)d seats.",
        plural_count(p["seats"]),
    ),
    "too_many_rounds": lambda p: gettext(
        "A table of this evening plays at most %(max)s rounds, not %(rounds)s.", **p
    ),
    "no_rounds_played": lambda p: gettext(
        "Table %(table)s cannot have finished without a round played.", **p
    ),
    "game_seats_differ": lambda p: gettext(
        "That game's players are not those of table %(table)s in series %(series)s.", **p
    ),
    "game_rules_differ": lambda p: gettext(
        "That game is not played by the evening's rules (table %(table)s, series %(series)s).",
        **p,
    ),
    "bad_seating_rule": lambda p: gettext(
        "A seating rule keeps two players apart or together, or one player at a table: choose "
        "the players (and the table)."
    ),
    "too_many_seating_rules": lambda p: gettext(
        "An evening has at most %(max)s seating rules, not %(rules)s.", **p
    ),
    "rule_names_a_stranger": lambda p: gettext(
        "%(name)s is not a player of this evening: check them in first.", **p
    ),
    "apart_from_themself": lambda p: gettext(
        "%(name)s cannot be kept apart from themself: choose two players.", **p
    ),
    "together_with_themself": lambda p: gettext(
        "%(name)s cannot be kept together with themself: choose two players.", **p
    ),
    "fixed_table_out_of_range": lambda p: gettext(
        "Table %(table)s is not a table of this evening: choose one from 1 to %(max)s.", **p
    ),
    "seating_rule_twice": lambda p: gettext("That seating rule is there already."),
    "rules_contradict": lambda p: gettext(
        "%(first)s and %(second)s cannot be kept apart and together at once: remove the other "
        "rule first.",
        **p,
    ),
    "two_fixed_tables": lambda p: gettext(
        "%(name)s already has table %(table)s: remove that rule first.", **p
    ),
    "no_such_seating_rule": lambda p: gettext(
        "That seating rule is gone already (removed on another phone, perhaps)."
    ),
}

register(SENTENCES)
