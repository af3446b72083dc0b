"""Engine and web codes become sentences here: the rules' codes (cards, melds, contracts, going
out, lay-offs, numbers as typed) are said in this module; each feature registers its own codes
and their sentences beside its service (`register`, from `<feature>/messages.py`).

`describe(code, params)` turns a `RefereeError`, a `Violation` or a game's `Reason` into a
sentence in the current locale; the words inside it (cards, contracts, players) come from
`referee.web.vocabulary.words`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from referee.engine.errors import ALL_CODES, Reason, RefereeError, Violation

from .words import (
    card_label,
    cards_or,
    house_rule_label,
    joker_notation,
    meld_kind_label,
    melds_count_text,
    player_label,
    players_label,
    rank_label,
    suit_name,
    times_text,
    variant_name,
)

_EXPECTED: Final[Mapping[str, Any]] = {
    "integer": _l("a whole number"),
    "boolean": _l("true or false"),
    "string": _l("text"),
    "cards": _l("cards as text or a list of texts"),
    "melds": _l("a list of melds"),
    "object": _l("an object"),
    "contract_down": _l("“no”, “this_turn” or “earlier_turn”"),
    "card": _l("one card"),
}

Message = Callable[[dict[str, Any]], str]


def _num(value: Any) -> int:
    """The number that picks the plural form."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, Sequence) and not isinstance(value, str):
        return len(value)
    try:
        return int(value)
    except (TypeError, ValueError):
        return 2


#: The number that picks a plural form, for the features' sentences (their `messages.py`).
plural_count: Final = _num


def _bad_input(p: dict[str, Any]) -> str:
    if p.get("field"):
        return gettext("“%(field)s” could not be read.", **p)
    return gettext("That input could not be read.")


def _bad_house_rule(p: dict[str, Any]) -> str:
    if p.get("low") is not None and p.get("high") is not None:
        return gettext(
            "The house rule “%(rule)s” must be between %(low)s and %(high)s, not %(value)s.", **p
        )
    if p.get("rule") == "house_rules":
        return gettext("House rules must be an object of names and values.")
    return gettext("The house rule “%(rule)s” cannot be %(value)s.", **p)


def _bad_round(p: dict[str, Any]) -> str:
    if not p.get("rounds"):
        return gettext("Round %(round)s does not exist: rounds are counted from 1.", **p)
    return gettext("Round %(round)s does not exist: this game has rounds 1 to %(rounds)s.", **p)


def _run_gap(p: dict[str, Any]) -> str:
    missing = p["missing_count"]
    if p.get("jokers_count") in (None, 0):
        return ngettext(
            "The run has a gap of %(num)d card and no joker to fill it.",
            "The run has gaps of %(num)d cards and no joker to fill them.",
            missing,
        )
    return ngettext(
        "The run is missing %(num)d card more than its jokers can fill.",
        "The run is missing %(num)d cards more than its jokers can fill.",
        missing,
    )


def _wrong_sets_and_runs(p: dict[str, Any]) -> str:
    return gettext("The contract asks for %(wanted)s; these melds are %(got)s.", **p)


def _too_many_cards(p: Mapping[str, Any]) -> str:
    if "count" in p:  # a hand longer than the round allows (RULES.md "Hand sizes")
        return ngettext(
            "A hand can hold at most %(num)d card here (the cards dealt, the card drawn and "
            "what buying brings); this one has %(count)d.",
            "A hand can hold at most %(num)d cards here (the cards dealt, the card drawn and "
            "what buying brings); this one has %(count)d.",
            _num(p["limit"]),
            count=_num(p["count"]),
        )
    return ngettext(
        "That is too many cards: at most %(num)d at once.",
        "That is too many cards: at most %(num)d at once.",
        _num(p["limit"]),
    )


def _hand_too_short(p: Mapping[str, Any]) -> str:
    """A whole hand going out shorter than the cards dealt and the one drawn (RULES.md, fourth
    reading); where even the contract's melds and a discard hold fewer, going out needs
    lay-offs, and the sentence says so."""
    said = ngettext(
        "A whole hand going out holds at least %(num)d card here (the cards dealt and the card "
        "drawn); this one has %(count)d.",
        "A whole hand going out holds at least %(num)d cards here (the cards dealt and the card "
        "drawn); this one has %(count)d.",
        _num(p["least"]),
        count=_num(p["count"]),
    )
    if "most" not in p:
        return said
    return ngettext(
        "%(said)s In this round the contract’s melds and a discard hold at most %(num)d card: "
        "going out needs lay-offs as well.",
        "%(said)s In this round the contract’s melds and a discard hold at most %(num)d cards: "
        "going out needs lay-offs as well.",
        _num(p["most"]),
        said=said,
    )


