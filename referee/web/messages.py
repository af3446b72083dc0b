"""Engine codes become words here, and only here: every message and shared word, translated.

`describe(code, params)` turns a `RefereeError` or `Violation` into a sentence in the current
locale; the other helpers give the words pages, PDFs and the API share (contracts, cards,
variants, house rules).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from flask_babel import get_locale, gettext, ngettext
from flask_babel import lazy_gettext as _l

from referee.engine.cards import LOCAL_RANK_LETTERS, Card, Rank, Suit, parse_card
from referee.engine.errors import ALL_CODES, RefereeError, Violation
from referee.engine.variants import HOUSE_RULES, Contract

__all__ = [
    "MESSAGE_CODES",
    "WEB_CODES",
    "card_label",
    "cards_label",
    "choice_label",
    "contract_text",
    "describe",
    "describe_error",
    "house_rule_help",
    "house_rule_label",
    "meld_kind_label",
    "melds_count_text",
    "player_label",
    "rank_label",
    "rank_name",
    "suit_name",
    "variant_name",
    "variant_summary",
]

# -- the current language -----------------------------------------------------------------


def _language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else "en"


# -- cards --------------------------------------------------------------------------------

_RANK_NAMES: Final[Mapping[Rank, Any]] = {
    Rank.ACE: _l("ace"),
    Rank.TWO: _l("two"),
    Rank.THREE: _l("three"),
    Rank.FOUR: _l("four"),
    Rank.FIVE: _l("five"),
    Rank.SIX: _l("six"),
    Rank.SEVEN: _l("seven"),
    Rank.EIGHT: _l("eight"),
    Rank.NINE: _l("nine"),
    Rank.TEN: _l("ten"),
    Rank.JACK: _l("jack"),
    Rank.QUEEN: _l("queen"),
    Rank.KING: _l("king"),
}

_SUIT_NAMES: Final[Mapping[Suit, Any]] = {
    Suit.CLUBS: _l("clubs"),
    Suit.DIAMONDS: _l("diamonds"),
    Suit.HEARTS: _l("hearts"),
    Suit.SPADES: _l("spades"),
}

# The letter a table of each language writes for a rank (the reverse of the parser's table).
_LOCAL_LETTERS: Final[Mapping[str, Mapping[Rank, str]]] = {
    lang: {rank: letter for letter, rank in letters.items()}
    for lang, letters in LOCAL_RANK_LETTERS.items()
}


def _rank(value: Any) -> Rank | None:
    if isinstance(value, Rank):
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        # A run's place: 14 is the high ace.
        if value == 14:
            return Rank.ACE
        return Rank(value) if 1 <= value <= 13 else None
    if isinstance(value, str):
        text = value.strip().upper()
        if text == "T":
            return Rank.TEN
        for rank in Rank:
            if rank.letter == text:
                return rank
    return None


def _suit(value: Any) -> Suit | None:
    if isinstance(value, Suit):
        return value
    if isinstance(value, str):
        text = value.strip().upper()
        for suit in Suit:
            if text in (suit.value, suit.symbol):
                return suit
    return None


def rank_label(rank: Rank | int | str) -> str:
    """The rank as the current language writes it on a card: German ``D`` for the queen."""
    found = _rank(rank)
    if found is None:
        return str(rank)
    return _LOCAL_LETTERS.get(_language(), {}).get(found, found.letter)


def rank_name(rank: Rank | int | str) -> str:
    """The rank as a word: "queen", "Dame", "vrouw"..."""
    found = _rank(rank)
    return str(_RANK_NAMES[found]) if found is not None else str(rank)


def suit_name(suit: Suit | str) -> str:
    """The suit as a word: "hearts", "Herz", "copas"..."""
    found = _suit(suit)
    return str(_SUIT_NAMES[found]) if found is not None else str(suit)


def _card(value: Card | str) -> Card | None:
    if isinstance(value, Card):
        return value
    try:
        return parse_card(value)
    except (RefereeError, TypeError):
        return None


def card_label(card: Card | str) -> str:
    """A card for people: local rank letter and suit symbol (``D♣`` in German, ``Q♣`` in English).

    A joker is the word for it; a declared joker says what it stands for.
    """
    found = _card(card)
    if found is None:
        return str(card)
    if found.is_joker:
        if found.stands_for is not None:
            return gettext("joker as %(card)s", card=card_label(found.stands_for))
        return gettext("joker")
    assert found.rank is not None and found.suit is not None
    return f"{rank_label(found.rank)}{found.suit.symbol}"


def cards_label(cards: Sequence[Card | str]) -> str:
    """Cards for people, separated by spaces."""
    return " ".join(card_label(c) for c in cards)


# -- melds and contracts ------------------------------------------------------------------

_MELD_KINDS: Final[Mapping[str, Any]] = {
    "set": _l("set"),
    "run": _l("run"),
}


def meld_kind_label(kind: Any) -> str:
    """ "set" or "run" in the current language (accepts the enum or its value)."""
    value = getattr(kind, "value", kind)
    label = _MELD_KINDS.get(str(value))
    return str(label) if label is not None else str(value)


def _and(first: str, second: str) -> str:
    return gettext("%(first)s and %(second)s", first=first, second=second)


def contract_text(contract: Contract | Mapping[str, int]) -> str:
    """ "2 sets of 3 and 1 run of 4", pluralised in every language."""
    if isinstance(contract, Mapping):
        sets = int(contract.get("sets", 0))
        runs = int(contract.get("runs", 0))
        set_size = int(contract.get("set_size", 3))
        run_size = int(contract.get("run_size", 4))
    else:
        sets, runs = contract.sets, contract.runs
        set_size, run_size = contract.set_size, contract.run_size
    parts = []
    if sets:
        parts.append(
            ngettext("%(num)d set of %(size)d", "%(num)d sets of %(size)d", sets, size=set_size)
        )
    if runs:
        parts.append(
            ngettext("%(num)d run of %(size)d", "%(num)d runs of %(size)d", runs, size=run_size)
        )
    if not parts:
        return gettext("no melds")
    return parts[0] if len(parts) == 1 else _and(parts[0], parts[1])


def melds_count_text(sets: int, runs: int) -> str:
    """ "2 sets and 1 run", without sizes (what a player laid down)."""
    parts = []
    if sets:
        parts.append(ngettext("%(num)d set", "%(num)d sets", sets))
    if runs:
        parts.append(ngettext("%(num)d run", "%(num)d runs", runs))
    if not parts:
        return gettext("no melds")
    return parts[0] if len(parts) == 1 else _and(parts[0], parts[1])


# -- variants -----------------------------------------------------------------------------

_VARIANT_NAMES: Final[Mapping[str, Any]] = {
    "contract": _l("Contract Rummy"),
    "shanghai": _l("Shanghai Rummy"),
    "zioncheck-nl": _l("Contract Rummy (Dutch rules)"),
    "rummy": _l("Rummy"),
    "frustration": _l("Frustration Rummy"),
    "joker-rummy": _l("Joker Rummy"),
    "progressive": _l("Progressive Rummy"),
    "short": _l("Short Contract Rummy"),
}

_VARIANT_SUMMARIES: Final[Mapping[str, Any]] = {
    "contract": _l(
        "Seven rounds, each with its contract of sets and runs; two or three decks with "
        "jokers; the lowest total wins."
    ),
    "shanghai": _l(
        "Seven rounds of 11 cards; at most one joker in a meld; buy a discard with “May I?”; "
        "the lowest total wins."
    ),
    "zioncheck-nl": _l(
        "Contract Rummy the Dutch way: one deck and one joker, sets in different suits, "
        "jokers declared, runs of 3."
    ),
    "rummy": _l(
        "Plain rummy: one deck, no jokers, no contracts; the winner collects the others' "
        "hands, first to 100."
    ),
    "frustration": _l(
        "Contract Rummy with buying: take the discard out of turn with a penalty card, "
        "three times a round."
    ),
    "joker-rummy": _l("Contract Rummy with more jokers: six or eight in the shoe."),
    "progressive": _l("Contract Rummy dealing one card more each round, from 10 up to 16."),
    "short": _l("Contract Rummy in five rounds: rounds 5 and 6 of the table are left out."),
}


def _variant_id(variant: Any) -> str:
    return str(getattr(variant, "id", variant))


def variant_name(variant_id: Any) -> str:
    """The variant's name in the current language (an id or a Variant)."""
    key = _variant_id(variant_id)
    name = _VARIANT_NAMES.get(key)
    return str(name) if name is not None else key


