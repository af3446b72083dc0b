"""The score sheet form: who plays and on which paper (a GET form: a sheet changes nothing)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import Form, HiddenField, RadioField, StringField

# SelectChoice is new in WTForms 3.2 (tuples are deprecated); types-WTForms does not list it yet.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import Length

PAPERS = ("a4", "letter")


class SheetForm(Form):
    """`players` holds names separated by commas, or just how many players there are."""

    players = StringField(
        _l("Players"),
        description=_l("Names separated by commas, or just the number of players."),
        validators=[Length(max=400)],
        render_kw={"autocomplete": "off", "placeholder": "Ann, Bo, Cy, Di", "maxlength": 400},
    )
    paper = RadioField(
        _l("Paper"),
        choices=[SelectChoice("a4", _l("A4")), SelectChoice("letter", _l("Letter"))],
        default="a4",
    )
    house_rules = HiddenField()
    lang = HiddenField()
