"""The words pages, rule cards, sheets and the API share, in the current locale: cards, melds,
contracts, variants, house rules and their values, the shoe, players.

`referee.web.vocabulary.messages` turns codes into sentences with these words; everything else that
shows a rule in words (the rule page and card, the score sheet, the game pages, the
referee) takes them from here, so one term is used for one thing everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from flask_babel import get_locale, gettext, ngettext
from flask_babel import lazy_gettext as _l

from referee.engine.cards import (
    JOKER_TOKENS,
    LOCAL_RANK_LETTERS,
    LOCAL_SUIT_LETTERS,
    Card,
    Rank,
    Suit,
    parse_card,
)
from referee.engine.errors import RefereeError
from referee.engine.variants import (
    HOUSE_RULES,
    VARIANTS,
    Contract,
    RuleKind,
    Scoring,
    ShoeRule,
    Variant,
)

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


def rank_label(rank: Rank | int | str, lang: str | None = None) -> str:
    """The rank as a table of `lang` (default: the current language) writes it on a card:
    German ``D`` for the queen."""
    found = _rank(rank)
    if found is None:
        return str(rank)
    return _LOCAL_LETTERS.get(lang or _language(), {}).get(found, found.letter)


def cards_notation(cards: Sequence[Card], lang: str | None = None) -> str:
    """Cards as a table of `lang` types them, declared jokers too: ``D♣ 10♥ JK=7♥``."""
    out = []
    for card in cards:
        target = card.stands_for if card.is_joker else card
        if target is None or target.rank is None or target.suit is None:
            out.append("JK")
            continue
        text = f"{rank_label(target.rank, lang)}{target.suit.symbol}"
        out.append(f"JK={text}" if card.is_joker else text)
    return " ".join(out)


def suit_letters(lang: str | None = None) -> str:
    """The suits as a table of `lang` may type them, for a hint under a card field: "Suits:
    C ♣ · D ♦ · H ♥ · S ♠." (Dutch: "Kleuren: K/C ♣ · R/D ♦ · H ♥ · S ♠."), each suit's local
    letter first. Said in every language: a table whose word for hearts starts with C learns
    that C is clubs here."""
    lang = lang or _language()
    local = LOCAL_SUIT_LETTERS.get(lang, {})
    suits = " · ".join(
        "/".join([*(letter for letter, s in local.items() if s is suit), suit.value])
        + f" {suit.symbol}"
        for suit in Suit
    )
    said = gettext("Suits: %(suits)s.", suits=suits)
    # Where a suit letter makes "J" + letter read as the joker's JK (Dutch K, klaveren), the
    # hint says that JK is always the joker, and how the jack of that suit is written.
    clash = [(letter, s) for letter, s in local.items() if f"J{letter}" in JOKER_TOKENS]
    for letter, suit in clash:
        jack = f"{rank_label(Rank.JACK, lang)}{letter}"
        said = gettext(
            "%(said)s JK is always the joker; the jack of %(suit)s is %(jack)s.",
            said=said,
            suit=suit_name(suit),
            jack=jack,
        )
    return said


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


def cards_or(cards: Any) -> str:
    """Cards one of which is meant: "4♥ or 8♥", "7♣, 7♦ or 7♠"."""
    if isinstance(cards, str) or not isinstance(cards, Sequence):
        return card_label(str(cards))
    labels = [card_label(c) for c in cards]
    if len(labels) < 2:
        return "".join(labels)
    return gettext("%(first)s or %(second)s", first=", ".join(labels[:-1]), second=labels[-1])


def joker_notation(card: Card | str) -> str:
    """A joker declared as `card`, the way a table of this language types it: ``JK=8♥``."""
    found = _card(card)
    if found is None or found.is_joker:
        return "JK"
    return cards_notation([Card(stands_for=found)])


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


# A contract's melds as the seeds' players count them: each count a table asks for is a
# phrase of its own, so a language may say it in words ("Duas trincas e uma sequência de 4",
# where a trinca is three cards already); other counts and sizes fall back to the numbers.
_SETS_OF_THREE: Final[Mapping[int, Any]] = {
    1: _l("1 set of 3"),
    2: _l("2 sets of 3"),
    3: _l("3 sets of 3"),
    4: _l("4 sets of 3"),
}
_RUNS_OF: Final[Mapping[int, Any]] = {
    1: _l("1 run of %(size)d"),
    2: _l("2 runs of %(size)d"),
    3: _l("3 runs of %(size)d"),
    4: _l("4 runs of %(size)d"),
}


def contract_text(contract: Contract) -> str:
    """ "2 sets of 3 and 1 run of 4", pluralised in every language ("duas trincas e uma
    sequência de 4" in Portuguese)."""
    sets, runs = contract.sets, contract.runs
    set_size, run_size = contract.set_size, contract.run_size
    parts = []
    if sets and set_size == 3 and sets in _SETS_OF_THREE:
        parts.append(str(_SETS_OF_THREE[sets]))
    elif sets:
        parts.append(
            ngettext("%(num)d set of %(size)d", "%(num)d sets of %(size)d", sets, size=set_size)
        )
    if runs and runs in _RUNS_OF:
        parts.append(str(_RUNS_OF[runs]) % {"size": run_size})
    elif runs:
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


# -- how often, how many times over --------------------------------------------------------


def times_text(count: int) -> str:
    """How often, as a player says it: "once", "twice", "three times", "four times", "5 times".

    A sentence takes it whole ("may buy at most %(times)s per round"), so every language
    says the common counts in words: "einmal", "één keer", "deux fois", "dos veces".
    """
    if count == 1:
        return gettext("once")
    if count == 2:
        return gettext("twice")
    if count == 3:
        return gettext("three times")
    if count == 4:
        return gettext("four times")
    return gettext("%(num)d times", num=count)


def multiplier_text(factor: int) -> str:
    """How many times over a score counts: "double", "triple", then "4 times over" ("4-fach")."""
    if factor == 2:
        return gettext("double")
    if factor == 3:
        return gettext("triple")
    return gettext("%(num)d times over", num=factor)


# -- variants -----------------------------------------------------------------------------

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
        "Contract Rummy the Dutch way: 3 to 5 players with one deck and one joker (more "
        "players as a house rule, with two decks and two jokers), sets in different suits, "
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
    """The variant's name in the current language (an id or a Variant): the engine's name,
    translated (the catalogs take it from `engine/variants.py`, where `N_` marks it)."""
    key = _variant_id(variant_id)
    variant = VARIANTS.get(key)
    return gettext(variant.name) if variant is not None else key


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
    "rounds_played": _l("Rounds played"),
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
    "distinct_set_ranks": _l("Sets of different ranks"),
    "layoff_after_contract": _l("Lay off only after the contract"),
    "layoff_same_turn": _l("Lay off in the same turn"),
    "joker_swap_runs": _l("Swap jokers in runs"),
    "joker_swap_sets": _l("Swap jokers in sets"),
    "joker_swap_after_contract": _l("Swap only after your contract"),
    "joker_swap_after_earlier_turn": _l("Swap only after an earlier turn"),
    "joker_swap_use_same_turn": _l("Use a swapped joker at once"),
    "joker_swap_own_melds": _l("Swap from your own melds"),
    "buying": _l("Buying"),
    "buy_limit": _l("Buys per round"),
    "buy_penalty_cards": _l("Penalty cards per buy"),
    "buy_before_contract_only": _l("Buy only before the contract"),
    "take_several_discards": _l("Take several discards"),
    "rediscard_taken_card": _l("Discard again a card taken from the pile"),
    "last_round_goes_out": _l("Last round: go out at once"),
    "going_out_discard": _l("Last discard when going out"),
    "last_round_discard": _l("Last discard in the last round"),
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
    "rounds_played": _l(
        "The game ends after this many rounds, the first rounds of the table as they are (a "
        "club night's series): the last round's own rules stay with the last round. Empty: "
        "every round."
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
    "distinct_set_ranks": _l(
        "The sets of one contract must differ in rank (by default two sets may share one)."
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
    "joker_swap_own_melds": _l(
        "A player may swap a joker out of their own melds too; when off, only out of another "
        "player's."
    ),
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
    "rediscard_taken_card": _l(
        "A card taken from the discard pile may be discarded again in the same turn; when "
        "off, it may not (of several cards taken, one may)."
    ),
    "last_round_goes_out": _l(
        "The last round's contract is laid down only by going out: the whole hand in one turn."
    ),
    "going_out_discard": _l(
        "Whether the turn that goes out ends with a discard: required, either way, or not "
        "allowed. A round laid down only by going out has its own rule."
    ),
    "last_round_discard": _l(
        "In a round laid down only by going out, whether the turn that goes out ends with a "
        "discard: not allowed (the whole hand is melded), either way, or required."
    ),
    "stock_reshuffles": _l(
        "How often the discards are shuffled into a new stock; when the stock runs out once "
        "more, the round ends. Empty: as often as needed, so a deal always ends with someone "
        "going out."
    ),
    "rank_points": _l("The penalty points of each rank left in a hand."),
    "joker_points": _l("The penalty points of a joker left in a hand."),
    "rummy_multiplier": _l(
        "What a rummy (the whole hand in one turn, nothing melded before) multiplies the "
        "winner's score by."
    ),
    "tie_break_last_round": _l(
        "When totals tie, the better score in the last round wins; when off, or still equal, "
        "the win is shared."
    ),
}

_CHOICES: Final[Mapping[str, Any]] = {
    "high_or_low": _l("high or low"),
    "low_only": _l("low only"),
    "suit_or_start": _l("different suit or starting card"),
    "different_suits": _l("different suits"),
    "any": _l("no restriction"),
    "penalty": _l("penalty points, lowest total wins"),
    "winner_collects": _l("the winner collects, highest total wins"),
    "required": _l("required"),
    "either": _l("either way"),
    "forbidden": _l("not allowed"),
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


def shoe_text(decks: int, jokers: int) -> str:
    """ "2 decks, 4 jokers", "1 deck, no jokers"."""
    deck_words = ngettext("%(num)d deck", "%(num)d decks", decks)
    joker_words = (
        ngettext("%(num)d joker", "%(num)d jokers", jokers) if jokers else gettext("no jokers")
    )
    return f"{deck_words}, {joker_words}"


def players_text(count: int) -> str:
    """ "4 players"."""
    return ngettext("%(num)d player", "%(num)d players", count)


def target_text(target: int) -> str:
    """ "play to 100 points": the score that ends a game without a fixed number of rounds."""
    return gettext("play to %(target)d points", target=target)


def winning_text(variant: Variant) -> str:
    """Who wins at the end: "lowest total wins" or "highest total wins"."""
    if variant.scoring is Scoring.PENALTY:
        return gettext("lowest total wins")
    return gettext("highest total wins")


def _shoe_rule_text(rule: ShoeRule) -> str:
    players = f"{rule.min_players}–{rule.max_players}"
    shoe = shoe_text(rule.decks, rule.jokers)
    return gettext("%(players)s players: %(shoe)s", players=players, shoe=shoe)


def house_rule_value(name: str, value: Any) -> str:
    """A house rule's value (as the `Variant` field holds it) in words."""
    kind = HOUSE_RULES[name].kind
    if name == "buy_limit" and value == 0:
        return gettext("0: no buying")  # never "at most 0 buys"
    if kind is RuleKind.BOOL:
        return gettext("yes") if value else gettext("no")
    if value is None:
        return gettext("every round") if name == "rounds_played" else gettext("no limit")
    if kind.listed and not value:
        return gettext("none")  # a game without contracts deals by the table's size
    words = _VALUE_WORDS.get(kind)
    return str(value) if words is None else words(value)


def _contracts_text(contracts: Sequence[Contract]) -> str:
    return " · ".join(f"{number}: {contract_text(c)}" for number, c in enumerate(contracts, 1))


def _points_text(points: Sequence[int]) -> str:
    return ", ".join(f"{rank_label(rank)} {n}" for rank, n in zip(Rank, points, strict=True))


#: A value in words by its rule's kind, where it is more than the number it is.
_VALUE_WORDS: Final[Mapping[RuleKind, Callable[[Any], str]]] = {
    RuleKind.CHOICE: choice_label,
    RuleKind.CONTRACTS: _contracts_text,
    RuleKind.SHOE: lambda shoe: " · ".join(_shoe_rule_text(rule) for rule in shoe),
    RuleKind.POINTS: _points_text,
    RuleKind.DEAL: lambda deal: ", ".join(str(cards) for cards in deal),
}


def house_rules_in_words(variant: Variant, names: Iterable[str]) -> list[tuple[str, str]]:
    """The house rules `names` of a table's variant as (label, value) pairs."""
    return [(house_rule_label(n), house_rule_value(n, getattr(variant, n))) for n in names]


# -- players ------------------------------------------------------------------------------


def player_label(seat: Any, players: Sequence[str] | None = None) -> str:
    """A seat (0-based) as a name the caller knows, or "player 2"."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        if players is not None and 0 <= seat < len(players):
            return str(players[seat])
        return gettext("player %(number)s", number=seat + 1)
    return str(seat)


def players_label(seats: Any, players: Sequence[str] | None = None) -> str:
    """Seats as names: "Ann, Bo and Cy"."""
    if not isinstance(seats, Sequence) or isinstance(seats, str):
        return player_label(seats, players)
    names = [player_label(seat, players) for seat in seats]
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return _and(", ".join(names[:-1]), names[-1])


# Every house rule has a label and a help text (a test checks it too).
assert set(_HOUSE_RULE_LABELS) == set(HOUSE_RULES) == set(_HOUSE_RULE_HELP)
