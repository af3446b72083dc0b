"""The games' forms: start a game (with its house rules), enter or correct a round, import."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)

# SelectChoice is new in WTForms 3.2 (tuples are deprecated); types-WTForms does not list it yet.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]

from referee.engine.cards import Rank, parse_cards
from referee.engine.errors import Reason, RefereeError, reason
from referee.engine.game import MAX_SEATS, Game, SeatResult
from referee.engine.names import MAX_NAME
from referee.engine.variants import HOUSE_RULES, VARIANTS, Contract, RuleKind, ShoeRule, Variant
from referee.web.core.languages import LANGUAGES
from referee.web.vocabulary.fields import WholeNumberField
from referee.web.vocabulary.words import (
    choice_label,
    house_rule_help,
    house_rule_label,
    variant_name,
)

from .results import BUYS, POINTS

CONTRACT_ROWS = 10
#: The most rows a posted contract table is read to (the engine's table has 12 rounds at most):
#: every list a form reads is bounded, so a 1 MB form costs what a real one does.
MAX_CONTRACT_ROWS = 12
#: The most value classes a hand's cards fall in: one per rank, and the jokers.
MAX_CLASSES = len(Rank) + 1
# The switches shown first: what tables argue about most. The rest sit behind "more".
MAIN_RULES = ("buying", "buy_limit", "stock_reshuffles", "target", "joker_points")


# -- starting a game ----------------------------------------------------------------------------


class ContractRowForm(Form):
    """One round of a custom contract table: so many sets and runs, and the cards dealt."""

    sets = WholeNumberField(_l("Sets"), low=0, high=6)
    set_size = WholeNumberField(_l("of"), low=2, high=8)
    runs = WholeNumberField(_l("Runs"), low=0, high=6)
    run_size = WholeNumberField(_l("of"), low=3, high=13)
    deal = WholeNumberField(_l("Cards"), low=1, high=20)


class ShoeRowForm(Form):
    """Decks and jokers for a range of player counts."""

    min_players = HiddenField()
    max_players = HiddenField()
    decks = WholeNumberField(_l("Decks"), low=1, high=8)
    jokers = WholeNumberField(_l("Jokers"), low=0, high=16)


def _house_rule_fields() -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for name, rule in HOUSE_RULES.items():
        if rule.kind is RuleKind.BOOL:
            fields[f"hr_{name}"] = BooleanField(name)
        elif rule.kind.number:
            fields[f"hr_{name}"] = WholeNumberField(name, low=rule.low, high=rule.high)
        elif rule.kind is RuleKind.CHOICE:
            fields[f"hr_{name}"] = SelectField(
                name, choices=[SelectChoice(c, c) for c in rule.choices], validate_choice=False
            )
    return fields


class NewGameForm(FlaskForm):
    """Variant, players in seat order, first dealer and language (the house rules apart).

    The first dealer is chosen among the names typed: the page's script names the choices as
    they are typed; without it the field is not sent, and a second step asks (`dealer_seats`).
    """

    variant = SelectField(_l("Variant"), choices=[])
    players = FieldList(
        # No maxlength (a browser cuts a longer name silently): app.js says how many letters
        # are over as it is typed, and the server refuses it, keeping what was typed.
        StringField(
            render_kw={
                "data-max-letters": MAX_NAME,
                "data-over-text": _l("%(num)s letters too many", num="{num}"),
                "data-over-one": _l("1 letter too many"),
                "autocomplete": "off",
                "autocapitalize": "words",
            }
        ),
        label=_l("Players, in seat order"),
        min_entries=MAX_SEATS,
        max_entries=MAX_SEATS,
    )
    first_dealer = SelectField(_l("Deals first"), choices=[], coerce=int, validate_choice=False)
    lang = SelectField(
        _l("Language of the game"), choices=[SelectChoice(k, v) for k, v in LANGUAGES.items()]
    )
    start = SubmitField(_l("Start the game"))
    load_variant = SubmitField(_l("Show this variant’s rules"))
    show_rules = SubmitField(_l("Change the house rules"))

    def setup(self) -> None:
        """Choices and labels in the request's language: each seat by its name once typed."""
        self.variant.choices = [SelectChoice(vid, variant_name(vid)) for vid in VARIANTS]
        self.first_dealer.choices = [
            SelectChoice(seat, name.strip() or _l("Player %(number)s", number=seat + 1))
            for seat, name in enumerate(entry.data or "" for entry in self.players.entries)
        ]
        for index, entry in enumerate(self.players.entries):
            entry.label.text = _l("Player %(number)s", number=index + 1)

    def player_names(self) -> list[str]:
        """The names typed, in seat order: the seats left empty are not at the table."""
        return [(entry.data or "").strip() for entry in self.players.entries if entry.data]

    def dealer_seats(self) -> list[tuple[int, str]]:
        """The seats with a name, as (seat, name): whom a table may choose to deal first."""
        seats = [(seat, (entry.data or "").strip()) for seat, entry in enumerate(self.players)]
        return [(seat, name) for seat, name in seats if name]

    def first_dealer_name(self) -> str | None:
        """The name in the seat chosen to deal first (seats counted with the empty ones), or
        None when no seat with a name was chosen: the table is asked."""
        seat = self.first_dealer.data
        return dict(self.dealer_seats()).get(seat) if isinstance(seat, int) else None


