"""The referee's checks as the page shows them: read the query, ask the engine, shape the verdict.

Everything here works on plain values (a mapping of the query's fields), so the page, its htmx
partial and the tests share one path. Reasons are said by `referee.web.vocabulary.messages`,
cards and contracts by `referee.web.vocabulary.words`; the headlines of a verdict are this
page's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext, ngettext

from referee.engine.cards import LOCAL_RANK_LETTERS, Card, parse_cards
from referee.engine.contracts import MAX_MELDS, check_contract
from referee.engine.errors import RefereeError, Violation
from referee.engine.game import Game
from referee.engine.layoffs import (
    check_joker_swap,
    check_layoff,
    layoff_waits_for_contract,
    swap_asks_whose_meld,
    swap_waits_for_contract,
)
from referee.engine.melds import MeldKind, MeldVerdict, Reading, check_meld, shoe_violations
from referee.engine.scoring import verify_hand_size
from referee.engine.variants import ContractDown, GoingOutDiscard, ShoeRule, Variant
from referee.web.plumbing.numbers import whole_number
from referee.web.refereeing import tables
from referee.web.vocabulary.house_rules import TableRules, overrides_from_query, table_rules
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.words import (
    card_label,
    cards_notation,
    contract_text,
    meld_kind_label,
    shoe_text,
)

CHECKS: tuple[str, ...] = ("meld", "contract", "layoff", "swap", "solve")
#: The card fields each check reads, in the order the page shows them.
CARD_FIELDS: Mapping[str, tuple[str, ...]] = {
    "meld": ("cards",),
    "contract": ("melds",),
    "layoff": ("meld", "cards"),
    "swap": ("meld", "card"),
    "solve": ("hand",),
}
DEFAULT_VARIANT = "contract"
MAX_FIELD = 2000  # characters in one field; far more than any hand
#: The answers to "when did your own contract go down?", as the query writes them.
CONTRACT_DOWN: tuple[str, ...] = tuple(when.value for when in ContractDown)
#: The answers to "whose meld is the joker in?" (a joker swap), as the query writes them.
WHOSE_MELD: tuple[str, ...] = ("own", "other")
_MELD_BREAK = re.compile(r"\r?\n|\|")


# -- what the page shows ------------------------------------------------------------------


@dataclass
class CardView:
    """One card as the verdict shows it."""

    text: str  # D♣, JK
    suit_class: str  # suit-c ... or joker
    stands_for: str | None = None  # what a joker stands for, as the table writes it
    flagged: bool = False  # a reason is about this card

    @property
    def is_joker(self) -> bool:
        return self.suit_class == "joker"


@dataclass
class ReasonView:
    message: str
    meld: int | None = None  # the meld of a contract it is about (0-based)


@dataclass
class MeldView:
    cards: list[CardView]
    valid: bool
    kind: str | None = None  # "set"/"run" in words
    jokers: list[str] = field(default_factory=list)  # "JK = 7♥" sentences
    ambiguous: bool = False
    reasons: list[ReasonView] = field(default_factory=list)
    title: str = ""


@dataclass
class Verdict:
    check: str
    valid: bool
    headline: str
    melds: list[MeldView] = field(default_factory=list)
    reasons: list[ReasonView] = field(default_factory=list)  # about the whole, not one meld
    conditions: list[str] = field(default_factory=list)  # what a valid answer still waits for
    note: str = ""
    # the solver's answer
    leftover: list[CardView] = field(default_factory=list)
    leftover_penalty: int | None = None
    missing: list[CardView] = field(default_factory=list)


@dataclass
class Context:
    """The game at hand: the table's rules (variant and house rules), round, shoe, open game."""

    table: TableRules
    round: int | None
    decks: int
    jokers: int
    game: Game | None = None
    game_id: str = ""
    shoe: ShoeRule | None = None  # the table's: by its size, else the open game's
    # The table's size: as typed (`?players=`), else the open game's when the check is of its
    # variant; None: unknown, and the check judges by the largest shoe of the players in force.
    players: int | None = None
    players_typed: str = ""  # `?players=` as typed, kept in the form and the address

    @property
    def variant(self) -> Variant:
        return self.table.variant

    @property
    def variant_id(self) -> str:
        return self.table.variant.id

    @property
    def contract_text(self) -> str | None:
        if self.round is None or not self.variant.has_contracts:
            return None
        try:
            return contract_text(self.variant.contract_for(self.round))
        except RefereeError:
            return None