_MESSAGES: Final[dict[str, Message]] = {
    # -- input errors --
    "bad_input": _bad_input,
    "bad_card": lambda p: gettext(
        "“%(token)s” is not a card. Write a rank and a suit, like 10H, Q♠ or JK.", **p
    ),
    "too_many_cards": _too_many_cards,
    "hand_too_short": _hand_too_short,
    "unknown_variant": lambda p: gettext("There is no variant called “%(variant)s”.", **p),
    "bad_house_rule": _bad_house_rule,
    "unknown_house_rule": lambda p: gettext("There is no house rule called “%(rule)s”.", **p),
    "deal_length": lambda p: gettext(
        "The deal lists %(deal)s rounds but the contracts %(rounds)s; they must match.", **p
    ),
    "bad_round": _bad_round,
    "no_contract": lambda p: gettext(
        "%(variant)s has no contracts: any sets and runs may be laid down at any time.", **p
    ),
    "bad_players": lambda p: gettext(
        "This game is for %(min_players)s to %(max_players)s players, not %(players)s.", **p
    ),
    "two_players_out": lambda p: gettext(
        "Only one player can go out in a round, but %(players)s are marked as out.", **p
    ),
    "no_player_out": lambda p: gettext(
        "In this game a round ends when someone goes out: mark who went out."
    ),
    "rummy_needs_going_out": lambda p: gettext(
        "%(player)s can only score a rummy by going out.", **p
    ),
    "impossible_penalty": lambda p: gettext(
        "No hand %(player)s could hold at the end of this round is worth %(penalty)s points.",
        **p,
    ),
    "penalty_below_whole_hand": lambda p: gettext(
        "Nothing is laid down before going out in this round, so %(player)s still holds all "
        "%(cards)s cards: at least %(least)s points, not %(penalty)s.",
        **p,
    ),
    # -- a single meld --
    "too_few_cards": lambda p: ngettext(
        "A meld needs at least %(num)d card; this one has %(count)s.",
        "A meld needs at least %(num)d cards; this one has %(count)s.",
        _num(p["min"]),
        count=p["count"],
    ),
    "not_same_rank_or_suit": lambda p: gettext(
        "These cards are neither one rank (a set) nor one suit in order (a run)."
    ),
    "set_ranks_differ": lambda p: gettext("The cards of a set must all be of one rank."),
    "run_suits_differ": lambda p: gettext("The cards of a run must all be of one suit."),
    "set_too_large": lambda p: ngettext(
        "A set holds at most %(num)d card here; this one has %(count)s.",
        "A set holds at most %(num)d cards here; this one has %(count)s.",
        _num(p["max"]),
        count=p["count"],
    ),
    "set_suits_repeat": lambda p: gettext(
        "The cards of a set must all differ in suit here; this one has more than one card "
        "of %(suit)s.",
        **p,
    ),
    "run_ranks_repeat": lambda p: gettext(
        "A run holds each rank once; this one has the rank %(rank)s twice.", **p
    ),
    "run_gap": _run_gap,
    "run_around_the_corner": lambda p: gettext(
        "A run may not go around the corner from king over ace to two (K-A-2)."
    ),
    "run_too_long": lambda p: ngettext(
        "A run holds at most %(num)d card; this one has %(count)s.",
        "A run holds at most %(num)d cards; this one has %(count)s.",
        _num(p["max"]),
        count=p["count"],
    ),
    "ace_low_only": lambda p: gettext(
        "In this game the ace is low only: A-2-3 is a run, Q-K-A is not."
    ),
    "no_natural_card": lambda p: ngettext(
        "Every meld needs at least %(num)d card that is not a joker.",
        "Every meld needs at least %(num)d cards that are not jokers.",
        _num(p["min"]),
    ),
    "too_many_jokers": lambda p: ngettext(
        "A meld may hold at most %(num)d joker here; this one has %(count)s.",
        "A meld may hold at most %(num)d jokers here; this one has %(count)s.",
        _num(p["max"]),
        count=p["count"],
    ),
    "jokers_not_allowed": lambda p: gettext("This game is played without jokers."),
    "joker_declaration_mismatch": lambda p: gettext(
        "The joker declared as %(joker)s does not fit this meld.", **p
    ),
    "joker_not_declared": lambda p: gettext(
        "Say which card the joker stands for, like %(example)s: here it could be %(options)s.",
        **p,
    ),
    "too_many_copies": lambda p: ngettext(
        "%(card)s is here %(times)s, but the game has only %(num)d of it.",
        "%(card)s is here %(times)s, but the game has only %(num)d of them.",
        _num(p["max"]),
        card=p["card"],
        times=times_text(_num(p["count"])),
    ),
    # -- a contract --
    "wrong_sets_and_runs": _wrong_sets_and_runs,
    "contract_run_too_short": lambda p: ngettext(
        "This contract needs runs of %(num)d card; this one has %(count)s.",
        "This contract needs runs of %(num)d cards; this one has %(count)s.",
        _num(p["size"]),
        count=p["count"],
    ),
    "contract_set_too_short": lambda p: ngettext(
        "This contract needs sets of %(num)d card; this one has %(count)s.",
        "This contract needs sets of %(num)d cards; this one has %(count)s.",
        _num(p["size"]),
        count=p["count"],
    ),
    "runs_same_suit_and_start": lambda p: gettext(
        "Two runs of the contract are both in %(suit)s and both start at %(start)s; they must "
        "differ in suit or starting card.",
        **p,
    ),
    "runs_same_suit": lambda p: gettext(
        "Two runs of the contract are both in %(suit)s; each run needs a suit of its own.", **p
    ),
    "sets_same_rank": lambda p: gettext(
        "Two sets of the contract have the same rank, %(rank)s; at this table each set needs a "
        "rank of its own (house rule “%(name)s”).",
        name=house_rule_label("distinct_set_ranks"),
        **p,
    ),
    "last_round_goes_out": lambda p: gettext(
        "In the last round the contract is laid down only by going out: the whole hand at "
        "once, with no card left over."
    ),
    # -- going out --
    "going_out_needs_discard": lambda p: gettext(
        "Going out in this round ends with a discard: name the card discarded last."
    ),
    "going_out_no_discard": lambda p: gettext(
        "Here you go out without a discard: every card is melded or laid off, %(card)s too.", **p
    ),
    "last_round_no_discard": lambda p: gettext(
        "In the last round you go out without a discard: the whole hand is melded, %(card)s too.",
        **p,
    ),
    "discard_taken_this_turn": lambda p: gettext(
        "%(card)s was taken from the discard pile this turn: it may not be discarded again.",
        **p,
    ),
    # -- lay-offs and joker swaps --
    "nothing_to_lay_off": lambda p: gettext("Name at least one card to lay off."),
    "layoff_changes_meld": lambda p: gettext(
        "These cards do not extend this meld: it would no longer be the same set or run."
    ),
    "joker_swap_not_allowed": lambda p: gettext(
        "In this game a joker may not be swapped out of this meld (%(kind)s).", **p
    ),
    "joker_swap_in_set": lambda p: gettext("Jokers in a set are dead: they cannot be swapped."),
    "no_joker_to_swap": lambda p: gettext("There is no joker in this meld to swap."),
    "swap_card_does_not_fit": lambda p: gettext(
        "%(card)s is not the card the joker stands for.", **p
    ),
    "layoff_before_contract": lambda p: gettext(
        "You may lay off only once your own contract is down."
    ),
    "layoff_same_turn_as_contract": lambda p: gettext(
        "Lay-offs start on your next turn, not in the turn your contract goes down."
    ),
    "swap_before_contract": lambda p: gettext(
        "You may swap a joker only once your own contract is down."
    ),
    "swap_same_turn_as_contract": lambda p: gettext(
        "You may swap a joker only from the turn after your contract went down."
    ),
    "swap_from_own_meld": lambda p: gettext(
        "A joker may be swapped only out of another player's meld, not out of your own."
    ),
    # -- what a valid lay-off or swap waits for --
    "once_contract_down": lambda p: gettext(
        "Valid once your contract is down, in that same turn too."
    ),
    "once_contract_down_next_turn": lambda p: gettext(
        "Valid once your contract is down, from your next turn."
    ),
    "swap_use_joker_this_turn": lambda p: gettext(
        "The joker you take must be laid down again in the same turn."
    ),
    "swap_from_another_players_meld": lambda p: gettext(
        "Valid only if the meld is another player's, not your own."
    ),
    # -- numbers as typed --
    "not_a_number": lambda p: gettext("“%(value)s” is not a whole number.", value=p["value"]),
    "out_of_range": lambda p: gettext("%(value)s is not between %(low)s and %(high)s.", **p),
}


