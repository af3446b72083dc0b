"""The seasons' pages: the club's seasons and a new one (the club's edit link), a season's
settings and evenings (the edit link), the season's table by the club's view link, and its
files (CSV, JSON). Each view reads its input, asks the service once and maps its result.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence

from flask import Response, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext

from referee.web.clubs.access import club_or_404, editable_club, remember
from referee.web.clubs.forms import MemberChecks
from referee.web.clubs.links import edit_url as club_edit_url
from referee.web.clubs.store import StoredClub
from referee.web.core.languages import LANGUAGES
from referee.web.plumbing import formats
from referee.web.plumbing.i18n import known_language
from referee.web.plumbing.numbers import plain_count
from referee.web.vocabulary.messages import describe, describe_reason

from . import bp, exports, printing, service
from .api import season_json
from .forms import DeleteForm, SeasonForm
from .presenting import (
    column_name,
    game_players,
    movement_label,
    movement_sign,
    points_text,
    rule_sentence,
)
from .store import StoredSeason


def _season_or_404(club_id: str, season_id: str) -> StoredSeason:
    stored = service.load_in(club_id, season_id)
    if stored is None:
        abort(404, description=describe("season_not_found"))
    known_language("season_id", season_id, service.lang_of(season_id) or "en")
    return stored


def _editable(club_id: str, season_id: str, token: str) -> tuple[StoredClub, StoredSeason]:
    club = editable_club(club_id, token)
    return club, _season_or_404(club_id, season_id)


# -- the season's table, by the club's view link -------------------------------------------------


@bp.get("/clubs/<club_id>/seasons/<season_id>")
def show(club_id: str, season_id: str) -> ResponseReturnValue:
    """The season's table: the rule in words, a column per club night, dropped ones greyed,
    the movement since the last club night. It follows the club's stream (a round saved at an
    evening's table tells the club)."""
    stored = _season_or_404(club_id, season_id)
    club = club_or_404(club_id)
    # The version before the table: a round saved between the two reads then shows as a
    # newer version than the page's, and the page asks again (read after, it would be lost).
    live_version = service.club_version(club_id)
    shown = service.table_of(stored)
    return render_template(
        "seasons/season.html",
        club=club,
        shown=shown,
        season=stored.season,
        rule=rule_sentence(stored.season),
        live_version=live_version,
    )


