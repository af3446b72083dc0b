"""The rules of a variant in words, built from its data: what the rule page and rule card print.

Nothing here names a variant: every sentence is chosen by a rule field (`variant.buying`,
`variant.aces`, ...), so house rules change the text the way they change the game.
`build_rulebook(table, lang)` speaks `lang`, whatever the request around it speaks.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from flask_babel import gettext, ngettext

from referee.engine.cards import Card, Rank, Suit
from referee.engine.scoring import value_classes
from referee.engine.variants import (
    VARIANTS,
    AceRule,
    ContractRuns,
    GoingOutDiscard,
    OurReading,
    Scoring,
    SeedsDiffer,
    ShoeRule,
    Variant,
)
from referee.web.plumbing.i18n import in_language
from referee.web.vocabulary import words
from referee.web.vocabulary.house_rules import TableRules


@dataclass(frozen=True)
class Face:
    """A card as the small picture draws it."""

    rank: str  # the corner letter in this language, "" for a joker
    suit: str  # the suit symbol, "" for a joker
    red: bool
    joker: bool
    label: str  # what a screen reader says


@dataclass(frozen=True)
class Example:
    """A row of small cards with a caption; `valid` False draws it crossed out.

    `cards` are what the faces show: a test asks the engine about each example, for every
    shoe the card covers, and its mark must match the verdict.
    """

    cards: tuple[Card, ...]
    caption: str
    valid: bool = True

    @property
    def faces(self) -> tuple[Face, ...]:
        return _faces(self.cards)


class Said(str):
    """A paragraph of the full rules with the topics it states: what a referee's code is cited
    by (`rule_citations.TOPICS`). It prints as the plain sentence it is."""

    topics: frozenset[str]

    def __new__(cls, text: str, *topics: str) -> Said:
        said = super().__new__(cls, text)
        said.topics = frozenset(topics)
        return said


def _said(topic: str, text: str) -> Said:
    return Said(text, topic)


@dataclass(frozen=True)
class Section:
    """A section of the full rules; `key` names it in every language (its anchor on the rule
    page is `anchor`)."""

    title: str
    paragraphs: tuple[str, ...]
    examples: tuple[Example, ...] = ()
    key: str = ""

    @property
    def anchor(self) -> str:
        return f"rule-{self.key}"

    def citing(self, topics: Collection[str]) -> tuple[str, ...]:
        """The paragraphs that state any of `topics`, in the card's order."""
        return tuple(
            paragraph
            for paragraph in self.paragraphs
            if isinstance(paragraph, Said) and paragraph.topics & set(topics)
        )


@dataclass(frozen=True)
class Row:
    cells: tuple[str, ...]
    note: str = ""


@dataclass
class Rulebook:
    """Everything the template needs, already in words."""

    variant: Variant
    lang: str
    name: str
    facts: tuple[str, ...]
    goal: str
    contract_head: tuple[str, ...]
    contract_rows: tuple[Row, ...]
    shoe_head: tuple[str, ...]
    shoe_rows: tuple[Row, ...]
    values: tuple[tuple[str, str], ...]
    meld_examples: tuple[Example, ...]
    turn_steps: tuple[str, ...]
    brief: tuple[str, ...]
    sections: tuple[Section, ...]
    house_rules: tuple[tuple[str, str], ...]
    contract_words: tuple[str, ...] = field(default_factory=tuple)

    @property
    def columns(self) -> tuple[tuple[Section, ...], ...]:
        """The full rules in two columns of about equal length, sections kept whole."""
        sizes = [
            80 + sum(len(paragraph) + 40 for paragraph in section.paragraphs)
            for section in self.sections
        ]
        half = sum(sizes) / 2
        running = 0
        cut = len(self.sections)
        for index, size in enumerate(sizes):
            if running + size / 2 > half:
                cut = index
                break
            running += size
        return (tuple(self.sections[:cut]), tuple(self.sections[cut:]))


def _face(card: Card) -> Face:
    if card.rank is None or card.suit is None:
        return Face(rank="", suit="", red=False, joker=True, label=words.card_label(card))
    return Face(
        rank=words.rank_label(card.rank),
        suit=card.suit.symbol,
        red=card.suit.is_red,
        joker=False,
        label=words.card_label(card),
    )


def card_faces(cards: Sequence[Card]) -> tuple[Face, ...]:
    """Cards as the rule card draws them (the quiz sheet draws its questions' so)."""
    return tuple(_face(card) for card in cards)


_faces = card_faces


def _run(start: int, length: int, suit: Suit) -> list[Card]:
    """`length` cards of `suit` from rank `start` (14 is the high ace)."""
    return [Card(Rank(1 if r == 14 else r), suit) for r in range(start, start + length)]


def _sequence(cards: Sequence[Card]) -> str:
    """Cards' ranks as a table says them in a row: "D-K-A" in German."""
    return "-".join(words.rank_label(card.rank) for card in cards if card.rank is not None)


def covered_shoes(variant: Variant) -> tuple[ShoeRule, ...]:
    """The shoes of the player counts the variant is played with (what a card covers); a
    table size no shoe rule names plays the last rule's shoe, as `Variant.shoe_for` does."""
    return variant.played_shoes


def _defaults(variant: Variant, changed: Collection[str] = ()) -> frozenset[str]:
    """The house rules the card says as defaults ("usually", "unless the table agrees"): what
    the seed gives that way, unless this table has changed it."""
    return frozenset(name for name in variant.said_as_defaults if name not in changed)


def _ours(variant: Variant, changed: Collection[str] = ()) -> frozenset[OurReading]:
    """The points the seeds leave open that the card says are our choice: the preset's, unless
    this table has changed the house rule that decides it (then it plays its own)."""
    return frozenset(r for r in variant.our_readings if r.house_rule not in changed)