def register(sentences: Mapping[str, Message], *, naming_the_player: Iterable[str] = ()) -> None:
    """A feature's codes and their sentences, registered beside its service (its `messages.py`,
    imported with the feature's package); `naming_the_player`: those whose sentence names the
    player itself (`describe_reason` puts no name in front). A code has one sentence: a code
    registered twice is a mistake, said at import."""
    for code, message in sentences.items():
        if _MESSAGES.get(code, message) is not message:
            raise ValueError(f"the code {code!r} has a sentence already")
        _MESSAGES[code] = message
    _NAMES_THE_PLAYER.update(naming_the_player)


def message_codes() -> frozenset[str]:
    """Every code with a sentence: the engine's rules' here, each feature's once it is imported
    (`create_app` imports them all)."""
    return frozenset(_MESSAGES)


def web_codes() -> frozenset[str]:
    """The codes the web layer adds to the engine's (bad request bodies, games as stored, ...)."""
    return message_codes() - ALL_CODES


#: Params that are words: each shown the way the table says it (``D♣`` in German).
_WORDS: Final[Mapping[str, Callable[[Any], str]]] = {
    "card": card_label,
    "joker": card_label,
    "suit": suit_name,
    "rank": rank_label,
    "start": rank_label,
    "kind": meld_kind_label,
    "rule": str,
}

