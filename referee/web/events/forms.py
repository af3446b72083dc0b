"""The club nights' forms: a new evening, check-in (members by tap, newcomers by name), a
player leaving, and the series' buttons (draw, swap, start, draw again). Each carries the
evening's version, so a form sent after another phone changed the evening is refused (409)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    DateField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)

# SelectChoice is new in WTForms 3.2 (tuples are deprecated); types-WTForms does not list it yet.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import InputRequired, Length, Optional

from referee.engine.events import MAX_EVENT_NAME, MAX_SERIES
from referee.engine.tournament import SCHEMES
from referee.engine.variants import VARIANTS
from referee.web.clubs.forms import MemberChecks, label_new_names, new_names_field, typed_names
from referee.web.core.languages import LANGUAGES
from referee.web.vocabulary.fields import WholeNumberField
from referee.web.vocabulary.words import variant_name


def scheme_label(scheme_id: str) -> Any:
    labels = {
        "romme": _l("Classic Rommé: points by place, a bonus for few points left"),
        "placement": _l("By place only"),
        "points": _l("By points only"),
    }
    return labels.get(scheme_id, scheme_id)


class NewEventForm(FlaskForm):
    """A new evening in the club."""

    name = StringField(
        _l("Name of the evening"),
        validators=[InputRequired(), Length(max=MAX_EVENT_NAME)],
        render_kw={"maxlength": MAX_EVENT_NAME, "autocomplete": "off"},
    )
    date = DateField(_l("Date"), validators=[Optional()])
    variant = SelectField(_l("Variant"), choices=[])
    house_rules = TextAreaField(
        _l("House rules"),
        description=_l("One a line, as name=value (the rule cards list them); empty: none."),
        render_kw={"rows": 2},
    )
    series = WholeNumberField(
        _l("Series"), low=1, high=MAX_SERIES, default=4, validators=[InputRequired()]
    )
    # Any size is read here; the engine says which a table may have (3 to 5), in its words.
    table_size = WholeNumberField(
        _l("Table size"),
        low=0,
        high=99,
        default=4,
        validators=[InputRequired()],
        description=_l("3 to 5: tables of this size where the count allows."),
    )
    ends = RadioField(
        _l("A series ends"),
        choices=[
            SelectChoice("game", _l("with the whole game")),
            SelectChoice("rounds", _l("after a number of rounds")),
        ],
        default="game",
    )
    series_rounds = WholeNumberField(_l("Rounds a series"), low=1, high=99)
    scheme = RadioField(_l("Tournament points"), choices=[], default="romme")
    later_draws = RadioField(
        _l("Series 2 on are drawn"),
        choices=[
            SelectChoice("mix", _l("mixed: opponents repeat as little as possible")),
            SelectChoice("standings", _l("by standings: the strongest together")),
            SelectChoice("random", _l("at random")),
        ],
        default="mix",
    )
    # Any number is read here; the engine says which a clock may have (5 to 240), in its words.
    series_minutes = WholeNumberField(
        _l("Time limit of a series, in minutes"),
        low=-9999,
        high=9999,
        description=_l("5 to 240, counted from the series' start; empty: no clock."),
    )
    clock_rule = RadioField(
        _l("When the time is up"),
        choices=[
            SelectChoice("finish_round", _l("the tables finish the round in progress")),
            SelectChoice("one_more", _l("the tables finish that round and play one more")),
        ],
        default="finish_round",
    )
    lang = SelectField(
        _l("Language of the evening"), choices=[SelectChoice(k, v) for k, v in LANGUAGES.items()]
    )
    create = SubmitField(_l("Create the evening"))

    def setup(self) -> None:
        self.variant.choices = [SelectChoice(vid, variant_name(vid)) for vid in VARIANTS]
        self.scheme.choices = [SelectChoice(sid, scheme_label(sid)) for sid in SCHEMES]

    def settings(self, house_rules: dict[str, Any]) -> dict[str, Any]:
        """What the service reads (the engine checks it)."""
        rounds = self.series_rounds.data if self.ends.data == "rounds" else None
        return {
            "name": self.name.data or "",
            "date": self.date.data,
            "variant": self.variant.data,
            "house_rules": house_rules,
            "series": self.series.data,
            "table_size": self.table_size.data,
            "series_rounds": rounds,
            "scheme": self.scheme.data,
            "later_draws": self.later_draws.data,
            "series_minutes": self.series_minutes.data,
            "clock_rule": self.clock_rule.data,
        }


class CheckInForm(FlaskForm):
    """Members by tap, newcomers by name."""

    version = HiddenField()
    members = MemberChecks(_l("Members"), choices=[], validate_choice=False)
    new_names = new_names_field()
    check_in = SubmitField(_l("Check in"))

    def setup(self, members: Sequence[str]) -> None:
        self.members.choices = [SelectChoice(name, name) for name in members]
        label_new_names(self.new_names)

    def names(self) -> list[str]:
        return list(self.members.data or []) + typed_names(self.new_names)


class SeriesForm(FlaskForm):
    """The series' buttons: draw (the next, by a method), swap two players, move one to
    another table, start, draw again; reopen a series the next draw fixed, close it again.
    The page draws each form's hidden fields itself (the series and the action)."""

    first = SelectField(_l("Swap"), choices=[], validate_choice=False)
    second = SelectField(_l("with"), choices=[], validate_choice=False)
    name = SelectField(_l("Move"), choices=[], validate_choice=False)
    table = SelectField(_l("to table"), choices=[], validate_choice=False)

    def setup(self, tables: Sequence[Sequence[str]]) -> None:
        """The players of a series drawn and not started, table by table."""
        choices = [
            SelectChoice(name, gettext("%(name)s (table %(table)s)", name=name, table=number))
            for number, seats in enumerate(tables, start=1)
            for name in seats
        ]
        self.first.choices = choices
        self.second.choices = choices
        self.name.choices = choices
        self.table.choices = [
            SelectChoice(str(number), str(number)) for number in range(1, len(tables) + 1)
        ]
        if len(choices) > 1:
            self.second.data = choices[1].value


