"""The clubs' pages: found or import a club on `/clubs`, the club page (view and edit link),
starting a club game or the last table again, sharing, downloads and the blank sheet."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import Response, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_percent, gettext

from referee.engine.errors import Reason, RefereeError
from referee.engine.house_rules import get_variant
from referee.engine.names import name_key
from referee.engine.variants import VARIANTS
from referee.web.core.languages import LANGUAGES
from referee.web.games import access as game_access
from referee.web.games import links as game_links
from referee.web.plumbing import formats
from referee.web.plumbing.i18n import current_language, remember_language
from referee.web.plumbing.qr import qr_response
from referee.web.vocabulary.messages import describe_reason
from referee.web.vocabulary.words import variant_name

from . import bp, service
from .access import club_or_404, editable_club, recent, remember
from .board import GameLine
from .forms import ClubGameForm, ClubSheetForm, ImportClubForm, NewClubForm, RematchForm
from .links import edit_url, view_url
from .presenting import ClubView, club_view
from .store import StoredClub

#: The largest club file read from an upload (bytes).
MAX_IMPORT = 1024 * 1024
#: The blank sheet form's fields are named sheet-…: its member boxes sit beside the game's.
SHEET_PREFIX = "sheet"


# -- /clubs: found, import, resume -------------------------------------------------------------


def _index_page(
    form: NewClubForm,
    import_form: ImportClubForm | None = None,
    *,
    errors: Sequence[str] = (),
    import_errors: Sequence[str] = (),
    status: int = 200,
) -> ResponseReturnValue:
    tokens = dict(recent())
    clubs = [
        (club, edit_url(club.id, token) if (token := tokens.get(club.id)) else view_url(club.id))
        for club in service.load_many(list(tokens))
    ]
    page = render_template(
        "clubs/index.html",
        form=form,
        import_form=import_form or ImportClubForm(formdata=None),
        errors=list(errors),
        import_errors=list(import_errors),
        clubs=clubs,
    )
    return page, status


def _said(reasons: Sequence[Reason]) -> list[str]:
    return [describe_reason(found) for found in reasons]


@bp.route("/clubs", methods=["GET", "POST"])
def index() -> ResponseReturnValue:
    """Found a club; the clubs this phone knows."""
    form = NewClubForm()
    if request.method == "GET":
        form.lang.data = current_language()
        return _index_page(form)
    if not form.validate_on_submit():
        return _index_page(form, status=400)
    founded = service.found(form.name.data or "", lang=form.lang.data or "en")
    if isinstance(founded, service.Refused):
        return _index_page(form, errors=_said(founded.reasons), status=400)
    remember(founded.club.id, founded.token)
    response = redirect(edit_url(founded.club.id, founded.token), code=303)
    if form.lang.data in LANGUAGES:
        remember_language(response, form.lang.data)
    return response


def _club_file(form: ImportClubForm) -> Any:
    """The club file sent (uploaded, else pasted) as JSON data; None when it is not JSON."""
    raw = form.text.data or ""
    upload = form.file.data
    if upload and getattr(upload, "filename", ""):
        raw = upload.read(MAX_IMPORT).decode("utf-8", errors="replace")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


@bp.post("/clubs/import")
def import_club() -> ResponseReturnValue:
    """A club file back as a new club (new links for the club and each game)."""
    form = ImportClubForm()
    if not form.validate_on_submit():
        errors = [gettext("Please send the form again.")]
    else:
        imported = service.import_club(_club_file(form), lang=current_language())
        if isinstance(imported, service.Founded):
            remember(imported.club.id, imported.token)
            return redirect(edit_url(imported.club.id, imported.token), code=303)
        errors = _said(imported.reasons)
    new_form = NewClubForm(formdata=None)
    new_form.lang.data = current_language()
    return _index_page(new_form, form, import_errors=errors, status=400)


# -- the club page ------------------------------------------------------------------------------


def _variant_asked() -> str | None:
    asked = request.args.get("variant")
    if not asked:
        return None
    try:
        return get_variant(asked).id
    except RefereeError:
        abort(404)


def _game_links(view: ClubView) -> dict[str, str]:
    """A game's link on the club page: its edit link where this phone has its token."""
    tokens = {game_id: token for game_id, token in game_access.recent() if token}
    return {
        game.game_id: game_links.edit_url(game.game_id, tokens[game.game_id])
        if game.game_id in tokens
        else game_links.view_url(game.game_id)
        for game in view.recent
    }


