"""The clubs' forms: found a club, start a club game (members by tap, newcomers by name),
play the last table again, import a club, and print a sheet with the members' names."""

from __future__ import annotations

from collections.abc import Sequence

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    FieldList,
    Form,
    HiddenField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
    TextAreaField,
)

# SelectChoice is new in WTForms 3.2 (tuples are deprecated); types-WTForms does not list it yet.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import InputRequired, Length
from wtforms.widgets import CheckboxInput, ListWidget

from referee.engine.club import MAX_CLUB_NAME
from referee.engine.variants import VARIANTS
from referee.web.core.languages import LANGUAGES
from referee.web.vocabulary.words import variant_name

#: Name fields for people who are not members yet, on the new-game form.
NEW_NAME_FIELDS = 4


class MemberChecks(SelectMultipleField):
    """Members as a list of checkboxes, picked by tap (a club game's table, an evening's
    check-in)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


def new_names_field() -> FieldList[StringField]:
    """`NEW_NAME_FIELDS` fields for names that are not members yet (they become members)."""
    return FieldList(
        # No maxlength: a browser cuts a longer name silently; the page says the limit as it
        # is typed (data-max-letters, app.js) and the server refuses it, keeping what was typed.
        StringField(render_kw={"autocomplete": "off"}),
        label=_l("New players"),
        min_entries=NEW_NAME_FIELDS,
        max_entries=NEW_NAME_FIELDS,
    )


def label_new_names(field: FieldList[StringField]) -> None:
    """Each new-name field's label (read by screen readers), in the request's language."""
    for index, entry in enumerate(field.entries):
        entry.label.text = _l("New player %(number)s", number=index + 1)


def typed_names(field: FieldList[StringField]) -> list[str]:
    """The names typed in the new-name fields, in order, the empty ones left out."""
    typed = [(entry.data or "").strip() for entry in field.entries]
    return [name for name in typed if name]


class NewClubForm(FlaskForm):
    name = StringField(
        _l("Name of the club"),
        validators=[InputRequired(), Length(max=MAX_CLUB_NAME)],
        description=_l("A family, a Thursday table, a holiday house: whatever you call it."),
        render_kw={"maxlength": MAX_CLUB_NAME, "autocomplete": "off"},
    )
    lang = SelectField(_l("Language"), choices=[SelectChoice(k, v) for k, v in LANGUAGES.items()])
    create = SubmitField(_l("Found the club"))


def _variant_choices() -> list[SelectChoice]:
    return [SelectChoice(vid, variant_name(vid)) for vid in VARIANTS]


class ClubGameForm(FlaskForm):
    """A new game of the club: who plays (members by tap, newcomers by name) and what."""

    variant = SelectField(_l("Variant"), choices=[])
    players = MemberChecks(_l("Who plays?"), choices=[], validate_choice=False)
    new_names = new_names_field()
    lang = SelectField(
        _l("Language of the game"), choices=[SelectChoice(k, v) for k, v in LANGUAGES.items()]
    )
    start = SubmitField(_l("Start the game"))

    def setup(self, members: Sequence[str]) -> None:
        """Choices and labels in the request's language; the members to pick from."""
        self.variant.choices = _variant_choices()
        self.players.choices = [SelectChoice(name, name) for name in members]
        self.members = list(members)
        label_new_names(self.new_names)

    def player_names(self) -> list[str]:
        """Seat order: the members picked, in the club's order, then the new names typed."""
        picked = set(self.players.data or [])
        members = [name for name in self.members if name in picked]
        return members + typed_names(self.new_names)


class RematchForm(FlaskForm):
    """The last table again; `game` is the game the page showed as the last one."""

    game = HiddenField()
    rematch = SubmitField(_l("Play again"))


class ImportClubForm(FlaskForm):
    """A club saved as JSON from a club page, sent back as a file or pasted."""

    file = FileField(_l("Club file (.json)"))
    text = TextAreaField(_l("…or paste it here"), render_kw={"rows": 3})
    submit = SubmitField(_l("Import the club"))


class ClubSheetForm(Form):
    """A blank score sheet with the names of the members picked (a GET form)."""

    variant = SelectField(_l("Variant"), choices=[])
    players = MemberChecks(_l("Names on the sheet"), choices=[], validate_choice=False)
    paper = RadioField(
        _l("Paper"),
        choices=[SelectChoice("a4", _l("A4")), SelectChoice("letter", _l("Letter"))],
        default="a4",
    )

    def setup(self, members: Sequence[str]) -> None:
        self.variant.choices = _variant_choices()
        self.players.choices = [SelectChoice(name, name) for name in members]