def variant_summary(variant_id: Any) -> str:
    """One line that tells the variant apart from the others."""
    key = _variant_id(variant_id)
    summary = _VARIANT_SUMMARIES.get(key)
    return str(summary) if summary is not None else variant_name(key)


# -- house rules --------------------------------------------------------------------------

_HOUSE_RULE_LABELS: Final[Mapping[str, Any]] = {
    "min_players": _l("Fewest players"),
    "max_players": _l("Most players"),
    "shoe": _l("Decks and jokers"),
    "contracts": _l("Contracts"),
    "deal": _l("Cards dealt"),
    "target": _l("Target score"),
    "min_set_size": _l("Smallest set"),
    "max_set_size": _l("Largest set"),
    "set_suits_distinct": _l("Sets in different suits"),
    "min_run_size": _l("Shortest run"),
    "aces": _l("Aces"),
    "around_the_corner": _l("Around the corner"),
    "max_jokers_per_meld": _l("Jokers per meld"),
    "min_natural_cards": _l("Natural cards per meld"),
    "jokers_declared": _l("Declared jokers"),
    "contract_runs": _l("Runs of one contract"),
    "layoff_after_contract": _l("Lay off only after the contract"),
    "layoff_same_turn": _l("Lay off in the same turn"),
    "joker_swap_runs": _l("Swap jokers in runs"),
    "joker_swap_sets": _l("Swap jokers in sets"),
    "joker_swap_after_contract": _l("Swap only after your contract"),
    "joker_swap_after_earlier_turn": _l("Swap only after an earlier turn"),
    "joker_swap_use_same_turn": _l("Use a swapped joker at once"),
    "buying": _l("Buying"),
    "buy_limit": _l("Buys per round"),
    "buy_penalty_cards": _l("Penalty cards per buy"),
    "buy_before_contract_only": _l("Buy only before the contract"),
    "take_several_discards": _l("Take several discards"),
    "last_round_goes_out": _l("Last round: go out at once"),
    "going_out_discard": _l("Discard to go out"),
    "stock_reshuffles": _l("Reshuffles of the stock"),
    "rank_points": _l("Card values"),
    "joker_points": _l("Joker value"),
    "rummy_multiplier": _l("Rummy multiplier"),
    "tie_break_last_round": _l("Tie-break on the last round"),
}