def _new_game_form(club: StoredClub, last: GameLine | None, formdata: Any = None) -> ClubGameForm:
    """The new game's form: the last table's variant and players picked to start from."""
    form = ClubGameForm(formdata=formdata)
    form.setup(club.members)
    if formdata is None:
        form.variant.data = last.variant if last else "contract"
        form.lang.data = club.lang
        form.players.data = list(last.players) if last else []
    return form


def _sheet_form(club: StoredClub, variant_id: str | None, last: GameLine | None) -> ClubSheetForm:
    """The sheet's form: the variant asked for (else the last table's), the last table picked."""
    form = ClubSheetForm(formdata=None, prefix=SHEET_PREFIX)
    form.setup(club.members)
    variant = get_variant(variant_id or (last.variant if last else "contract"))
    form.variant.data = variant.id
    picked = last.players if last else club.members
    form.players.data = list(picked)[: variant.max_players]
    form.paper.data = "a4"
    return form


def _render(
    club: StoredClub,
    token: str | None,
    *,
    form: ClubGameForm | None = None,
    errors: Sequence[str] = (),
    status: int = 200,
) -> ResponseReturnValue:
    variant = _variant_asked()
    # Read before the board: a write in between makes the page follow it again, never miss it.
    live_version = service.live_version(club.id)
    board = service.board(club.id)
    view = club_view(club, board, variant)
    last = board.last  # the last table, whatever its variant
    if token is not None and form is None:
        form = _new_game_form(club, last)

    def tab_link(vid: str | None) -> str:
        return edit_url(club.id, token, variant=vid) if token else view_url(club.id, variant=vid)

    page = render_template(
        "clubs/club.html",
        tab_link=tab_link,
        live_version=live_version,
        view=view,
        club=club,
        token=token,
        form=form,
        errors=list(errors),
        last=last,
        rematch_form=RematchForm(formdata=None, game=last.game_id) if token and last else None,
        game_links=_game_links(view),
        view_link=view_url(club.id, external=True),
        edit_link=edit_url(club.id, token, external=True) if token else None,
    )
    return page, status


@bp.get("/clubs/<club_id>")
def show(club_id: str) -> ResponseReturnValue:
    """The club page, read only."""
    club = club_or_404(club_id)
    remember(club.id, None)
    return _render(club, None)


@bp.get("/clubs/<club_id>/edit/<token>")
def edit(club_id: str, token: str) -> ResponseReturnValue:
    """The club page with a new game's form and the last table's rematch."""
    club = editable_club(club_id, token)
    remember(club.id, token)
    return _render(club, token)


def _started(filed: service.GameFiled, lang: str | None) -> ResponseReturnValue:
    game_access.remember(filed.game.id, filed.token)
    response = redirect(game_links.edit_url(filed.game.id, filed.token), code=303)
    if lang in LANGUAGES:
        remember_language(response, lang)
    return response


@bp.post("/clubs/<club_id>/edit/<token>/games")
def start_game(club_id: str, token: str) -> ResponseReturnValue:
    """A new game of the club from its edit page; a 403 for anyone without the edit token."""
    club = editable_club(club_id, token)
    form = _new_game_form(club, None, request.form)
    if not form.validate_on_submit():
        return _render(club, token, form=form, status=400)
    lang = form.lang.data or club.lang
    filed = service.start_game(
        club.id, variant=form.variant.data, players=form.player_names(), lang=lang
    )
    if isinstance(filed, service.GameFiled):
        return _started(filed, form.lang.data)
    if isinstance(filed, service.ClubMissing):
        abort(404)
    return _render(club, token, form=form, errors=_said(filed.reasons), status=400)


@bp.post("/clubs/<club_id>/edit/<token>/rematch")
def rematch(club_id: str, token: str) -> ResponseReturnValue:
    """The last table again, filed in the club: the game the page showed as the last one (a
    rematch of a table another phone's new game has just replaced would surprise)."""
    club = editable_club(club_id, token)
    form = RematchForm()
    if not form.validate_on_submit():
        abort(400)
    filed = service.rematch(club.id, form.game.data)
    if isinstance(filed, service.GameFiled):
        return _started(filed, None)
    if isinstance(filed, service.ClubMissing):
        abort(404)
    if isinstance(filed, service.NotTheLast):
        errors = [gettext("Someone started another game meanwhile: here is the club as it is now.")]
        return _render(club, token, errors=errors, status=409)
    return _render(club, token, errors=_said(filed.reasons), status=400)