class SeatingForm(FlaskForm):
    """One seating rule more: keep two players apart or together, or one at a fixed table;
    the names are chosen from the evening's players."""

    keep = RadioField(
        _l("Rule"),
        choices=[
            SelectChoice("apart", _l("keep apart (a couple)")),
            SelectChoice("together", _l("keep together (they share a car)")),
            SelectChoice("table", _l("a fixed table (mobility)")),
        ],
        default="apart",
        validate_choice=False,
    )
    first = SelectField(_l("Player"), choices=[], validate_choice=False)
    second = SelectField(_l("and player"), choices=[], validate_choice=False)
    table = SelectField(_l("Table (a fixed table)"), choices=[], validate_choice=False)

    def setup(self, players: Sequence[str], tables: int) -> None:
        choices = [SelectChoice(name, name) for name in players]
        self.first.choices = choices
        self.second.choices = choices
        self.table.choices = [SelectChoice(str(n), str(n)) for n in range(1, tables + 1)]
        if len(choices) > 1 and self.second.data is None:
            self.second.data = choices[1].value

    def rule(self) -> dict[str, Any]:
        """The rule as the engine reads one (it says what is wrong with it)."""
        keep = self.keep.data
        if keep == "table":
            table = self.table.data or ""
            number = int(table) if table.isdigit() and len(table) <= 6 else -1
            return {"keep": keep, "players": [self.first.data or ""], "table": number}
        return {"keep": keep, "players": [self.first.data or "", self.second.data or ""]}


class SelfCheckInForm(FlaskForm):
    """A player's phone at the check-in link (a name tapped or typed, in or out), and the
    host's controls of the link (open, close, undo): what to do and for whom."""

    action = HiddenField(default="check_in")
    name = StringField(render_kw={"autocomplete": "off"})
    new_name = StringField(_l("Not in the list? Your name"), render_kw={"autocomplete": "name"})

    def typed_name(self) -> str:
        """The name tapped, else the one typed."""
        return (self.name.data or "").strip() or (self.new_name.data or "").strip()