class HouseRulesForm(Form):
    """Every house rule of a variant as a field: drawn only for a table that opens them."""

    contracts = FieldList(
        FormField(ContractRowForm), min_entries=CONTRACT_ROWS, max_entries=MAX_CONTRACT_ROWS
    )
    shoe = FieldList(FormField(ShoeRowForm), min_entries=1, max_entries=8)
    points = FieldList(WholeNumberField(low=0, high=100), min_entries=13, max_entries=13)

    locals().update(_house_rule_fields())

    def setup(self, variant: Variant) -> None:
        """Labels in the request's language, and a shoe row per player range of the variant."""
        for name in HOUSE_RULES:
            field = getattr(self, f"hr_{name}", None)
            if field is None:
                continue
            field.label.text = house_rule_label(name)
            field.description = house_rule_help(name)
            if HOUSE_RULES[name].kind is RuleKind.CHOICE:
                field.choices = [
                    SelectChoice(c, choice_label(c)) for c in HOUSE_RULES[name].choices
                ]
        while len(self.shoe.entries) < len(variant.shoe):
            self.shoe.append_entry()
        del self.shoe.entries[len(variant.shoe) :]
        for row, rule in zip(self.shoe.entries, variant.shoe, strict=True):
            row.form.min_players.data = str(rule.min_players)
            row.form.max_players.data = str(rule.max_players)
        for rank, points_entry in zip(Rank, self.points.entries, strict=True):
            points_entry.label.text = rank.letter

    def fill(self, variant: Variant) -> None:
        """Show the variant's own values in every house-rule field.

        What was posted for the variant shown before is dropped too: a field renders its raw
        input over its data, so another variant's target or values would stay on the page.
        """
        for field in self._house_rule_inputs():
            field.raw_data = None
        for name, rule in HOUSE_RULES.items():
            field = getattr(self, f"hr_{name}", None)
            if field is None:
                continue
            value = getattr(variant, name)
            field.data = value.value if rule.kind is RuleKind.CHOICE else value
        for index, contract_row in enumerate(self.contracts.entries):
            rows = contract_row.form
            if index < len(variant.contracts):
                c = variant.contracts[index]
                rows.sets.data, rows.set_size.data = c.sets, c.set_size
                rows.runs.data, rows.run_size.data = c.runs, c.run_size
                rows.deal.data = variant.deal[index]
            else:
                rows.sets.data = rows.runs.data = rows.deal.data = None
                rows.set_size.data = rows.run_size.data = None
        for shoe_row, shoe in zip(self.shoe.entries, variant.shoe, strict=True):
            shoe_row.form.decks.data, shoe_row.form.jokers.data = shoe.decks, shoe.jokers
        for entry, points in zip(self.points.entries, variant.rank_points, strict=True):
            entry.data = points

    def _house_rule_inputs(self) -> list[Any]:
        fields = [getattr(self, f"hr_{name}", None) for name in HOUSE_RULES]
        for contract_row in self.contracts.entries:
            fields.extend(contract_row.form)
        for shoe_row in self.shoe.entries:
            fields.extend((shoe_row.form.decks, shoe_row.form.jokers))
        fields.extend(self.points.entries)
        return [f for f in fields if f is not None]

    def house_rules(self, variant: Variant) -> dict[str, Any]:
        """The house rules that differ from the variant, as `apply_house_rules` reads them."""
        overrides = self._switches(variant)
        if variant.has_contracts:
            overrides.update(self._contract_table(variant))
        shoe = self._shoe(variant)
        if shoe is not None:
            overrides["shoe"] = shoe
        points = {
            rank.letter: entry.data
            for rank, entry, current in zip(
                Rank, self.points.entries, variant.rank_points, strict=True
            )
            if entry.data is not None and entry.data != current
        }
        if points:
            overrides["rank_points"] = points
        return overrides

    def _switches(self, variant: Variant) -> dict[str, Any]:
        """The yes/no, number and choice switches that differ from the variant."""
        overrides: dict[str, Any] = {}
        for name, rule in HOUSE_RULES.items():
            field = getattr(self, f"hr_{name}", None)
            if field is None:
                continue
            current = getattr(variant, name)
            value: Any = field.data
            if rule.kind is RuleKind.BOOL:
                value = bool(value)
            elif rule.kind is RuleKind.CHOICE:
                current = current.value
            if (value is None and rule.kind is RuleKind.INT) or (
                rule.kind is RuleKind.CHOICE and not value
            ):
                continue  # left empty: keep the variant's
            if value != current:
                overrides[name] = value
        return overrides

    def _contract_table(self, variant: Variant) -> dict[str, Any]:
        """The contracts and deal sizes, where the table's rows differ from the variant's."""
        table: list[Contract] = []
        deal: list[int] = []
        for index, row in enumerate(self.contracts.entries):
            form = row.form
            sets, runs = form.sets.data or 0, form.runs.data or 0
            if not sets and not runs:
                continue
            base = variant.contracts[min(index, len(variant.contracts) - 1)]
            table.append(
                Contract(
                    sets=sets,
                    runs=runs,
                    set_size=form.set_size.data or base.set_size,
                    run_size=form.run_size.data or base.run_size,
                )
            )
            deal.append(form.deal.data or variant.deal[min(index, len(variant.deal) - 1)])
        if table and tuple(table) != variant.contracts:
            return {"contracts": [c.to_dict() for c in table], "deal": deal}
        if table and tuple(deal) != variant.deal:
            return {"deal": deal}
        return {}

    def _shoe(self, variant: Variant) -> list[dict[str, int]] | None:
        shoe = []
        for row, rule in zip(self.shoe.entries, variant.shoe, strict=False):
            decks = row.form.decks.data if row.form.decks.data is not None else rule.decks
            jokers = row.form.jokers.data if row.form.jokers.data is not None else rule.jokers
            shoe.append(ShoeRule(rule.min_players, rule.max_players, decks, jokers))
        if shoe and tuple(shoe) != variant.shoe:
            return [s.to_dict() for s in shoe]
        return None