def _house_rule(name: str) -> str:
    """A house rule named in a sentence: its label in quotes."""
    return gettext("“%(rule)s”", rule=words.house_rule_label(name))


def _run_length(variant: Variant) -> int:
    """The shortest run the variant allows as a meld: what ace and corner examples show."""
    return max(3, variant.min_run_size)


def ace_runs(variant: Variant) -> tuple[list[Card], list[Card]]:
    """The ace low and ace high runs a card shows: A-2-3 and Q-K-A, or longer where runs are."""
    size = _run_length(variant)
    return _run(1, size, Suit.CLUBS), _run(15 - size, size, Suit.DIAMONDS)


def around_the_corner_run(variant: Variant) -> list[Card]:
    """K-A-2 (and on, where runs are longer): a run around the corner."""
    size = _run_length(variant)
    return [Card(Rank.KING, Suit.SPADES), *_run(1, size - 1, Suit.SPADES)]


def _players_range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}–{high}"


def _contract_run_sizes(variant: Variant) -> set[int]:
    return {c.run_size for c in variant.contracts if c.runs}


def _contract_set_sizes(variant: Variant) -> set[int]:
    return {c.set_size for c in variant.contracts if c.sets}


# -- the summary page -------------------------------------------------------------------------


def facts_of(variant: Variant) -> tuple[str, ...]:
    facts = [
        words.players_text(variant.max_players)
        if variant.min_players == variant.max_players
        else gettext(
            "%(low)d to %(high)d players", low=variant.min_players, high=variant.max_players
        )
    ]
    if variant.rounds:
        facts.append(ngettext("%(num)d round", "%(num)d rounds", variant.rounds))
    if variant.target is not None and variant.scoring is Scoring.WINNER_COLLECTS:
        facts.append(words.target_text(variant.target))
    facts.append(words.winning_text(variant))
    return tuple(facts)


def _goal(variant: Variant) -> str:
    if variant.scoring is Scoring.WINNER_COLLECTS:
        return gettext(
            "Lay down sets and runs, be the first to get rid of all your cards, and collect "
            "the points left in the others' hands. The first to reach %(target)d points ends "
            "the game.",
            target=variant.target or 0,
        )
    if variant.has_contracts:
        return ngettext(
            "Each round asks for its own contract of sets and runs. Lay it down, get rid of "
            "your cards before the others, and after %(num)d round have the lowest total.",
            "Each round asks for its own contract of sets and runs. Lay it down, get rid of "
            "your cards before the others, and after %(num)d rounds have the lowest total.",
            variant.rounds or 0,
        )
    return gettext(
        "Lay down sets and runs, get rid of your cards before the others, and keep your total low."
    )


def _contract_table(variant: Variant) -> tuple[tuple[str, ...], tuple[Row, ...], tuple[str, ...]]:
    """Header, rows and the contract texts (contracts) or the deal by players (rummy)."""
    head: tuple[str, ...]
    if variant.has_contracts:
        head = (gettext("Round"), gettext("Contract"), gettext("Cards dealt"))
        rows = []
        texts = []
        for number, contract in enumerate(variant.contracts, start=1):
            text = words.contract_text(contract)
            texts.append(text)
            note = ""
            if variant.last_round_goes_out and variant.is_last_round(number):
                # By the number of melds: French "3 suites de 4, posées seulement en sortant".
                note = ngettext(
                    "laid down only by going out",
                    "laid down only by going out",
                    contract.meld_count,
                )
            cell = text[:1].upper() + text[1:]  # a cell starts as a line does: "Duas trincas"
            rows.append(Row(cells=(str(number), cell, str(variant.deal[number - 1])), note=note))
        return head, tuple(rows), tuple(texts)
    head = (gettext("Players"), gettext("Cards dealt"))
    rows = [
        Row(cells=(_players_range(rule.min_players, rule.max_players), str(rule.cards)))
        for rule in variant.deal_by_players
        if rule.max_players >= variant.min_players and rule.min_players <= variant.max_players
    ]
    return head, tuple(rows), ()


def _shoe_table(variant: Variant) -> tuple[tuple[str, ...], tuple[Row, ...]]:
    """A row per shoe played, then the shoes for larger tables, which only a house rule
    (more players) brings in (zioncheck-nl: 2 decks + 2 jokers for more than 5)."""
    head = (gettext("Players"), gettext("Decks"), gettext("Jokers"), gettext("Cards"))
    rows = []
    for rule in covered_shoes(variant):
        low = max(rule.min_players, variant.min_players)
        high = min(rule.max_players, variant.max_players)
        rows.append(Row(cells=_shoe_cells(rule, low, high)))
    for rule in variant.shoe:
        if rule.min_players > variant.max_players:
            rows.append(
                Row(
                    cells=_shoe_cells(rule, rule.min_players, rule.max_players),
                    note=gettext(
                        "only as a house rule (%(rule)s)", rule=_house_rule("max_players")
                    ),
                )
            )
    return head, tuple(rows)


def _shoe_cells(rule: ShoeRule, low: int, high: int) -> tuple[str, ...]:
    return (
        _players_range(low, high),
        str(rule.decks),
        str(rule.jokers),
        str(52 * rule.decks + rule.jokers),
    )