@dataclass
class Outcome:
    """Everything a render needs: the context, the fields as entered, errors, the verdict."""

    check: str
    context: Context
    values: dict[str, str]
    notation: str
    errors: dict[str, list[str]] = field(default_factory=dict)  # field -> messages
    verdict: Verdict | None = None
    status: int = 200
    missing_fields: list[str] = field(default_factory=list)

    @property
    def form_errors(self) -> list[str]:
        """What keeps the check from running (a game not found does not)."""
        return [m for name, messages in self.errors.items() if name != "game" for m in messages]


# -- reading the query --------------------------------------------------------------------


def _text(args: Mapping[str, Any], name: str) -> str:
    value = args.get(name)
    return value[:MAX_FIELD] if isinstance(value, str) else ""


def _table(
    args: Mapping[str, Any], game: Game | None, errors: dict[str, list[str]]
) -> tuple[TableRules, int]:
    """The variant asked for, with the open game's house rules and the query's over them
    (`tables.rules`, as the API reads them)."""
    status = 200
    variant_id = _text(args, "variant").strip() or (game.variant.id if game else DEFAULT_VARIANT)
    try:
        overrides = overrides_from_query(args)
    except RefereeError as error:
        errors.setdefault("house_rules", []).append(describe(error.code, error.params))
        overrides, status = {}, 400
    try:
        return tables.rules(variant_id, overrides, game), status
    except RefereeError as error:
        field = "variant" if error.code == "unknown_variant" else "house_rules"
        errors.setdefault(field, []).append(describe(error.code, error.params))
    try:
        return tables.rules(variant_id, None, game), 400
    except RefereeError:
        return table_rules(DEFAULT_VARIANT), 400


def _round(
    args: Mapping[str, Any], variant: Variant, game: Game | None, errors: dict[str, list[str]]
) -> tuple[int | None, int]:
    """The round asked for, else the open game's next (or last) round, else the first."""
    if not variant.has_contracts:
        return None, 200
    text = _text(args, "round").strip()
    try:
        number = tables.round_of(whole_number(text) if text else None, variant, game)
    except RefereeError as error:
        params = error.params if error.code != "not_a_number" else {"round": text[:8]}
        code = error.code if error.code != "not_a_number" else "bad_round"
        errors.setdefault("round", []).append(describe(code, {"rounds": variant.rounds, **params}))
        return 1, 400
    return number, 200


def read_context(args: Mapping[str, Any], errors: dict[str, list[str]]) -> tuple[Context, int]:
    """The variant, house rules and round the check runs under; errors go into `errors`."""
    status = 200
    game_id = _text(args, "game").strip()
    game = tables.find_game(game_id) if game_id else None
    if game_id and game is None:
        errors.setdefault("game", []).append(
            gettext("That game was not found. The check uses the rules chosen below.")
        )
        status, game_id = 404, ""
    table, table_status = _table(args, game, errors)
    number, round_status = _round(args, table.variant, game, errors)
    typed = _text(args, "players").strip()
    players, players_status = _players(typed, table.variant, errors)
    players, shoe = tables.size(players, table.variant, game)
    context = Context(
        table=table,
        round=number,
        decks=shoe.decks if shoe else table.variant.max_decks,
        jokers=shoe.jokers if shoe else table.variant.max_jokers,
        game=game,
        game_id=game_id,
        shoe=shoe,
        players=players,
        players_typed=typed[:8],
    )
    return context, 400 if 400 in (table_status, round_status, players_status) else status


def _players(typed: str, variant: Variant, errors: dict[str, list[str]]) -> tuple[int | None, int]:
    """The table's size as typed (`?players=`), within the players the variant's rules (and
    house rules) allow; None when nothing was typed or it cannot be read (then said)."""
    if not typed:
        return None, 200
    try:
        players = whole_number(typed)
        variant.check_players(players)
    except RefereeError as error:
        errors.setdefault("players", []).append(describe(error.code, error.params))
        return None, 400
    return players, 200