def house_rule_field_names(variant: Variant) -> tuple[list[str], list[str]]:
    """The simple switches, split into the ones shown first and the rest."""
    names = [n for n, r in HOUSE_RULES.items() if r.kind.simple]
    main = [n for n in MAIN_RULES if n in names]
    return main, [n for n in names if n not in main]


# -- entering a round ---------------------------------------------------------------------------


class SeatForm(Form):
    """What one player had left: a number, the cards, or counts by value class."""

    penalty = WholeNumberField(_l("Points left"), low=POINTS[0], high=POINTS[1])
    cards = StringField(_l("Cards left"), render_kw={"autocomplete": "off"})
    classes = FieldList(WholeNumberField(low=0, high=99), min_entries=0, max_entries=MAX_CLASSES)
    buys = WholeNumberField(_l("Buys"), low=BUYS[0], high=BUYS[1])


class RoundForm(FlaskForm):
    """A round's results. `version` is the game's version the form was made from; `same_again`
    says the table saw that this round scores as the one before and keeps it all the same."""

    version = HiddenField()
    round = HiddenField()
    went_out = StringField(_l("Went out"))
    rummy = BooleanField(_l("Rummy (all in one turn): double"))
    seats = FieldList(FormField(SeatForm), min_entries=0, max_entries=MAX_SEATS)
    same_again = BooleanField()
    save = SubmitField(_l("Save the round"))

    def read_results(
        self, game: Game, class_points: Sequence[int], lang: str | None
    ) -> tuple[list[SeatResult | None], list[Reason]]:
        """Each seat's result as typed (None where its entries cannot be read), and every reason
        something cannot be read: who went out, numbers, cards.

        Counts by value class become the points of the hand (and must agree with points typed).
        """
        reasons: list[Reason] = []
        out = (self.went_out.data or "").strip()
        if out == "":
            reasons.append(reason("mark_who_went_out", field="went_out"))
        elif out != "none" and out not in {str(seat) for seat in range(len(game.players))}:
            reasons.append(reason("bad_input", field="went_out"))
        results: list[SeatResult | None] = []
        for seat, entry in enumerate(self.seats.entries[: len(game.players)]):
            went_out = out == str(seat)
            if any(field.errors for field in entry.form):
                results.append(None)  # the field says why, under it
                continue
            result = _seat_result(entry.form, seat, went_out, class_points, lang, reasons)
            if went_out and result is not None:
                result = replace(result, rummy=bool(self.rummy.data))
            results.append(result)
        return results, reasons