def card_values(variant: Variant) -> tuple[tuple[str, str], ...]:
    """(cards, points) pairs, cheapest first; 2–10 at face value said once."""
    face_value = [r for r in Rank if 2 <= r <= 10 and variant.rank_points[r - 1] == int(r)]
    if len(face_value) < 3:  # a 5 worth 5 points among 2-9 worth 5 is no "face value" rule
        face_value = []
    values: list[tuple[str, str]] = []
    if face_value:
        values.append((f"{face_value[0]:d}–{face_value[-1]:d}", gettext("face value")))
    for value_class in value_classes(variant):
        if value_class.joker:
            values.append((gettext("Joker"), str(value_class.points)))
            continue
        ranks = [r for r in value_class.ranks if r not in face_value]
        if not ranks:
            continue
        values.append((_rank_list(ranks), str(value_class.points)))
    return tuple(values)


def _rank_list(ranks: Sequence[Rank]) -> str:
    """ "2–9", "10 J Q K", "A": consecutive numbers as a span, faces one by one."""
    numbers = [int(r) for r in ranks if 2 <= r <= 10]
    parts: list[str] = []
    if numbers and numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) >= 3:
        parts.append(f"{numbers[0]}–{numbers[-1]}")
    else:
        parts.extend(str(n) for n in numbers)
    parts.extend(words.rank_label(r) for r in ranks if not 2 <= r <= 10)
    return " ".join(parts)


def _meld_examples(variant: Variant, defaults: frozenset[str]) -> tuple[Example, ...]:
    return (
        _set_example(variant),
        _run_example(variant),
        *_joker_examples(variant),
        *_ace_examples(variant, defaults),
        _corner_example(variant),
    )


def _set_example(variant: Variant) -> Example:
    set_size = min(_contract_set_sizes(variant) or {variant.min_set_size})
    suits = (Suit.CLUBS, Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS)
    # The same card twice only where every table the card covers has two decks or more.
    duplicates = (
        not variant.set_suits_distinct and min(rule.decks for rule in covered_shoes(variant)) > 1
    )
    if duplicates:
        suits = (Suit.CLUBS, Suit.HEARTS, Suit.HEARTS, Suit.SPADES)
    shown = min(set_size, 4)
    set_cards = tuple(Card(Rank.SEVEN, suits[i]) for i in range(shown))
    if variant.max_set_size is not None and variant.max_set_size <= set_size:
        caption = ngettext(  # never "3 to 3"
            "Set: exactly %(num)d card of one rank",
            "Set: exactly %(num)d cards of one rank",
            variant.max_set_size,
        )
    elif variant.max_set_size is not None:
        caption = gettext(
            "Set: %(low)d to %(high)d cards of one rank",
            low=set_size,
            high=variant.max_set_size,
        )
    else:
        caption = ngettext(
            "Set: %(num)d or more cards of one rank",
            "Set: %(num)d or more cards of one rank",
            set_size,
        )
    if variant.set_suits_distinct:
        caption = gettext("%(rule)s, each of another suit", rule=caption)
    if duplicates and len(set(set_cards)) < len(set_cards):
        caption = _copies_words(caption, sorted({rule.decks for rule in covered_shoes(variant)}))
    return Example(cards=set_cards, caption=caption)


def _copies_words(caption: str, decks: Sequence[int]) -> str:
    """A card is there once per deck: "with 2 decks a card may appear twice, with 3 decks
    three times"."""
    first, *more = (count for count in decks if count > 1)
    said = gettext(
        "%(rule)s; with %(decks)d decks a card may appear %(times)s",
        rule=caption,
        decks=first,
        times=words.times_text(first),
    )
    for count in more:
        said = gettext(
            "%(said)s, with %(decks)d decks %(times)s",
            said=said,
            decks=count,
            times=words.times_text(count),
        )
    return said


def _example_run_size(variant: Variant) -> int:
    """The run the card shows: as long as a contract asks for, and a meld at all."""
    return max(min(_contract_run_sizes(variant) or {variant.min_run_size}), variant.min_run_size)


def _run_example(variant: Variant) -> Example:
    """A run as short as the variant allows: a contract's longer runs are said with the
    contract ("1 run of 4"), not as what a run is."""
    run_size = _run_length(variant)
    return Example(
        cards=tuple(_run(max(1, min(5, 15 - run_size)), run_size, Suit.HEARTS)),
        caption=ngettext(
            "Run: %(num)d or more cards in sequence, one suit",
            "Run: %(num)d or more cards in sequence, one suit",
            run_size,
        ),
    )


def _joker_examples(variant: Variant) -> list[Example]:
    if not variant.uses_jokers or variant.max_jokers_per_meld == 0:
        return []
    joker_run = max(_example_run_size(variant), _run_length(variant))
    with_joker: list[Card] = _run(max(1, min(9, 15 - joker_run)), joker_run, Suit.SPADES)
    stands_for = with_joker[1]
    with_joker[1] = Card()  # inside the run: a joker that can be read one way only
    caption = gettext("The joker stands for %(card)s", card=words.card_label(stands_for))
    if variant.max_jokers_per_meld is not None:
        # Shanghai's one joker per meld settles many an argument: say it on page 1.
        caption = ngettext(
            "%(rule)s; at most %(num)d joker per meld",
            "%(rule)s; at most %(num)d jokers per meld",
            variant.max_jokers_per_meld,
            rule=caption,
        )
    return [Example(cards=tuple(with_joker), caption=caption)]


def _ace_examples(variant: Variant, defaults: frozenset[str]) -> list[Example]:
    low, high = ace_runs(variant)
    if variant.aces is AceRule.HIGH_OR_LOW:
        return [
            Example(cards=tuple(high), caption=gettext("Ace high …")),
            Example(cards=tuple(low), caption=gettext("… or low")),
        ]
    not_high = (
        gettext("Not ace high, unless the table agrees")
        if "aces" in defaults
        else gettext("Never ace high")
    )
    return [
        Example(cards=tuple(low), caption=gettext("Ace low")),
        Example(cards=tuple(high), caption=not_high, valid=False),
    ]


