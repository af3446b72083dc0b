"""What the evening's pages and answers say in words: the table-size rule (`seating.split_rule`
as a sentence), the ranking and its tie-breaks, the draw methods, and the tables' links."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from flask import url_for
from flask_babel import format_date, gettext, ngettext

from referee.engine.errors import EventRefused
from referee.engine.events import Event
from referee.engine.seating import (
    CHANGED_BY_HOST,
    NO_SEATING,
    PARTNER_ABSENT,
    TABLE_NOT_DRAWN,
    DrawMethod,
    Keep,
    SeatingRule,
    SplitRule,
    UnmetRule,
)
from referee.engine.tournament import Criterion, Standings, StandingsRow
from referee.web.clubs import service as clubs_service
from referee.web.clubs.links import edit_url as club_edit_url
from referee.web.clubs.links import view_url as club_view_url
from referee.web.games import links as game_links
from referee.web.plumbing import formats
from referee.web.plumbing.i18n import current_language, in_language
from referee.web.plumbing.numbers import plain_count
from referee.web.vocabulary.messages import describe_reason
from referee.web.vocabulary.words import variant_name

from .forms import scheme_label
from .links import board_url, edit_url, view_url
from .service import tokens as tokens_of
from .store import StoredEvent


def _tables(sizes: tuple[int, ...]) -> str:
    parts = [
        ngettext("%(num)d table of %(size)d", "%(num)d tables of %(size)d", count, size=size)
        for size, count in sorted(Counter(sizes).items())
    ]
    return gettext(" and ").join(parts)


def split_sentence(rule: SplitRule) -> str:
    """The table rule as the page says it: tables of the preferred size, what each remainder
    makes instead, and the counts that cannot be seated."""
    said = [gettext("Tables of %(size)d where the count allows.", size=rule.preferred)]
    for extra in rule.extras:
        if extra.sizes is None:
            continue
        said.append(
            ngettext(
                "%(num)d player over: %(tables)s instead.",
                "%(num)d players over: %(tables)s instead.",
                extra.over,
                tables=_tables(extra.sizes),
            )
        )
    # Said as the rule a host reads: how many a table needs at least, and which other counts
    # do not come out even, with what to do about it.
    if rule.impossible:
        said.append(gettext("A table needs at least %(min)d players.", min=rule.smallest))
    uneven = [n for n in rule.impossible if n >= rule.smallest]
    if rule.smallest == rule.largest:
        said.append(
            gettext(
                "Every table seats exactly %(size)d: when the players do not come out even, "
                "check one more in or let one go.",
                size=rule.smallest,
            )
        )
    elif uneven:
        said.append(
            gettext(
                "With %(counts)s players the tables do not come out even: check one more in, "
                "or let one go.",
                counts=", ".join(str(n) for n in uneven),
            )
        )
    return " ".join(said)


def criterion_words(criterion: Criterion, *, high_wins: bool) -> str:
    if criterion is Criterion.TOURNAMENT_POINTS:
        return gettext("more tournament points")
    if criterion is Criterion.TABLES_WON:
        return gettext("more tables won")
    if criterion is Criterion.POINTS:
        return gettext("more points") if high_wins else gettext("fewer points")
    return gettext("more points a round") if high_wins else gettext("fewer points a round")


def ranking_sentence(board: Standings) -> str:
    """ "Ranked by more tournament points; ties go to fewer points a round, then to more tables
    won." — the board's order in words."""
    first, *rest = (criterion_words(c, high_wins=board.high_wins) for c in board.ranking)
    if not rest:
        return gettext("Ranked by %(first)s.", first=first)
    return gettext(
        "Ranked by %(first)s; ties go to %(rest)s.", first=first, rest=gettext(", then ").join(rest)
    )


def method_words(method: DrawMethod) -> str:
    if method is DrawMethod.RANDOM:
        return gettext("at random")
    if method is DrawMethod.STANDINGS:
        return gettext("by standings: the strongest together")
    return gettext("mixed: opponents repeat as little as possible")