_HOUSE_RULE_HELP: Final[Mapping[str, Any]] = {
    "min_players": _l("The smallest table the game is played at."),
    "max_players": _l("The largest table the game is played at."),
    "shoe": _l("How many decks and jokers are shuffled together, by the number of players."),
    "contracts": _l(
        "What each round asks to be laid down at once: so many sets and runs, each at least "
        "its size."
    ),
    "deal": _l("How many cards each player is dealt, round by round."),
    "target": _l(
        "The game ends after the deal in which someone reaches this score; empty when the "
        "game has a fixed number of rounds."
    ),
    "min_set_size": _l("The fewest cards of one rank that make a set."),
    "max_set_size": _l("The most cards a set may hold; empty for no limit."),
    "set_suits_distinct": _l("No two cards of a set may be of the same suit."),
    "min_run_size": _l("The fewest cards in a run laid down outside a contract."),
    "aces": _l("Whether an ace may be high (Q-K-A) as well as low (A-2-3), or only low."),
    "around_the_corner": _l("Whether a run may go on from king over ace to two (K-A-2)."),
    "max_jokers_per_meld": _l("The most jokers one meld may hold; empty for no limit."),
    "min_natural_cards": _l("The fewest cards in every meld that are not jokers."),
    "jokers_declared": _l(
        "A joker's rank and suit are said aloud when it is laid down and stay fixed for the round."
    ),
    "contract_runs": _l(
        "What must differ between the runs of one contract: the suit or the starting card, "
        "the suit, or nothing."
    ),
    "layoff_after_contract": _l(
        "Only a player who has met the contract may lay cards off on the melds on the table."
    ),
    "layoff_same_turn": _l("A player may lay off in the same turn as meeting the contract."),
    "joker_swap_runs": _l(
        "A joker in a run may be taken by putting the natural card it stands for in its place."
    ),
    "joker_swap_sets": _l(
        "A joker in a set may be taken by putting the natural card it stands for in its place."
    ),
    "joker_swap_after_contract": _l("Only a player whose own contract is down may swap a joker."),
    "joker_swap_after_earlier_turn": _l(
        "Only a player who met the contract on an earlier turn may swap a joker."
    ),
    "joker_swap_use_same_turn": _l("A joker taken by a swap must be laid down in the same turn."),
    "buying": _l(
        "Out of turn, a player may take the top discard together with a penalty card from the "
        "stock."
    ),
    "buy_limit": _l("How many times one player may buy in a round."),
    "buy_penalty_cards": _l("How many cards from the stock come with a bought discard."),
    "buy_before_contract_only": _l("A player who has met the contract may no longer buy."),
    "take_several_discards": _l(
        "A player may take several cards from the discard pile; the deepest one must be "
        "melded at once."
    ),
    "last_round_goes_out": _l(
        "The last round's contract is laid down only by going out: the whole hand in one turn."
    ),
    "going_out_discard": _l(
        "Going out ends with a discard; when off, the last card may be melded instead."
    ),
    "stock_reshuffles": _l(
        "How often the discards are shuffled into a new stock; when the stock runs out once "
        "more, the round ends."
    ),
    "rank_points": _l("The penalty points of each rank left in a hand."),
    "joker_points": _l("The penalty points of a joker left in a hand."),
    "rummy_multiplier": _l(
        "What a rummy (the whole hand in one turn, nothing melded before) multiplies the "
        "winner's score by."
    ),
    "tie_break_last_round": _l("When totals tie, the better score in the last round wins."),
}