# -- sharing and files --------------------------------------------------------------------------


@bp.get("/clubs/<club_id>/qr.svg")
def qr_view(club_id: str) -> ResponseReturnValue:
    club = club_or_404(club_id)
    return qr_response(view_url(club.id, external=True))


@bp.get("/clubs/<club_id>/edit/<token>/qr.svg")
def qr_edit(club_id: str, token: str) -> ResponseReturnValue:
    club = editable_club(club_id, token)
    return qr_response(edit_url(club.id, token, external=True))


def _download(club: StoredClub, body: str, mimetype: str, ext: str) -> Response:
    response = Response(body, mimetype=mimetype)
    name = f"rummy-club-{club.id[:6]}.{ext}"
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/clubs/<club_id>.json")
def export_json(club_id: str) -> ResponseReturnValue:
    club = club_or_404(club_id)
    data = service.club_file(club).model_dump(mode="json")
    return _download(
        club, json.dumps(data, ensure_ascii=False, indent=1), "application/json", "json"
    )


@bp.get("/clubs/<club_id>.csv")
def export_csv(club_id: str) -> ResponseReturnValue:
    club = club_or_404(club_id)
    return _download(club, service.club_csv(club), "text/csv", "csv")


def _blank_sheet(club: StoredClub, args: Any) -> str:
    """The blank sheet's address: the members picked (in the club's order, the seat order),
    the variant and the paper asked for (a 404 for a variant that is none)."""
    asked = {name_key(name) for name in args.getlist(f"{SHEET_PREFIX}-players")}
    names = [member for member in club.members if name_key(member) in asked]
    try:
        variant = get_variant(args.get(f"{SHEET_PREFIX}-variant") or "contract").id
    except RefereeError:
        abort(404)
    paper = args.get(f"{SHEET_PREFIX}-paper", "a4")
    return url_for(
        "printing.blank_sheet",
        variant=variant,
        players=", ".join(names),
        paper=paper if paper in ("a4", "letter") else "a4",
        lang=current_language(),
    )


@bp.get("/clubs/<club_id>/sheet")
def sheet(club_id: str) -> ResponseReturnValue:
    """Pick the members and the variant; then the blank sheet, which the printing blueprint
    draws (a redirect with the names)."""
    club = club_or_404(club_id)
    if f"{SHEET_PREFIX}-variant" in request.args:
        return redirect(_blank_sheet(club, request.args), code=303)
    form = _sheet_form(club, _variant_asked(), service.board(club.id).last)
    back = dict(recent()).get(club.id)
    link = edit_url(club.id, back) if back else view_url(club.id)
    return render_template("clubs/sheet.html", club=club, sheet_form=form, back=link)


def player_limits() -> dict[str, tuple[int, int]]:
    """Each variant's smallest and largest table, for the new game's form to say before Start."""
    return {vid: (variant.min_players, variant.max_players) for vid, variant in VARIANTS.items()}


@bp.context_processor
def clubs_context() -> dict[str, object]:
    """The words and numbers the clubs templates use."""
    return {
        "variant_name": variant_name,
        "player_limits": player_limits,
        "format_day": formats.day,
        "format_number": formats.number,
        "format_percent": format_percent,
    }


@dataclass(frozen=True)
class GameInClub:
    """What a game's page says of the club the game is filed in."""

    club: StoredClub
    link: str  # the club page (its edit link where this phone has the club's token)
    token: str | None  # the club's edit token, where this phone has it
    rematch_form: RematchForm | None  # once the game is over, on a phone with the token


def game_in_club(game_id: str, finished: bool) -> GameInClub | None:
    """The club of a game, for its page (templates/games/_club.html), or None."""
    club = service.club_of_game(game_id)
    if club is None:
        return None
    token = dict(recent()).get(club.id)
    form = None
    # The same table again: from the club's last table only.
    if token and finished and service.last_game_id(club.id) == game_id:
        form = RematchForm(formdata=None, game=game_id)
    link = edit_url(club.id, token) if token else view_url(club.id)
    return GameInClub(club=club, link=link, token=token, rematch_form=form)


@bp.app_context_processor
def club_of_game_context() -> dict[str, object]:
    """Every page may ask which club a game is in (the game pages do)."""
    return {"game_in_club": game_in_club}