def shoe_line(context: Context) -> str:
    """Which shoe the verdict judged by, for the line under it: the table's, by its size, or
    (the size unknown) the largest of the players the rules in force allow (RULES.md, fourth
    reading: a house rule `max_players` extends the range)."""
    variant = context.variant
    players = context.players
    if players is None and variant.min_players == variant.max_players:
        players = variant.max_players  # a table of one size (a house rule): known all the same
    if players is not None:
        shoe = context.shoe or variant.shoe_for(players)
        return gettext(
            "Judged by the shoe of a table of %(players)d (%(shoe)s).",
            players=players,
            shoe=shoe_text(shoe.decks, shoe.jokers),
        )
    return gettext(
        "Judged by the largest shoe of %(low)d to %(high)d players (%(shoe)s), as the players "
        "at the table were not given.",
        low=variant.min_players,
        high=variant.max_players,
        shoe=shoe_text(variant.max_decks, variant.max_jokers),
    )


def timing_matters(check: str, variant: Variant) -> bool:
    """Whether this check asks when the player's own contract went down (only where it
    changes the answer)."""
    if check == "layoff":
        return layoff_waits_for_contract(variant)
    if check == "swap":
        return swap_waits_for_contract(variant)
    return False


def whose_meld_matters(check: str, variant: Variant) -> bool:
    """Whether this check asks whose meld the joker is in (a swap where that decides it)."""
    return check == "swap" and swap_asks_whose_meld(variant)


def taken_card_matters(context: Context) -> bool:
    """Whether a going-out check asks which cards came from the discard pile this turn (a
    variant where the one card taken may not be the discard)."""
    return discard_allowed(context) and not context.variant.rediscard_taken_card


def discard_allowed(context: Context) -> bool:
    """Whether going out in the round at hand may end with a discard (the field is shown)."""
    if context.round is None or not context.variant.has_contracts:
        return False
    return context.variant.going_out_discard_in(context.round) is not GoingOutDiscard.FORBIDDEN


def split_melds(text: str) -> list[str]:
    """One meld per line (or between bars), blank lines left out."""
    return [part for part in (p.strip() for p in _MELD_BREAK.split(text)) if part]


# -- running a check ----------------------------------------------------------------------


def run_check(args: Mapping[str, Any], lang: str) -> Outcome:
    """Read the query, run the check it asks for, and say what came out."""
    check = _text(args, "check")
    check = check if check in CHECKS else "meld"
    notation = _text(args, "notation")
    notation = notation if notation in LOCAL_RANK_LETTERS else lang
    errors: dict[str, list[str]] = {}
    context, status = read_context(args, errors)
    names = ("cards", "melds", "meld", "card", "hand", "discard", "from_discard_pile")
    values = {name: _text(args, name) for name in names}
    outcome = Outcome(check, context, values, notation=lang, errors=errors, status=status)
    going_out = _text(args, "going_out") in ("1", "on", "true", "y", "yes")
    outcome.values["going_out"] = "1" if going_out else ""
    when = _text(args, "contract_down")
    outcome.values["contract_down"] = when if when in CONTRACT_DOWN else ""
    whose = _text(args, "whose_meld")
    outcome.values["whose_meld"] = whose if whose in WHOSE_MELD else ""

    wanted = CARD_FIELDS[check]
    optional = ("discard", "from_discard_pile") if check == "contract" and going_out else ()
    parsed = _parse_fields((*wanted, *optional), values, notation, outcome.errors)
    if notation != lang and not any(name in outcome.errors for name in wanted):
        _rewrite_in(lang, parsed, values)

    outcome.missing_fields = [n for n in wanted if not values[n].strip()]
    if any(name != "game" for name in outcome.errors):
        # Nothing is checked on input that could not be read; the page says what to fix.
        outcome.status = 400
        return outcome
    if outcome.missing_fields:
        return outcome
    asked = Asked(
        going_out=going_out,
        contract_down=ContractDown(when) if when in CONTRACT_DOWN else None,
        own_meld={"own": True, "other": False}.get(whose),
    )
    try:
        outcome.verdict = _RUNNERS[check](parsed, context, asked)
    except RefereeError as error:
        outcome.errors.setdefault("check", []).append(describe(error.code, error.params))
        outcome.status = 400
    return outcome