_CHOICES: Final[Mapping[str, Any]] = {
    "high_or_low": _l("high or low"),
    "low_only": _l("low only"),
    "suit_or_start": _l("different suit or starting card"),
    "different_suits": _l("different suits"),
    "any": _l("no restriction"),
    "penalty": _l("penalty points, lowest total wins"),
    "winner_collects": _l("the winner collects, highest total wins"),
}


def house_rule_label(name: str) -> str:
    """A house rule's short name for a form label."""
    label = _HOUSE_RULE_LABELS.get(name)
    return str(label) if label is not None else name


def house_rule_help(name: str) -> str:
    """One sentence saying what the house rule changes."""
    text = _HOUSE_RULE_HELP.get(name)
    return str(text) if text is not None else house_rule_label(name)


def choice_label(value: Any) -> str:
    """The words for a choice a house rule offers (``aces``: high or low, low only...)."""
    key = str(getattr(value, "value", value))
    label = _CHOICES.get(key)
    return str(label) if label is not None else key


# -- players ------------------------------------------------------------------------------


def player_label(seat: Any, players: Sequence[str] | None = None) -> str:
    """A seat (0-based) as a name the caller knows, or "player 2"."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        if players is not None and 0 <= seat < len(players):
            return str(players[seat])
        return gettext("player %(number)s", number=seat + 1)
    return str(seat)


def _players_label(seats: Any, players: Sequence[str] | None) -> str:
    if not isinstance(seats, Sequence) or isinstance(seats, str):
        return player_label(seats, players)
    names = [player_label(seat, players) for seat in seats]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return _and(", ".join(names[:-1]), names[-1])


# -- messages -----------------------------------------------------------------------------

_EXPECTED: Final[Mapping[str, Any]] = {
    "integer": _l("a whole number"),
    "boolean": _l("true or false"),
    "string": _l("text"),
    "cards": _l("cards as text or a list of texts"),
    "melds": _l("a list of melds"),
    "object": _l("an object"),
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


_MESSAGES: Final[Mapping[str, Message]] = {
    # -- input errors --
    "bad_input": _bad_input,
    "bad_card": lambda p: gettext(
        "“%(token)s” is not a card. Write a rank and a suit, like 10H, Q♠ or JK.", **p
    ),
    "too_many_cards": lambda p: ngettext(
        "That is too many cards: at most %(num)d at once.",
        "That is too many cards: at most %(num)d at once.",
        _num(p["limit"]),
    ),
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
    "bad_results": lambda p: gettext("These round results break the rules."),
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
    "card_not_in_shoe": lambda p: gettext("%(card)s is not among this game's cards.", **p),
    "too_many_copies": lambda p: ngettext(
        "%(card)s is here %(count)s times, but the game has only %(num)d of it.",
        "%(card)s is here %(count)s times, but the game has only %(num)d of them.",
        _num(p["max"]),
        card=p["card"],
        count=p["count"],
    ),
    # -- a contract --
    "wrong_sets_and_runs": _wrong_sets_and_runs,
    "runs_same_suit_and_start": lambda p: gettext(
        "Two runs of the contract are both in %(suit)s and both start at %(start)s; they must "
        "differ in suit or starting card.",
        **p,
    ),
    "runs_same_suit": lambda p: gettext(
        "Two runs of the contract are both in %(suit)s; each run needs a suit of its own.", **p
    ),
    "last_round_goes_out": lambda p: gettext(
        "In the last round the contract is laid down only by going out: the whole hand at "
        "once, with no card left over."
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
    # -- the API and the command line --
    "bad_json": lambda p: gettext("The request body is not valid JSON."),
    "not_an_object": lambda p: gettext(
        'The request body must be a JSON object, like {"variant": "contract"}.'
    ),
    "missing_field": lambda p: gettext("“%(field)s” is missing.", **p),
    "wrong_type": lambda p: gettext("“%(field)s” must be %(expected)s.", **p),
    "bad_language": lambda p: gettext(
        "“%(lang)s” is not a language we speak; use en, de, nl, pt, fr or es.", **p
    ),
    "too_many_melds": lambda p: ngettext(
        "That is too many melds: at most %(num)d at once.",
        "That is too many melds: at most %(num)d at once.",
        _num(p["limit"]),
    ),
    "house_rule_syntax": lambda p: gettext(
        "Write a house rule as name=value, like max_jokers_per_meld=2, not “%(input)s”.", **p
    ),
    "payload_too_large": lambda p: gettext(
        "The request is too large: at most %(limit)s bytes.", **p
    ),
}

WEB_CODES: Final = frozenset(
    {
        "bad_json",
        "not_an_object",
        "missing_field",
        "wrong_type",
        "bad_language",
        "too_many_melds",
        "payload_too_large",
        "house_rule_syntax",
    }
)
"""Codes the web layer adds to the engine's (bad request bodies)."""