def _corner_example(variant: Variant) -> Example:
    around = tuple(around_the_corner_run(variant))
    if variant.around_the_corner:
        return Example(cards=around, caption=gettext("Around the corner is allowed"))
    return Example(cards=around, caption=gettext("Never around the corner"), valid=False)


def _turn_steps(variant: Variant) -> tuple[str, ...]:
    steps = [
        gettext("Take the top card of the stock or of the discard pile.")
        if not variant.take_several_discards
        else gettext("Take the top card of the stock, or one or more cards of the discard pile.")
    ]
    if variant.has_contracts:
        steps.append(
            gettext("Lay down your contract when you can; once it is down, lay off cards.")
        )
    else:
        steps.append(gettext("Lay down sets and runs and lay off cards, if you like."))
    if variant.rediscard_taken_card:
        steps.append(gettext("Discard one card face up."))
    else:
        # Seed 001: one card taken from the pile may not go back; of several, one may.
        steps.append(
            gettext(
                "Discard one card face up: not a single card you took from the discard pile; "
                "of several taken, one may go back."
            )
        )
    return tuple(steps)


def _brief(variant: Variant) -> tuple[str, ...]:
    lines = []
    if variant.scoring is Scoring.PENALTY:
        lines.append(
            gettext("Going out scores 0; everyone else scores the cards left in their hand.")
        )
        if variant.has_contracts:
            lines.append(
                ngettext(
                    "After %(num)d round the lowest total wins.",
                    "After %(num)d rounds the lowest total wins.",
                    variant.rounds or 0,
                )
            )
        else:
            lines.append(gettext("The lowest total wins."))
    else:
        lines.append(
            gettext("Going out scores the cards left in all the other hands; the others score 0.")
        )
        if variant.rummy_multiplier > 1:
            lines.append(
                gettext(
                    "Rummy (the whole hand in one turn, nothing melded before) counts %(times)s.",
                    times=words.multiplier_text(variant.rummy_multiplier),
                )
            )
        lines.append(
            gettext(
                "The first deal that takes a player to %(target)d points ends the game; "
                "the highest total wins.",
                target=variant.target or 0,
            )
        )
    if variant.buying_played:  # a limit of 0 is no buying: never "at most 0 buys"
        lines.append(
            ngettext(
                "Buying is on: at most %(num)d buy per player and round.",
                "Buying is on: at most %(num)d buys per player and round.",
                variant.buy_limit,
            )
        )
    return tuple(lines)


def _unless_agreed(said: str, name: str) -> str:
    """A default said as one: "…, unless the table agrees otherwise (house rule “…”)"."""
    return gettext(
        "%(rule)s So it is usually played; a table may agree otherwise (house rule %(name)s).",
        rule=said,
        name=_house_rule(name),
    )


# -- the full rules -----------------------------------------------------------------------------


def _section_cards(variant: Variant, ours: frozenset[OurReading]) -> Section:
    paragraphs = []
    if variant.uses_jokers:
        paragraphs.append(
            gettext(
                "Play with 52-card decks and jokers, shuffled together into one stock; the "
                "table shows how many for each number of players. Duplicate cards are normal."
            )
            if min(rule.decks for rule in covered_shoes(variant)) > 1
            else gettext(
                "Play with one or more 52-card decks and jokers, shuffled together into one "
                "stock; the table shows how many for each number of players. With two decks "
                "or more, duplicate cards are normal."
            )
            if variant.max_decks > 1
            else gettext(
                "Play with one 52-card deck and jokers; the table shows how many for each "
                "number of players."
            )
        )
    else:
        paragraphs.append(
            gettext("Play with one 52-card deck, no jokers.")
            if variant.max_decks == 1
            else gettext(
                "Play with 52-card decks shuffled together into one stock, no jokers; the "
                "table shows how many for each number of players."
            )
        )
    paragraphs[0] = _said("shoe", paragraphs[0])
    paragraphs += _shoe_readings(variant, ours)
    paragraphs.append(
        _said(
            "dealer",
            gettext(
                "Draw for the first deal. The deal passes to the left after every round, and the "
                "player to the left of the dealer starts."
            ),
        )
    )
    if variant.has_contracts:
        paragraphs.append(
            _said(
                "deal_count",
                gettext(
                    "Deal the cards one at a time; how many each player gets is in the contracts "
                    "table."
                ),
            )
        )
    else:
        paragraphs.append(
            _said(
                "deal_count",
                gettext(
                    "Deal the cards one at a time; how many each player gets depends on the "
                    "number of players (see the table)."
                ),
            )
        )
    paragraphs.append(
        gettext(
            "Put the rest face down as the stock and turn its top card face up to start the "
            "discard pile."
        )
    )
    return Section(key="cards", title=gettext("Cards and deal"), paragraphs=tuple(paragraphs))


def _shoe_readings(variant: Variant, ours: frozenset[OurReading]) -> list[str]:
    """The shoes the seeds leave open, said as our choice (RULES.md, fourth reading): joker
    rummy's jokers ("sometimes 6 or 8"), the 7-8-player shoe ("three or four decks plus 6-8
    jokers")."""
    said = []
    if OurReading.JOKERS in ours:
        said.append(
            gettext(
                "The rule texts say only “sometimes 6 or 8 jokers”: how many at which table is "
                "our choice; a table may choose otherwise (house rule %(name)s).",
                name=_house_rule("shoe"),
            )
        )
    largest = variant.shoe_for(variant.max_players)
    if OurReading.LARGEST_TABLE_SHOE in ours and largest.min_players >= 7:
        said.append(
            gettext(
                "For %(players)s players the rule texts say three or four decks and 6 to 8 "
                "jokers: we deal %(decks)d decks and %(jokers)d jokers; a table may choose "
                "otherwise (house rule %(name)s).",
                players=_players_range(largest.min_players, largest.max_players),
                decks=largest.decks,  # a preset's (our reading goes once the shoe is changed)
                jokers=largest.jokers,
                name=_house_rule("shoe"),
            )
        )
    return said