def _rewrite_in(lang: str, parsed: Mapping[str, Any], values: dict[str, str]) -> None:
    """A link shared from a table of another language: the cards in this page's letters."""
    for name, cards in parsed.items():
        if name == "melds":
            values[name] = "\n".join(cards_notation(meld, lang) for meld in cards)
        else:
            values[name] = cards_notation(cards, lang)


def _parse_fields(
    wanted: Sequence[str], values: Mapping[str, str], notation: str, errors: dict[str, list[str]]
) -> dict[str, Any]:
    """The card fields a check reads, parsed; what cannot be read goes into `errors`."""
    parsed: dict[str, Any] = {}
    for name in wanted:
        text = values[name]
        if not text.strip():
            continue
        try:
            if name == "melds":
                melds = split_melds(text)
                if len(melds) > MAX_MELDS:
                    raise RefereeError("too_many_melds", limit=MAX_MELDS)
                parsed[name] = [parse_cards(m, notation) for m in melds]
            else:
                parsed[name] = parse_cards(text, notation)
                if name in ("card", "discard") and len(parsed[name]) != 1:
                    raise RefereeError("bad_input", field=_field_label(name))
        except RefereeError as error:
            errors.setdefault(name, []).append(describe(error.code, error.params))
    return parsed


def _field_label(name: str) -> str:
    labels = {
        "cards": gettext("Cards"),
        "melds": gettext("Melds"),
        "meld": gettext("Meld on the table"),
        "card": gettext("Card from the hand"),
        "hand": gettext("Hand"),
        "discard": gettext("Last discard"),
        "from_discard_pile": gettext("Taken from the discard pile"),
    }
    return labels[name]


# -- shaping verdicts ---------------------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """What the page was told beside the cards: going out, when the contract went down, and
    (a joker swap) whether the meld is the player's own."""

    going_out: bool = False
    contract_down: ContractDown | None = None
    own_meld: bool | None = None


def _conditions(conditions: Sequence[Violation]) -> list[str]:
    return [describe(c.code, c.params) for c in conditions]


def card_view(card: Card, flagged: bool = False) -> CardView:
    if card.is_joker:
        declared = card.stands_for
        return CardView(
            "JK", "joker", card_label(declared) if declared is not None else None, flagged
        )
    assert card.suit is not None
    return CardView(card_label(card), f"suit-{card.suit.value.lower()}", None, flagged)


def _about(card: Card, violations: Sequence[Violation]) -> bool:
    """Whether a reason names this card (by the card, its rank or its suit)."""
    plain = card.stands_for or card
    for v in violations:
        named = v.params.get("card") or v.params.get("joker")
        if named is not None and str(named) in (str(card.plain), str(plain), str(card)):
            return True
        if card.is_natural and card.rank is not None and card.suit is not None:
            if v.code == "run_ranks_repeat" and v.params.get("rank") == card.rank.letter:
                return True
            if v.code == "set_suits_repeat" and v.params.get("suit") == card.suit.value:
                return True
    return False


def _joker_sentences(reading: Reading) -> list[str]:
    return [
        gettext("The joker stands for %(card)s.", card=card_label(stands_for))
        for _joker, stands_for in reading.jokers
    ]