def _seat_result(
    form: Any,
    seat: int,
    went_out: bool,
    class_points: Sequence[int],
    lang: str | None,
    reasons: list[Reason],
) -> SeatResult | None:
    """A seat's result, or None with the reason when its cards cannot be read."""
    buys = form.buys.data or 0
    if went_out:
        return SeatResult(went_out=True, buys=buys)
    penalty = form.penalty.data
    counts = [entry.data or 0 for entry in form.classes.entries][: len(class_points)]
    if any(counts):
        counted = sum(n * points for n, points in zip(counts, class_points, strict=False))
        if penalty is not None and penalty != counted:
            reasons.append(
                reason(
                    "penalty_mismatch",
                    player=seat,
                    field="penalty",
                    penalty=penalty,
                    cards_penalty=counted,
                )
            )
        penalty = counted
    cards = None
    text = (form.cards.data or "").strip()
    if text:
        try:
            cards = parse_cards(text, lang)
        except RefereeError as error:
            reasons.append(Reason(error.code, dict(error.params), seat, "cards"))
            return None
    return SeatResult(penalty=penalty, cards=cards, buys=buys)


class ImportForm(FlaskForm):
    """A game saved as JSON from a game page, sent back as a file or pasted."""

    file = FileField(_l("Game file (.json)"))
    text = TextAreaField(_l("…or paste it here"), render_kw={"rows": 3})
    submit = SubmitField(_l("Import the game"))


class UndoForm(FlaskForm):
    """Undo and restore: the version the phone saw, so that a stale tap takes nothing back."""

    version = HiddenField()


class RematchForm(FlaskForm):
    """Another game for the same table (nothing to fill in: the button is the form)."""