def rule_sentence(rule: SeatingRule) -> str:
    """A seating rule as the host's page lists it."""
    if rule.keep is Keep.APART:
        first, second = rule.players
        return gettext("%(first)s and %(second)s never at one table", first=first, second=second)
    if rule.keep is Keep.TOGETHER:
        first, second = rule.players
        return gettext("%(first)s and %(second)s at one table", first=first, second=second)
    return gettext("%(name)s always at table %(table)s", name=rule.players[0], table=rule.table)


def unmet_sentence(unmet: UnmetRule) -> str:
    """A rule a series does not meet, and why, in words."""
    rule = unmet.rule
    why = {
        PARTNER_ABSENT: gettext("one of the two does not play this series"),
        TABLE_NOT_DRAWN: gettext("this series has fewer tables"),
        NO_SEATING: gettext("with the other rules and the table sizes no seating meets it"),
        CHANGED_BY_HOST: gettext("the draw met it; a swap or a move undid it"),
    }.get(unmet.reason, unmet.reason)
    return gettext("Not honoured: %(rule)s (%(why)s).", rule=rule_sentence(rule), why=why)


def table_links(
    stored: StoredEvent, tokens: Mapping[str, str] | None, *, external: bool = True
) -> dict[str, tuple[str, str | None]]:
    """Each table's game id -> (view link, edit link or None without the club's token)."""
    links: dict[str, tuple[str, str | None]] = {}
    for drawn in stored.event.series:
        for table in drawn.tables:
            if table.game_id is None:
                continue
            token = None if tokens is None else tokens.get(table.game_id)
            edit = (
                None
                if token is None
                else game_links.edit_url(table.game_id, token, external=external)
            )
            links[table.game_id] = (game_links.view_url(table.game_id, external=external), edit)
    return links


# -- what the pages show --------------------------------------------------------------------------


@dataclass(frozen=True)
class TableView:
    """A table as the pages show it: seats, dealer, how far it is, its links."""

    number: int
    seats: tuple[str, ...]
    dealer: str  # who deals first
    dealing: str  # who deals the round being played (the first dealer before it starts)
    rounds: int  # rounds played so far
    finished: bool
    game_id: str | None
    game_link: str | None  # its edit page where the page may edit, else its view page
    qr: str | None  # the QR of its edit page (the host's page only)
    totals: tuple[int, ...] | None


@dataclass(frozen=True)
class SeriesView:
    number: int
    method: str
    seed: int
    started: bool
    finished: bool
    closed: bool  # fixed: the next series is drawn
    reopened: bool
    tables: tuple[TableView, ...]
    unmet: tuple[str, ...] = ()  # the seating rules its seats do not meet, in words


#: Tournament points as the pages and files write them (one writer, `formats`).
points_text = formats.tournament_points


def _series_views(
    stored: StoredEvent, token: str | None, *, external: bool = False
) -> list[SeriesView]:
    tokens = tokens_of(stored) if token else {}
    views = []
    for drawn in stored.event.series:
        tables = []
        for t in drawn.tables:
            game_token = tokens.get(t.game_id or "")
            link = None
            if t.game_id is not None:
                link = (
                    game_links.edit_url(t.game_id, game_token, external=external)
                    if game_token
                    else game_links.view_url(t.game_id, external=external)
                )
            qr = None
            if token and game_token:
                qr = url_for(
                    "events.table_qr", club_id=stored.club_id, event_id=stored.id, token=token,
                    number=drawn.number, table=t.number,
                )  # fmt: skip
            result = t.result
            played = 0 if result is None else result.rounds
            now = stored.event.variant.dealer_of(played + 1, t.first_dealer, len(t.seats))
            tables.append(
                TableView(
                    number=t.number,
                    seats=t.seats,
                    dealer=t.seats[t.first_dealer],
                    dealing=t.seats[now] if drawn.started and not t.finished else "",
                    rounds=0 if result is None else result.rounds,
                    finished=t.finished,
                    game_id=t.game_id,
                    game_link=link,
                    qr=qr,
                    totals=None if result is None else result.totals,
                )
            )
        views.append(
            SeriesView(
                number=drawn.number,
                method=method_words(drawn.method),
                seed=drawn.seed,
                started=drawn.started,
                finished=drawn.started and drawn.finished,
                closed=stored.event.closed(drawn.number),
                reopened=drawn.reopened,
                tables=tuple(tables),
                unmet=tuple(unmet_sentence(u) for u in drawn.unmet_rules),
            )
        )
    return views