def _download(stored: StoredSeason, body: str, mimetype: str, ending: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = (
        f'attachment; filename="rummy-season-{stored.id[:6]}{ending}"'
    )
    return response


def _language(stored: StoredSeason) -> str:
    """A file's language: the season's (its club's), or `?lang`'s (a 400 for one we lack)."""
    asked = request.args.get("lang")
    if asked is None:
        return service.lang_of(stored.id) or "en"
    if asked not in LANGUAGES:
        abort(400)
    return asked


@bp.get("/clubs/<club_id>/seasons/<season_id>.csv")
def csv(club_id: str, season_id: str) -> ResponseReturnValue:
    stored = _season_or_404(club_id, season_id)
    body = exports.to_csv(service.table_of(stored), _language(stored))
    return _download(stored, body, "text/csv", ".csv")


@bp.get("/clubs/<club_id>/seasons/<season_id>.json")
def export_json(club_id: str, season_id: str) -> ResponseReturnValue:
    """The API's answer as a file."""
    stored = _season_or_404(club_id, season_id)
    body = json.dumps(season_json(service.table_of(stored)), ensure_ascii=False, indent=1)
    return _download(stored, body, "application/json", ".json")


@bp.get("/clubs/<club_id>/seasons/<season_id>.pdf")
def pdf(club_id: str, season_id: str) -> ResponseReturnValue:
    """The season's table on paper, landscape (`?paper=letter`, `?lang=`)."""
    stored = _season_or_404(club_id, season_id)
    paper = request.args.get("paper", "a4").strip().lower() or "a4"
    if paper not in ("a4", "letter"):
        abort(400, description=gettext("Paper must be A4 or Letter."))
    club = club_or_404(club_id)
    printed = printing.season_pdf(service.table_of(stored), club.name, _language(stored), paper)
    response = Response(printed.cached.body, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{printed.filename}"'
    response.set_etag(printed.cached.etag)
    response.cache_control.no_cache = True
    return response.make_conditional(request)


# -- the host's pages ------------------------------------------------------------------------------


@bp.route("/clubs/<club_id>/edit/<token>/seasons", methods=["GET", "POST"])
def new(club_id: str, token: str) -> ResponseReturnValue:
    """The club's seasons, and a new one; a 403 without the club's edit token."""
    club = editable_club(club_id, token)
    remember(club_id, token)
    form = SeasonForm(formdata=request.form if request.method == "POST" else None)
    form.setup([])
    if request.method == "GET":
        today = datetime.date.today()
        form.starts.data, form.ends.data = (
            today.replace(month=1, day=1),
            today.replace(month=12, day=31),
        )
        return _seasons_page(club, token, form, (), 200)
    if not form.validate_on_submit():
        return _seasons_page(club, token, form, (), 400)
    result = service.create(club_id, token, form.fields([]))
    if isinstance(result, service.Created):
        return redirect(url_for("seasons.edit", club_id=club_id, season_id=result.stored.id,
                                token=token))  # fmt: skip
    return _seasons_page(club, token, form, _said(result), 400)


def _said(result: service.Written) -> list[str]:
    if isinstance(result, service.Refused):
        return [describe_reason(found) for found in result.reasons]
    if isinstance(result, service.Stale):
        return [describe(result.code, result.params)]
    return [describe(getattr(result, "code", "season_not_found"))]


def _seasons_page(
    club: StoredClub, token: str, form: SeasonForm, errors: Sequence[str], status: int
) -> ResponseReturnValue:
    page = render_template(
        "seasons/seasons.html",
        club=club,
        token=token,
        form=form,
        errors=list(errors),
        seasons=service.of_club(club.id),
        back=club_edit_url(club.id, token),
    )
    return page, status


@bp.route("/clubs/<club_id>/edit/<token>/seasons/<season_id>", methods=["GET", "POST"])
def edit(club_id: str, season_id: str, token: str) -> ResponseReturnValue:
    """A season's name, dates, rule and the club nights that count (the club's edit link)."""
    club, stored = _editable(club_id, season_id, token)
    posted = request.method == "POST"
    form = SeasonForm(formdata=request.form if posted else None)
    within = _listed(form, stored)
    if not posted:
        _fill(form, stored)
        return _edit_page(club, token, stored, form, (), 200)
    if not form.validate_on_submit():
        return _edit_page(club, token, stored, form, (), 400)
    fields = form.fields(within, stored.left_out)
    result = service.change(club_id, season_id, token, fields, version=_version(form))
    if isinstance(result, service.Changed):
        return redirect(url_for("seasons.edit", club_id=club_id, season_id=season_id,
                                token=token))  # fmt: skip
    return _edit_page(club, token, stored, form, _said(result), 409 if _stale(result) else 400)


def _listed(form: SeasonForm, stored: StoredSeason) -> list[str]:
    """The club nights within the season's dates, and its finished club games when it counts
    them, listed on the form to untick; their ids."""
    season = stored.season
    evenings = service.evenings_in(stored.club_id, season.starts, season.ends)
    found = (
        service.games_in(stored.club_id, season.starts, season.ends) if season.club_games else []
    )
    form.setup(
        [(e.id, f"{formats.day(e.date, 'medium')} · {e.name}") for e in evenings],
        [(g.id, f"{formats.day(g.date, 'medium')} · {game_players(g)}") for g in found],
    )
    within = [e.id for e in evenings] + [g.id for g in found]
    if not form.listed.raw_data:  # a page's first view: what it lists
        form.listed.data = " ".join(within)
    return within


def _stale(result: service.Written) -> bool:
    return isinstance(result, service.Stale)


def _fill(form: SeasonForm, stored: StoredSeason) -> None:
    season = stored.season
    form.version.data = str(stored.version)
    form.name.data, form.starts.data, form.ends.data = season.name, season.starts, season.ends
    form.rule.data, form.best.data = season.rule.value, season.best
    form.min_evenings.data = season.min_evenings
    form.club_games.data = season.club_games
    for name in ("counted", "games_counted"):
        if name in form._fields:
            listed: MemberChecks = form._fields[name]  # type: ignore[assignment]
            within = [str(getattr(choice, "value", choice)) for choice in listed.choices or []]
            listed.data = [i for i in within if i not in stored.left_out]


def _version(form: SeasonForm | DeleteForm) -> int | None:
    """The version the page showed; one sent but unreadable ("²", "abc") matches none: a 409,
    as every evening form answers it."""
    value = form.version.data
    if not value:
        return None
    read = plain_count(str(value))
    return -1 if read is None else read


def _edit_page(
    club: StoredClub,
    token: str,
    stored: StoredSeason,
    form: SeasonForm,
    errors: Sequence[str],
    status: int,
) -> ResponseReturnValue:
    delete_form = DeleteForm(formdata=None)
    delete_form.version.data = str(stored.version)
    page = render_template(
        "seasons/edit.html",
        club=club,
        token=token,
        stored=stored,
        form=form,
        delete_form=delete_form,
        errors=list(errors),
        back=url_for("seasons.new", club_id=club.id, token=token),
    )
    return page, status


@bp.post("/clubs/<club_id>/edit/<token>/seasons/<season_id>/delete")
def delete(club_id: str, season_id: str, token: str) -> ResponseReturnValue:
    club, stored = _editable(club_id, season_id, token)
    form = DeleteForm(formdata=request.form)
    result = service.delete(club_id, season_id, token, version=_version(form))
    if isinstance(result, service.Deleted):
        return redirect(url_for("seasons.new", club_id=club_id, token=token))
    season_form = SeasonForm(formdata=None)
    season_form.setup([])
    _fill(season_form, stored)
    return _edit_page(club, token, stored, season_form, _said(result), 409)


@bp.context_processor
def seasons_context() -> dict[str, object]:
    return {
        "format_day": formats.day,
        "points_text": points_text,
        "movement_sign": movement_sign,
        "movement_label": movement_label,
        "column_name": column_name,
    }


@bp.app_context_processor
def seasons_of_club_context() -> dict[str, object]:
    """The club page lists its seasons (templates/seasons/_of_club.html), and the room's board
    an evening's seasons (templates/seasons/_on_board.html), without the clubs or the events
    package importing this one."""
    return {"club_seasons": service.of_club, "seasons_counting": service.counting}