def _section_turn(variant: Variant) -> Section:
    paragraphs = []
    if variant.take_several_discards:
        paragraphs.append(
            gettext(
                "Begin your turn by taking the top card of the stock or cards from the discard "
                "pile. You may take several discards at once: the deepest card you take must "
                "be melded in the same turn, and the cards above it go into your hand."
            )
        )
    else:
        paragraphs.append(
            gettext(
                "Begin your turn by taking the top card of the stock or the top card of the "
                "discard pile."
            )
        )
    if variant.has_contracts:
        paragraphs.append(
            gettext(
                "Then you may lay down your contract, or, once it is on the table, lay off "
                "cards. End your turn by discarding one card face up."
            )
        )
    else:
        paragraphs.append(
            gettext(
                "Then you may lay down sets and runs and lay off cards. End your turn by "
                "discarding one card face up."
            )
        )
    if not variant.rediscard_taken_card:
        paragraphs.append(
            _said(
                "rediscard",
                gettext(
                    "A card you took from the discard pile may not be discarded again in the "
                    "same turn; if you took several, you may discard one of them."
                ),
            )
        )
    if SeedsDiffer.DISCARD_FACE in variant.seeds_differ:
        paragraphs.append(
            gettext(
                "The rule texts differ here: some tables discard face down. We discard face "
                "up, so everyone sees the card; a table may choose otherwise."
            )
        )
    return Section(key="turn", title=gettext("A turn"), paragraphs=tuple(paragraphs))


def _section_melds(variant: Variant, defaults: frozenset[str]) -> Section:
    exactly = variant.max_set_size is not None and variant.max_set_size <= variant.min_set_size
    paragraphs: list[str] = [
        ngettext(
            "A set is exactly %(num)d card of the same rank.",
            "A set is exactly %(num)d cards of the same rank.",
            variant.max_set_size or 0,
        )
        if exactly
        else ngettext(
            "A set is %(num)d or more cards of the same rank.",
            "A set is %(num)d or more cards of the same rank.",
            variant.min_set_size,
        )
    ]
    paragraphs[0] = _said("set", paragraphs[0])
    if variant.max_set_size is not None and not exactly:
        paragraphs.append(
            _said(
                "set_max",
                ngettext(
                    "A set has at most %(num)d card.",
                    "A set has at most %(num)d cards.",
                    variant.max_set_size,
                ),
            )
        )
    if variant.set_suits_distinct:
        paragraphs.append(_said("set_suits", gettext("No two cards of a set may share a suit.")))
    elif variant.max_decks > 1:
        paragraphs.append(gettext("Suits may repeat in a set."))
    paragraphs.append(
        _said(
            "run",
            ngettext(
                "A run is %(num)d or more cards of one suit in sequence.",
                "A run is %(num)d or more cards of one suit in sequence.",
                variant.min_run_size,
            ),
        )
    )
    low, high = ace_runs(variant)
    if variant.aces is AceRule.HIGH_OR_LOW:
        paragraphs.append(
            gettext(
                "An ace is high or low in a run: %(low)s and %(high)s both count.",
                low=_sequence(low),
                high=_sequence(high),
            )
        )
    elif "aces" in defaults:
        paragraphs.append(
            gettext(
                "An ace is low: %(low)s is a run, %(high)s is not, unless the table agrees "
                "that aces may be high too (house rule %(name)s).",
                low=_sequence(low),
                high=_sequence(high),
                name=_house_rule("aces"),
            )
        )
    else:
        paragraphs.append(
            gettext(
                "An ace is always low: %(low)s is a run, %(high)s is not.",
                low=_sequence(low),
                high=_sequence(high),
            )
        )
    paragraphs[-1] = _said("aces", paragraphs[-1])
    around = _sequence(around_the_corner_run(variant))
    if variant.around_the_corner:
        corner = gettext("A run may go around the corner, as in %(cards)s.", cards=around)
    else:
        corner = gettext(
            "A run never goes around the corner: %(cards)s is not a run.", cards=around
        )
    paragraphs.append(_said("corner", corner))
    return Section(key="melds", title=gettext("Sets and runs"), paragraphs=tuple(paragraphs))


def _section_jokers(variant: Variant) -> Section:
    if not variant.uses_jokers:
        return Section(
            key="jokers",
            title=gettext("Jokers"),
            paragraphs=(_said("no_jokers", gettext("This game is played without jokers.")),),
        )
    paragraphs: list[str] = [
        _said("joker", gettext("A joker takes the place of any card in a set or a run."))
    ]
    if variant.max_jokers_per_meld == 0:
        paragraphs = [
            _said("joker_count", gettext("Jokers may not be used in melds; they only cost points."))
        ]
    elif variant.max_jokers_per_meld is not None:
        paragraphs.append(
            _said(
                "joker_count",
                ngettext(
                    "A meld may hold at most %(num)d joker.",
                    "A meld may hold at most %(num)d jokers.",
                    variant.max_jokers_per_meld,
                ),
            )
        )
    else:
        paragraphs.append(_said("joker_count", gettext("A meld may hold any number of jokers.")))
    if variant.min_natural_cards > 0 and variant.max_jokers_per_meld != 0:
        paragraphs.append(
            _said(
                "natural",
                ngettext(
                    "Every meld needs at least %(num)d natural card.",
                    "Every meld needs at least %(num)d natural cards.",
                    variant.min_natural_cards,
                ),
            )
        )
    if variant.jokers_declared:
        paragraphs += _declare_words()
    if variant.joker_swap_runs or variant.joker_swap_sets:
        paragraphs += _swap_rules(variant)
    else:
        paragraphs.append(_said("no_swap", gettext("A joker on the table is never taken back.")))
    return Section(key="jokers", title=gettext("Jokers"), paragraphs=tuple(paragraphs))