def _draw_blocked(event: Event) -> list[str]:
    """Why the next series cannot be drawn now, in words (empty: it can)."""
    number = event.next_series
    if number is None:
        return []
    try:
        event.verify_draw(number)
    except EventRefused as refused:
        return [describe_reason(r) for r in refused.reasons]
    return []


def _standings_asked(event: Event, asked: str | None) -> int | None:
    number = plain_count(asked)
    return number if number is not None and event.series_of(number) is not None else None


#: The host's page, ordered by what the host does now (`phase`): its parts, first to last.
ORDER: Final[Mapping[str, tuple[str, ...]]] = {
    "check_in": ("players", "seating", "draw", "standings", "series", "share"),
    "drawn": ("draw", "seating", "players", "standings", "series", "share"),
    "playing": ("series", "standings", "draw", "players", "seating", "share"),
    "between": ("draw", "seating", "standings", "series", "players", "share"),
    "over": ("standings", "series", "players", "share"),
}


def phase(event: Event) -> str:
    """Where the evening is: players checking in before the first draw, a series drawn and not
    started, one being played, between two series, or over."""
    if event.finished:
        return "over"
    newest = event.series[-1] if event.series else None
    if newest is None:
        return "check_in"
    if not newest.started:
        return "drawn"
    return "between" if newest.finished else "playing"


