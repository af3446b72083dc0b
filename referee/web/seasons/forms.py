"""The seasons' form: a season's name, dates and rule, whether the club's other games count,
and (once it has evenings, or games it counts) which of them count. It carries the season's
version, so a form sent after another phone changed the season is refused (409). The engine
checks what the numbers mean (best 5 of 3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, HiddenField, RadioField, StringField, SubmitField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import InputRequired, Length, Optional

from referee.engine.seasons import MAX_EVENINGS, MAX_SEASON_NAME
from referee.web.clubs.forms import MemberChecks
from referee.web.vocabulary.fields import WholeNumberField


class SeasonForm(FlaskForm):
    """A new season, or a season's settings changed."""

    version = HiddenField()
    #: The ids of the club nights and games the page listed to untick: only those change (a
    #: game finished since, or one left out while the games did not count, stays as it was).
    listed = HiddenField()
    name = StringField(
        _l("Name of the season"),
        validators=[InputRequired(), Length(max=MAX_SEASON_NAME)],
        render_kw={"maxlength": MAX_SEASON_NAME, "autocomplete": "off"},
    )
    starts = DateField(_l("First day"), validators=[InputRequired()])
    ends = DateField(_l("Last day"), validators=[InputRequired()])
    rule = RadioField(
        _l("The season's table"),
        choices=[
            SelectChoice("sum", _l("the sum of every club night's tournament points")),
            SelectChoice("best", _l("each player's best club nights (set how many below)")),
            SelectChoice("average", _l("points per club night, with a minimum attendance")),
        ],
        default="sum",
    )
    best = WholeNumberField(
        _l("Best club nights that count"), low=1, high=MAX_EVENINGS, validators=[Optional()]
    )
    min_evenings = WholeNumberField(
        _l("Club nights a player needs to be ranked"),
        low=1,
        high=MAX_EVENINGS,
        validators=[Optional()],
    )
    club_games = BooleanField(
        _l("The club’s other games count too"),
        description=_l(
            "Games not played at a club night: the games begun on one day make a club night "
            "of their own, each counted once finished."
        ),
    )
    counted = MemberChecks(
        _l("Club nights that count"),
        choices=[],
        description=_l("Every club night within the dates counts unless you untick it."),
    )
    games_counted = MemberChecks(
        _l("Club games that count"),
        choices=[],
        description=_l("Every finished game within the dates counts unless you untick it."),
    )
    save = SubmitField(_l("Save the season"))

    def setup(
        self, evenings: list[tuple[str, str]], games: list[tuple[str, str]] | None = None
    ) -> None:
        """`evenings`: (id, label) of the club's evenings within the season's dates; `games`:
        of its finished ordinary games within them (listed once the season counts them)."""
        self.counted.choices = [SelectChoice(i, label) for i, label in evenings]
        self.games_counted.choices = [SelectChoice(i, label) for i, label in games or ()]
        if not evenings:
            del self.counted
        if not games:
            del self.games_counted

    def fields(self, within: list[str], kept: Sequence[str] = ()) -> dict[str, Any]:
        """What the service reads. Of `within` (the club nights and games listed now), those
        the page listed (`listed`; all of them for a form without it) and not ticked are left
        out; of `kept` (the season's ids left out), those the page did not list stay out."""
        fields: dict[str, Any] = {
            "name": self.name.data or "",
            "starts": self.starts.data,
            "ends": self.ends.data,
            "rule": self.rule.data,
            "best": self.best.data if self.rule.data == "best" else None,
            "min_evenings": self.min_evenings.data if self.rule.data == "average" else None,
            "club_games": bool(self.club_games.data),
        }
        names = ("counted", "games_counted")
        lists = [self._fields[name] for name in names if name in self._fields]
        ticked = {i for checks in lists for i in checks.data or ()}
        shown = set(within) if not self.listed.raw_data else set((self.listed.data or "").split())
        untouched = [i for i in kept if i not in shown]
        fields["left_out"] = untouched + [i for i in within if i in shown and i not in ticked]
        return fields


class DeleteForm(FlaskForm):
    version = HiddenField()
    delete = SubmitField(_l("Delete the season"))