def _declare_words() -> list[str]:
    return [
        _said(
            "declare",
            gettext(
                "Say which card a joker stands for when you lay it down; that stays fixed for "
                "the round."
            ),
        ),
        _said(
            "declare",
            gettext(
                "A meld whose joker could stand for two cards counts only once the joker is "
                "declared; lay-offs and swaps go by the card declared."
            ),
        ),
    ]


def _swap_rules(variant: Variant) -> list[str]:
    """Where a joker may be taken from, when, and what becomes of it."""
    said: list[str] = [_said("swap", _swap_words(variant))]
    if variant.joker_swap_after_earlier_turn:
        said.append(
            _said(
                "swap_timing",
                gettext(
                    "You may swap only once your contract has been down since an earlier turn."
                ),
            )
        )
    elif variant.joker_swap_after_contract:
        said.append(
            _said("swap_timing", gettext("You may swap only once your own contract is down."))
        )
    if variant.joker_swap_use_same_turn:
        said.append(
            _said("swap_use", gettext("A joker taken this way must be melded in the same turn."))
        )
    return said


def _swap_words(variant: Variant) -> str:
    """Where a joker may be taken from: runs, sets or both; anyone's melds or only another
    player's, for the natural card from the swapper's hand."""
    if not variant.joker_swap_own_melds:
        if variant.joker_swap_runs and variant.joker_swap_sets:
            return gettext(
                "On your turn you may take a joker from another player's run or set by putting "
                "in the natural card from your hand that it stands for; never from your own."
            )
        if variant.joker_swap_runs:
            return gettext(
                "On your turn you may take a joker from another player's run by putting in the "
                "natural card from your hand that it stands for; never from your own. Jokers "
                "in sets stay where they are."
            )
        return gettext(
            "On your turn you may take a joker from another player's set by putting in the "
            "natural card from your hand that it stands for; never from your own. Jokers in "
            "runs stay where they are."
        )
    if variant.joker_swap_runs and variant.joker_swap_sets:
        return gettext(
            "On your turn you may take a joker from a run or a set on the table by "
            "putting in the natural card it stands for."
        )
    if variant.joker_swap_runs:
        return gettext(
            "On your turn you may take a joker from a run on the table by putting in "
            "the natural card it stands for. Jokers in sets stay where they are."
        )
    return gettext(
        "On your turn you may take a joker from a set on the table by putting in "
        "the natural card it stands for. Jokers in runs stay where they are."
    )


def _section_contract(
    variant: Variant, defaults: frozenset[str], ours: frozenset[OurReading]
) -> Section | None:
    if not variant.has_contracts:
        return None
    paragraphs: list[str] = [
        _said(
            "contract",
            gettext(
                "Every round has a contract: the sets and runs you must lay down together, in "
                "one turn, before you may lay down anything else. Lay down exactly the melds it "
                "names; each may be longer than its minimum."
            ),
        )
    ]
    sizes = _contract_run_sizes(variant)
    if len(sizes) == 1 and min(sizes) != variant.min_run_size:
        # A run is 3 or more; that the contract asks for 4 is said with the contract.
        paragraphs.append(
            _said(
                "contract_run",
                ngettext(
                    "A run in a contract needs at least %(num)d card.",
                    "A run in a contract needs at least %(num)d cards.",
                    min(sizes),
                ),
            )
        )
    if variant.contract_runs is ContractRuns.SUIT_OR_START:
        paragraphs.append(
            _said(
                "contract_runs",
                gettext(
                    "Two runs of one contract may not have both the same suit and the same "
                    "lowest card."
                ),
            )
        )
    elif variant.contract_runs is ContractRuns.DIFFERENT_SUITS:
        paragraphs.append(
            _said(
                "contract_runs",
                gettext("The runs of one contract must all be in different suits."),
            )
        )
    paragraphs += [_said("contract_sets", said) for said in _set_ranks_words(variant)]
    if OurReading.CONTRACTS in ours:
        paragraphs.append(
            gettext(
                "The rule texts do not list this game's contracts: the contracts table is our "
                "choice; a table may set its own (house rule %(name)s).",
                name=_house_rule("contracts"),
            )
        )
    if variant.last_round_goes_out:
        paragraphs.append(_said("last_round", _last_round_words(variant, defaults)))
    return Section(key="contract", title=gettext("The contract"), paragraphs=tuple(paragraphs))


def _set_ranks_words(variant: Variant) -> list[str]:
    """Two sets of one contract may share a rank (seed 000's "zwei separate Drilling-Gruppen"),
    said where a contract has two sets and the shoe two of a card; house rule
    `distinct_set_ranks` makes them differ."""
    if not any(contract.sets > 1 for contract in variant.contracts):
        return []
    if variant.distinct_set_ranks:
        return [gettext("The sets of one contract must all be of different ranks.")]
    if variant.max_decks < 2:
        return []  # one deck: two sets of one rank cannot be made
    return [
        gettext(
            "Two sets of one contract may share a rank, unless the table agrees otherwise "
            "(house rule %(name)s).",
            name=_house_rule("distinct_set_ranks"),
        )
    ]