#: Codes whose sentence names the player; any other said of one player gets the name in front.
_NAMES_THE_PLAYER: Final = {
    "rummy_needs_going_out",
    "impossible_penalty",
    "penalty_below_whole_hand",
}


class _Params(dict[str, Any]):
    """Parameters for `%` formatting: a parameter the engine left out shows as "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def _word(code: str, key: str, value: Any, players: Sequence[str] | None) -> Any:
    if key in _WORDS:
        return _WORDS[key](value)
    if key == "player":
        return player_label(value, players)
    if key == "players" and code == "two_players_out":
        return players_label(value, players)
    if key in ("variant", "game_variant") and code in (
        "no_contract",
        "game_variant_differs",
        "no_drills_of_kind",
    ):
        return variant_name(value)
    if key in ("tables", "allowed") and isinstance(value, list | tuple):
        return ", ".join(str(item) for item in value)
    if key == "options":
        return cards_or(value)
    if key == "expected":
        expected = _EXPECTED.get(str(value))
        return str(expected) if expected is not None else str(value)
    if key == "value" and value is None:
        return gettext("empty")
    return value


def _prepared(code: str, params: Mapping[str, Any], players: Sequence[str] | None) -> _Params:
    out = _Params({key: _word(code, key, value, players) for key, value in params.items()})
    if code == "run_gap":
        out["missing_count"] = _num(params.get("missing", 1))
        jokers = params.get("jokers")
        out["jokers_count"] = None if jokers is None else _num(jokers)
    if code == "joker_not_declared":
        options = params.get("options") or ["8H"]
        out["example"] = joker_notation(options[0])
    if code == "wrong_sets_and_runs":
        out["wanted"] = melds_count_text(_num(params.get("sets", 0)), _num(params.get("runs", 0)))
        out["got"] = melds_count_text(
            _num(params.get("got_sets", 0)), _num(params.get("got_runs", 0))
        )
    return out


def describe(
    code: str, params: Mapping[str, Any] | None = None, *, players: Sequence[str] | None = None
) -> str:
    """The sentence for an engine or web code, in the current locale, with its params filled.

    Card params read ``D♣`` in German; seats become `players[seat]` when names are given.
    """
    message = _MESSAGES.get(code)
    prepared = _prepared(code, params or {}, players)
    if message is not None:
        try:
            text = message(prepared)
        except (KeyError, TypeError, ValueError):
            text = None  # params of an unexpected shape: the plain sentence below
        # gettext leaves the placeholders alone when it is given no params at all.
        if text is not None and "%(" not in text:
            return text
    if code in ALL_CODES or message is not None:
        return gettext("That breaks a rule of the game.")
    return gettext("Something in that request is not right.")


def describe_error(error: RefereeError | Violation, *, players: Sequence[str] | None = None) -> str:
    """`describe` for an engine error or violation object."""
    return describe(error.code, error.params, players=players)


def describe_reason(reason: Reason, players: Sequence[str] | None = None) -> str:
    """A game's reason in words, naming the player it is about: "Bo: “x” is not a card"."""
    params = dict(reason.params)
    if reason.field is not None:
        params.setdefault("field", reason.field)  # "“players” may hold at most 8 entries"
    if reason.player is None:
        return describe(reason.code, params, players=players)
    params.setdefault("player", reason.player)
    text = describe(reason.code, params, players=players)
    if reason.code in _NAMES_THE_PLAYER:
        return text
    name = player_label(reason.player, players)
    return gettext("%(player)s: %(message)s", player=name, message=text)