MESSAGE_CODES: Final = frozenset(_MESSAGES)

_CARD_PARAMS: Final = frozenset({"card", "joker"})
_SEAT_PARAMS: Final = frozenset({"player"})


class _Params(dict[str, Any]):
    """Parameters for `%` formatting: a parameter the engine left out shows as "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def _prepared(code: str, params: Mapping[str, Any], players: Sequence[str] | None) -> _Params:
    out = _Params()
    for key, value in params.items():
        if key in _CARD_PARAMS:
            out[key] = card_label(value)
        elif key == "suit":
            out[key] = suit_name(value)
        elif key in ("rank", "start"):
            out[key] = rank_label(value)
        elif key in _SEAT_PARAMS:
            out[key] = player_label(value, players)
        elif key == "players" and code == "two_players_out":
            out[key] = _players_label(value, players)
        elif key == "variant" and code == "no_contract":
            out[key] = variant_name(value)
        elif key == "kind":
            out[key] = meld_kind_label(value)
        elif key == "rule":
            out[key] = str(value)
        elif key == "expected":
            expected = _EXPECTED.get(str(value))
            out[key] = str(expected) if expected is not None else str(value)
        elif key == "value" and value is None:
            out[key] = gettext("empty")
        else:
            out[key] = value
    if code == "run_gap":
        out["missing_count"] = _num(params.get("missing", 1))
        jokers = params.get("jokers")
        out["jokers_count"] = None if jokers is None else _num(jokers)
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


# Every house rule has a label and a help text (a test checks it too).
assert set(_HOUSE_RULE_LABELS) == set(HOUSE_RULES) == set(_HOUSE_RULE_HELP)