def meld_view(
    verdict: MeldVerdict, violations: Sequence[Violation] = (), title: str = ""
) -> MeldView:
    """One meld: its cards in meld order, its kind, its jokers, and what is wrong with it."""
    reasons = list(violations) or list(verdict.violations)
    if verdict.valid and verdict.reading is not None:
        reading = verdict.reading
        cards = [card_view(c) for c in reading.cards]
        for view, c in zip(cards, reading.cards, strict=True):
            if c.stands_for is not None:
                view.stands_for = card_label(c.stands_for)
            view.flagged = _about(c, reasons)
        jokers = _joker_sentences(reading)
        if verdict.ambiguous:
            others = [
                "; ".join(_joker_sentences(r)) or meld_kind_label(r.kind)
                for r in verdict.readings[1:4]
            ]
            jokers.append(gettext("It could also be read: %(others)s", others=" / ".join(others)))
        return MeldView(
            cards=cards,
            valid=not reasons,
            kind=meld_kind_label(reading.kind),
            jokers=jokers,
            ambiguous=verdict.ambiguous,
            reasons=[ReasonView(describe(v.code, v.params), v.meld) for v in reasons],
            title=title,
        )
    return MeldView(
        cards=[card_view(c, _about(c, reasons)) for c in verdict.cards],
        valid=False,
        reasons=[ReasonView(describe(v.code, v.params), v.meld) for v in reasons],
        title=title,
    )


def _meld_title(index: int) -> str:
    return gettext("Meld %(number)s", number=index + 1)


def _check_meld(parsed: Mapping[str, Any], context: Context, _asked: Asked) -> Verdict:
    verdict = check_meld(parsed["cards"], context.variant, shoe=context.shoe)
    view = meld_view(verdict)
    if verdict.valid and verdict.kind is MeldKind.SET:
        headline = gettext("Valid: this is a set.")
    elif verdict.valid:
        headline = gettext("Valid: this is a run.")
    else:
        headline = gettext("Not a valid meld.")
    return Verdict("meld", verdict.valid, headline, melds=[view])


def _check_contract(parsed: Mapping[str, Any], context: Context, asked: Asked) -> Verdict:
    if not context.variant.has_contracts:
        raise RefereeError("no_contract", variant=context.variant.id)
    assert context.round is not None
    going_out = asked.going_out
    discard = parsed["discard"][0] if going_out and parsed.get("discard") else None
    verdict = check_contract(
        parsed["melds"],
        context.variant,
        context.round,
        going_out=going_out,
        discard=discard,
        from_discard_pile=parsed.get("from_discard_pile", ()) if discard else (),
        shoe=context.shoe,
        players=context.players,
    )
    views = []
    for index, meld in enumerate(verdict.melds):
        own = [v for v in verdict.violations if v.meld == index]
        views.append(meld_view(meld, own, _meld_title(index)))
    whole = [ReasonView(describe(v.code, v.params)) for v in verdict.violations if v.meld is None]
    contract = contract_text(verdict.contract)
    if verdict.valid:
        headline = gettext("Valid: the contract %(contract)s is met.", contract=contract)
        if going_out:
            headline = gettext(
                "Valid: the contract %(contract)s is met and the player goes out.",
                contract=contract,
            )
    else:
        headline = gettext("The contract %(contract)s is not met.", contract=contract)
    return Verdict("contract", verdict.valid, headline, melds=views, reasons=whole)


def _check_layoff(parsed: Mapping[str, Any], context: Context, asked: Asked) -> Verdict:
    table = check_meld(parsed["meld"], context.variant, shoe=context.shoe)
    verdict = check_layoff(
        parsed["meld"],
        parsed["cards"],
        context.variant,
        contract_down=asked.contract_down,
        shoe=context.shoe,
    )
    if not table.valid:
        view = meld_view(table, title=gettext("The meld on the table"))
        return Verdict(
            "layoff",
            False,
            gettext("The meld on the table is not a valid meld, so nothing can be laid off on it."),
            melds=[view],
        )
    view = meld_view(verdict.meld, verdict.violations, gettext("The meld after the lay-off"))
    if verdict.valid and verdict.meld.kind is MeldKind.SET:
        headline = gettext("Valid: the cards may be laid off; the set stays a set.")
    elif verdict.valid:
        headline = gettext("Valid: the cards may be laid off; the run stays a run.")
    elif verdict.meld.valid:
        headline = gettext("These cards fit the meld, but may not be laid off yet.")
    else:
        headline = gettext("These cards cannot be laid off on this meld.")
        view.cards = [card_view(c, _about(c, verdict.violations)) for c in verdict.meld.cards]
    return Verdict(
        "layoff",
        verdict.valid,
        headline,
        melds=[view],
        conditions=_conditions(verdict.conditions),
    )