def _last_round_words(variant: Variant, defaults: frozenset[str]) -> str:
    """The round laid down only by going out, its final discard as the variant has it; a
    usual rule said as usual, and where the rule texts differ, which one we took."""
    number = variant.rounds or 0
    rule = variant.last_round_discard
    if rule is GoingOutDiscard.FORBIDDEN:
        said = gettext(
            "Round %(round)d is laid down only by going out: the whole hand at once, in "
            "the contract's melds, with no discard.",
            round=number,
        )
    elif rule is GoingOutDiscard.EITHER:
        said = gettext(
            "Round %(round)d is laid down only by going out: the whole hand at once, in the "
            "contract's melds; a last card may be discarded.",
            round=number,
        )
    else:
        said = gettext(
            "Round %(round)d is laid down only by going out: the whole hand at once, in the "
            "contract's melds and one last discard.",
            round=number,
        )
    if "last_round_goes_out" in defaults:
        said = _unless_agreed(said, "last_round_goes_out")
    differ = SeedsDiffer.LAST_ROUND_DISCARD in variant.seeds_differ
    if differ and rule is GoingOutDiscard.FORBIDDEN:
        said = gettext(
            "%(rule)s The rule texts differ here: some tables allow a last discard. We play "
            "without one; a table may choose otherwise (house rule %(name)s).",
            rule=said,
            name=_house_rule("last_round_discard"),
        )
    return said


def _section_layoffs(variant: Variant) -> Section:
    paragraphs: list[str] = []
    if variant.layoff_after_contract and variant.has_contracts:
        paragraphs.append(
            gettext(
                "Once your contract is on the table, you may add cards to any meld there, "
                "yours or another player's."
            )
        )
        if variant.layoff_same_turn:
            paragraphs.append(gettext("You may start in the same turn as your contract."))
        else:
            paragraphs.append(gettext("Start on a later turn, not the turn of your contract."))
        paragraphs = [_said("layoff_timing", said) for said in paragraphs]
    else:
        paragraphs.append(
            gettext("You may add cards to any meld on the table, yours or another player's.")
        )
    paragraphs.append(
        _said(
            "layoff",
            gettext(
                "A card laid off must keep the meld a valid set or run; it simply leaves your hand."
            ),
        )
    )
    return Section(key="layoffs", title=gettext("Laying off"), paragraphs=tuple(paragraphs))


def _no_buying_words(variant: Variant) -> str:
    """A table that does not buy (buying off, or a limit of 0): where buying is the variant's
    own rule (Shanghai), the table agreed not to; elsewhere it is an optional house rule this
    table does not play (seeds 000 and 004), never "no buying" as if it were the rule."""
    if VARIANTS[variant.id].buying_played:
        return gettext(
            "These rules allow buying, but this table has agreed not to buy: only the player "
            "whose turn it is takes from the discard pile."
        )
    return gettext(
        "Buying (taking the discard out of turn) is an optional house rule (%(name)s) that "
        "this table does not play: only the player whose turn it is takes from the discard "
        "pile.",
        name=_house_rule("buying"),
    )


def _buy_limit_words(
    variant: Variant, defaults: frozenset[str], ours: frozenset[OurReading]
) -> str:
    limit = gettext(
        "Each player may buy at most %(times)s per round.",
        times=words.times_text(variant.buy_limit),
    )
    if OurReading.BUY_LIMIT_PER_PLAYER in ours:
        return gettext(
            "%(rule)s The rule text says only “at most 3 buys per round”: per player is our "
            "reading; a table may choose otherwise (house rule %(name)s).",
            rule=limit,
            name=_house_rule("buy_limit"),
        )
    return _unless_agreed(limit, "buy_limit") if "buy_limit" in defaults else limit


def _section_buying(
    variant: Variant, defaults: frozenset[str], ours: frozenset[OurReading]
) -> Section:
    if not variant.buying_played:
        return Section(
            key="buying", title=gettext("Buying"), paragraphs=(_no_buying_words(variant),)
        )
    said = [
        gettext(
            "When a card is discarded, any other player may call “buy” for it before the player "
            "whose turn it is draws."
        ),
        gettext(
            "The player whose turn it is may still take that card as their draw, and then "
            "nobody buys it. If several players call, the one nearest in turn order buys."
        ),
    ]
    if variant.buy_penalty_cards:
        said.append(
            ngettext(
                "The buyer takes the discard and one penalty card from the stock, and gets no "
                "extra turn for it.",
                "The buyer takes the discard and %(num)d penalty cards from the stock, and gets "
                "no extra turn for it.",
                variant.buy_penalty_cards,
            )
        )
    else:
        said.append(
            gettext("The buyer takes only the discard, with no penalty card, and no extra turn.")
        )
    said.append(_buy_limit_words(variant, defaults, ours))
    if variant.buy_before_contract_only and variant.has_contracts:
        said.append(gettext("Once your contract is down, you may not buy any more."))
    return Section(key="buying", title=gettext("Buying"), paragraphs=tuple(said))


def _going_out_words(variant: Variant) -> list[str]:
    paragraphs = []
    rule = variant.going_out_discard
    if rule is GoingOutDiscard.REQUIRED:
        paragraphs.append(
            gettext(
                "You go out when all your cards are gone: melded, laid off and one last "
                "discard. Going out ends the round at once."
            )
        )
    elif rule is GoingOutDiscard.EITHER:
        paragraphs.append(
            gettext(
                "You go out when all your cards are gone: melded, laid off, or discarded as the "
                "last card. No discard is needed when every card is melded. Going out ends the "
                "round at once."
            )
        )
    else:
        paragraphs.append(
            gettext(
                "You go out when all your cards are melded or laid off; you may not go out "
                "with a discard. Going out ends the round at once."
            )
        )
    last = variant.last_round_discard
    if variant.last_round_goes_out and last is not rule and variant.rounds:
        if last is GoingOutDiscard.FORBIDDEN:
            paragraphs.append(
                gettext(
                    "In round %(round)d you go out without a discard: the whole hand is melded.",
                    round=variant.rounds,
                )
            )
        elif last is GoingOutDiscard.EITHER:
            paragraphs.append(
                gettext(
                    "In round %(round)d a last discard is allowed, not needed.",
                    round=variant.rounds,
                )
            )
        else:
            paragraphs.append(
                gettext(
                    "In round %(round)d, too, you go out with one last discard.",
                    round=variant.rounds,
                )
            )
    return paragraphs