@dataclass(frozen=True)
class Podium:
    """The evening's end: the first three places (a shared place shows each)."""

    rows: tuple[StandingsRow, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(row.name for row in self.rows if row.place == 1)


def podium(event: Event) -> Podium | None:
    """The final standings' first three places, once every table of every series finished."""
    if not event.finished:
        return None
    rows = event.standings().rows
    return Podium(tuple(row for row in rows if row.place <= 3 and row.rounds))


def draw_methods(event: Event) -> list[tuple[str, str, bool]]:
    """The ways the next series may be drawn, (value, words, chosen): the evening's way first
    chosen; by standings only once there are standings."""
    number = event.next_series
    if number is None or number == 1:
        return []
    return [
        (method.value, method_words(method), method is event.later_draws)
        for method in (DrawMethod.MIX, DrawMethod.STANDINGS, DrawMethod.RANDOM)
    ]


def page_context(stored: StoredEvent, token: str | None, asked: str | None) -> dict[str, Any]:
    """Everything the evening's page shows."""
    event = stored.event
    series = _standings_asked(event, asked)
    standings = event.standings(series=series, unfinished=True)
    newest = event.series[-1] if event.series else None
    now = phase(event)
    views = _series_views(stored, token)
    return {
        "phase": now,
        "order": ORDER[now],
        "podium": podium(event),
        "draw_methods": draw_methods(event),
        "rounds_of_series": event.table_variant.game_rounds,
        "stored": stored,
        "event": event,
        "token": token,
        "club_name": club_name(stored.club_id),
        "share_text": results_text(
            stored,
            current_language(),
            club=club_name(stored.club_id),
            link=view_url(stored.club_id, stored.id, external=True),
        ),
        "split_rule": split_sentence(event.split_rule),
        "scheme_name": scheme_label(event.scheme.id),
        "later_draws": method_words(event.later_draws),
        "series_views": list(reversed(views)),
        "pending": newest if newest is not None and not newest.started else None,
        "pending_view": views[-1] if newest is not None and not newest.started else None,
        "draw_blocked": _draw_blocked(event),
        "standings": standings,
        "standings_series": series,
        "ranking": ranking_sentence(standings),
        "points_text": points_text,
        "seating_rules": [rule_sentence(rule) for rule in event.seating_rules],
        "here": [p for p in event.players if p.present],
        "gone": [p for p in event.players if not p.present],
        "view_link": view_url(stored.club_id, stored.id, external=True),
        "board_link": board_url(stored.club_id, stored.id),
        "board_light_link": url_for(
            "events.board", club_id=stored.club_id, event_id=stored.id, light=1
        ),
        "here_link": edit_url(stored.club_id, stored.id, token)
        if token
        else view_url(stored.club_id, stored.id),
        "club_link": club_edit_url(stored.club_id, token)
        if token
        else club_view_url(stored.club_id),
        "edit_link": edit_url(stored.club_id, stored.id, token) if token else None,
    }


def board_context(stored: StoredEvent, *, light: bool = False) -> dict[str, Any]:
    """What the room's board shows: the standings (a table still playing marked provisional),
    who sits where in the newest series (by seat, who deals, how far each table is), and at
    the end the podium."""
    event = stored.event
    standings = event.standings(unfinished=True)
    views = _series_views(stored, None)
    newest = views[-1] if views else None
    return {
        "stored": stored,
        "event": event,
        "standings": standings,
        "ranking": ranking_sentence(standings),
        "points_text": points_text,
        "newest": newest,
        "playing": newest if newest is not None and newest.started else None,
        "upcoming": newest if newest is not None and not newest.started else None,
        "podium": podium(event),
        "provisional": any(row.provisional for row in standings.rows),
        "rounds_of_series": event.table_variant.game_rounds,
        "board_etag": board_etag(event.version, light=light),
    }


def board_etag(version: int, *, light: bool = False) -> str:
    """The board fragment's ETag (`routes.board_live` answers 304 to it while it stands)."""
    return f"e{version}-{current_language()}{'-light' if light else ''}"


def club_name(club_id: str) -> str:
    """The club's name ("" for a club gone meanwhile)."""
    club = clubs_service.load(club_id)
    return "" if club is None else club.name


#: The first three places' medals in the chat's message (a shared place shares its medal).
_MEDALS: Final = {
    1: "\N{FIRST PLACE MEDAL}",
    2: "\N{SECOND PLACE MEDAL}",
    3: "\N{THIRD PLACE MEDAL}",
}


@in_language
def results_text(stored: StoredEvent, lang: str, *, club: str, link: str) -> str:
    """The evening's results as plain text for the club's chat, in `lang`: the evening, the
    standings as they stand (every player who has played a round: place, name, tournament
    points, points; the first three with their medal; a figure of a table still playing
    marked, a leaver said), how many tables still play, and the view link to the evening.
    Empty while no table has played a round."""
    event = stored.event
    standings = event.standings(unfinished=True)
    if not any(row.rounds for row in standings.rows):
        return ""
    played = sum(1 for drawn in event.series if drawn.started)
    if event.finished:
        heading = gettext("Final standings")
    else:
        heading = gettext(
            "Standings after series %(num)s of %(count)s", num=played, count=event.series_count
        )
    facts = [club, format_date(event.date, "medium"), variant_name(event.variant.id)]
    lines = [event.name, " · ".join(fact for fact in facts if fact), "", heading + ":"]
    played_rows = [row for row in standings.rows if row.rounds]
    lines += [_result_line(row) for row in played_rows]
    provisional = any(row.provisional for row in played_rows)
    notes = [gettext("* A table of theirs is still playing: provisional.")] if provisional else []
    playing = sum(
        1 for drawn in event.series if drawn.started for table in drawn.tables if not table.finished
    )
    if playing:
        notes.append(
            ngettext(
                "%(num)s table is still playing.", "%(num)s tables are still playing.", playing
            )
        )
    return "\n".join([*lines, "", *notes, *([""] if notes else []), link, ""])


def _result_line(row: StandingsRow) -> str:
    """ "🥇 1. Ann: 7 tournament points, 12 points" (a figure marked * while a table of theirs
    still plays; a leaver said)."""
    mark = "*" if row.provisional else ""
    left = f" ({gettext('left')})" if not row.present else ""
    value = row.tournament_points
    figures = ngettext(
        "%(points)s tournament point",
        "%(points)s tournament points",
        int(value) if value.denominator == 1 else 2,  # 1.5 is said as plural
        points=points_text(value),
    )
    points = ngettext("%(num)s point", "%(num)s points", row.points)
    medal = _MEDALS.get(row.place)
    place = f"{medal} {row.place}." if medal else f"{row.place}."
    return f"{place} {row.name}{left}: {figures}{mark}, {points}{mark}"