def _check_swap(parsed: Mapping[str, Any], context: Context, asked: Asked) -> Verdict:
    card = parsed["card"][0]
    verdict = check_joker_swap(
        parsed["meld"],
        card,
        context.variant,
        contract_down=asked.contract_down,
        own_meld=asked.own_meld,
        shoe=context.shoe,
    )
    if verdict.valid:
        view = meld_view(verdict.meld, title=gettext("The meld after the swap"))
        freed = verdict.joker_as
        headline = gettext("Valid: %(card)s takes the joker's place.", card=card_label(card))
        note = (
            gettext(
                "The joker stood for %(card)s and goes to the player's hand.",
                card=card_label(freed),
            )
            if freed is not None
            else ""
        )
        conditions = _conditions(verdict.conditions)
        return Verdict("swap", True, headline, melds=[view], conditions=conditions, note=note)
    table = check_meld(parsed["meld"], context.variant, shoe=context.shoe)
    view = meld_view(table, verdict.violations, gettext("The meld on the table"))
    view.valid = False
    headline = gettext("This joker swap is not allowed.")
    if any(v.code == "swap_from_own_meld" for v in verdict.violations):
        headline = gettext("A joker may be swapped only out of another player's meld.")
    elif verdict.meld.valid:  # the card fits: only the timing is wrong
        headline = gettext("The card fits, but the joker may not be swapped yet.")
    return Verdict("swap", False, headline, melds=[view])


def _check_solve(parsed: Mapping[str, Any], context: Context, _asked: Asked) -> Verdict:
    from referee.engine.solver import solve

    hand = parsed["hand"]
    verify_hand_size(len(hand), context.variant, context.round or 1, context.players)
    outside = shoe_violations(hand, context.variant, context.shoe)
    if outside:  # a hand this shoe cannot deal: nothing to search
        view = meld_view(MeldVerdict(hand, (), tuple(outside)), title=gettext("Hand"))
        headline = gettext("This hand cannot come from this game's cards.")
        return Verdict("solve", False, headline, melds=[view])
    solution = solve(hand, context.variant, context.round or 1, nearest=True)
    views = []
    for index, reading in enumerate(solution.melds):
        views.append(
            meld_view(MeldVerdict(reading.cards, (reading,), ()), title=_meld_title(index))
        )
    leftover = [card_view(c) for c in solution.leftover]
    missing = [card_view(c) for c in solution.missing]
    penalty = solution.leftover_penalty
    if not context.variant.has_contracts:
        if views:
            headline = ngettext(
                "Lay these down: %(num)d point stays in the hand.",
                "Lay these down: %(num)d points stay in the hand.",
                penalty,
            )
        else:
            headline = gettext("No meld can be laid down from this hand.")
        valid = bool(views)
    elif solution.can_meet_contract:
        valid = True
        contract = contract_text(context.variant.contract_for(context.round or 1))
        if solution.leftover:
            headline = ngettext(
                "Yes: this hand can lay down %(contract)s; %(num)d point stays in the hand.",
                "Yes: this hand can lay down %(contract)s; %(num)d points stay in the hand.",
                penalty,
                contract=contract,
            )
        else:
            headline = gettext(
                "Yes: this hand lays down %(contract)s with no card left: it can go out.",
                contract=contract,
            )
    else:
        valid = False
        contract = contract_text(context.variant.contract_for(context.round or 1))
        headline = gettext("Not yet: this hand cannot lay down %(contract)s.", contract=contract)
    return Verdict(
        "solve",
        valid,
        headline,
        melds=views,
        leftover=leftover,
        leftover_penalty=penalty,
        missing=missing,
        note=_inexact_note(solution.exact),
    )


def _inexact_note(exact: bool) -> str:
    if exact:
        return ""
    return gettext(
        "This hand has so many ways to lay down that the search stopped at its limit: "
        "this is the best way it found, and a better one may exist."
    )


_RUNNERS: Mapping[str, Callable[[Mapping[str, Any], Context, Asked], Verdict]] = {
    "meld": _check_meld,
    "contract": _check_contract,
    "layoff": _check_layoff,
    "swap": _check_swap,
    "solve": _check_solve,
}