def _stock_words(variant: Variant) -> list[str]:
    if variant.stock_reshuffles is None:
        return [
            gettext(
                "If the stock runs out, shuffle the discard pile, all but its top card, into a "
                "new stock, as often as needed: a deal always ends with someone going out."
            )
        ]
    if variant.stock_reshuffles == 0:
        paragraphs = [gettext("If the stock runs out, the round ends.")]
    elif variant.stock_reshuffles == 1:
        paragraphs = [
            gettext(
                "If the stock runs out, shuffle the discard pile, all but its top card, into a "
                "new stock; this happens only once in a round. If it runs out again, the round "
                "ends."
            )
        ]
    else:
        paragraphs = [
            gettext(
                "If the stock runs out, shuffle the discard pile, all but its top card, into a "
                "new stock; this happens at most %(times)s in a round. If it runs out again, "
                "the round ends.",
                times=words.times_text(variant.stock_reshuffles),
            )
        ]
    if variant.scoring is Scoring.PENALTY:
        paragraphs.append(gettext("Everyone then scores the cards left in their hand."))
    else:
        paragraphs.append(gettext("Nobody scores for that deal."))
    return paragraphs


def _section_going_out(variant: Variant) -> Section:
    paragraphs: list[str] = [_said("going_out", said) for said in _going_out_words(variant)]
    paragraphs += _stock_words(variant)
    return Section(key="going-out", title=gettext("Going out"), paragraphs=tuple(paragraphs))


def _section_scoring(variant: Variant, defaults: frozenset[str]) -> Section:
    paragraphs = []
    if variant.scoring is Scoring.PENALTY:
        paragraphs.append(
            gettext(
                "Whoever goes out scores 0. Everyone else adds up the cards left in their hand "
                "(see the card values) and adds that to their total."
            )
        )
        if variant.rounds:
            paragraphs.append(
                ngettext(
                    "After %(num)d round the lowest total wins.",
                    "After %(num)d rounds the lowest total wins.",
                    variant.rounds,
                )
            )
        if variant.tie_break_last_round:
            paragraphs.append(
                gettext(
                    "On a tie, the lower score in the last round wins; if that is equal too, "
                    "the win is shared."
                )
            )
        else:
            paragraphs.append(gettext("Equal lowest totals share the win."))
    else:
        paragraphs.append(
            gettext(
                "Whoever goes out scores the cards left in all the other hands (see the card "
                "values); the others score nothing."
            )
        )
        if variant.rummy_multiplier > 1:
            paragraphs.append(
                gettext(
                    "Going out in a single turn, with nothing melded before, is rummy: it "
                    "counts %(times)s.",
                    times=words.multiplier_text(variant.rummy_multiplier),
                )
            )
        if "target" in defaults:
            ends = gettext(
                "The game ends with the deal in which someone reaches %(target)d points, or "
                "another score the table agrees on (house rule %(name)s); the highest total "
                "wins.",
                target=variant.target or 0,
                name=_house_rule("target"),
            )
        else:
            ends = gettext(
                "The game ends with the deal in which someone reaches %(target)d points; the "
                "highest total wins.",
                target=variant.target or 0,
            )
        paragraphs.append(ends)
        if variant.tie_break_last_round:
            paragraphs.append(
                gettext(
                    "On a tie, the higher score in the last deal wins; if that is equal too, "
                    "the win is shared."
                )
            )
        else:
            paragraphs.append(gettext("Equal highest totals share the win."))
    paragraphs[0] = _said("scoring", paragraphs[0])
    return Section(
        key="scoring", title=gettext("Scoring and winning"), paragraphs=tuple(paragraphs)
    )


def _sections(
    variant: Variant, defaults: frozenset[str], ours: frozenset[OurReading]
) -> tuple[Section, ...]:
    sections = [
        _section_cards(variant, ours),
        _section_turn(variant),
        _section_melds(variant, defaults),
        _section_contract(variant, defaults, ours),
        _section_jokers(variant),
        _section_layoffs(variant),
        _section_buying(variant, defaults, ours),
        _section_going_out(variant),
        _section_scoring(variant, defaults),
    ]
    return tuple(section for section in sections if section is not None)


@in_language
def build_rulebook(table: TableRules, lang: str) -> Rulebook:
    """The variant's rules (with the table's house rules) in `lang`."""
    variant = table.variant
    defaults = _defaults(variant, table.changed)
    contract_head, contract_rows, contract_words = _contract_table(variant)
    shoe_head, shoe_rows = _shoe_table(variant)
    return Rulebook(
        variant=variant,
        lang=lang,
        name=words.variant_name(variant),
        facts=facts_of(variant),
        goal=_goal(variant),
        contract_head=contract_head,
        contract_rows=contract_rows,
        shoe_head=shoe_head,
        shoe_rows=shoe_rows,
        values=card_values(variant),
        meld_examples=_meld_examples(variant, defaults),
        turn_steps=_turn_steps(variant),
        brief=_brief(variant),
        sections=_sections(variant, defaults, _ours(variant, table.changed)),
        house_rules=tuple(
            (words.house_rule_label(name), words.house_rule_value(name, getattr(variant, name)))
            for name in table.changed
        ),
        contract_words=contract_words,
    )
