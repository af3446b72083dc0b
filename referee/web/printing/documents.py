"""What printing makes, each in the language it is asked for, built once into the shared cache:
rule cards, blank score sheets and a game's filled sheet. The routes and `flask pdf warm` ask
here; every renderer below takes `lang` and speaks it itself (`i18n.in_language`), whatever the
request around it speaks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from flask import Flask
from flask_babel import format_date

from referee.engine.variants import Variant
from referee.web.games.queries import StoredGame
from referee.web.plumbing import metrics
from referee.web.plumbing.i18n import in_language
from referee.web.vocabulary.house_rules import TableRules, table_rules

from .cache import Cached, pdf_cache
from .pdfs import Built, render_my_rules, render_quiz, render_rule_card
from .sheets import blank_sheet as build_blank_sheet
from .sheets import game_sheet as build_game_sheet
from .sheets import render_sheet

#: Players on a blank sheet when the form names nobody.
DEFAULT_PLAYERS = 4


@dataclass(frozen=True)
class Pdf:
    """A PDF from the cache and the name it is downloaded under."""

    cached: Cached
    filename: str


def _cached(key: tuple[Any, ...], build: Callable[[], Built]) -> Cached:
    def build_and_count() -> bytes:
        with metrics.pdf_build(str(key[0])):
            return build().body

    return pdf_cache().get_or_build(key, build_and_count)


def default_players(variant: Variant) -> list[str]:
    """The unnamed columns of a sheet for which nobody was named."""
    count = min(max(DEFAULT_PLAYERS, variant.min_players), variant.max_players)
    return [""] * count


def rule_card(table: TableRules, lang: str, paper: str) -> Pdf:
    """The two-page rule card of `table` in `lang` on `paper`."""
    key = ("rule_card", table.variant.id, table.key, lang, paper)
    cached = _cached(key, lambda: render_rule_card(table, lang, paper))
    return Pdf(cached, f"{table.variant.id}-rules-{lang}-{paper}.pdf")


def my_rules(table: TableRules, lang: str, paper: str, codes: Sequence[str]) -> Pdf:
    """One page of just the rules `codes` cite (the card's sentences) in `lang` on `paper`;
    ValueError when the card states none of them."""
    codes = tuple(sorted(set(codes)))
    key = ("my_rules", table.variant.id, table.key, lang, paper, codes)
    cached = _cached(key, lambda: render_my_rules(table, lang, paper, codes))
    return Pdf(cached, f"{table.variant.id}-my-rules-{lang}-{paper}.pdf")


def quiz(table: TableRules, lang: str, paper: str, level: int, seed: int) -> Pdf:
    """The quiz sheet of `table` at `level` for `seed`: questions, then answers, in `lang`."""
    key = ("quiz", table.variant.id, table.key, lang, paper, level, seed)
    cached = _cached(key, lambda: render_quiz(table, lang, paper, level, seed))
    return Pdf(cached, f"{table.variant.id}-quiz-{level}-{seed}-{lang}-{paper}.pdf")


def blank_sheet(table: TableRules, lang: str, paper: str, players: Sequence[str]) -> Pdf:
    """A score sheet to fill in by hand, with `players`' names (or empty columns)."""
    key = ("sheet", table.variant.id, table.key, lang, paper, tuple(players))
    cached = _cached(key, lambda: render_sheet(build_blank_sheet(table, lang, paper, players)))
    return Pdf(cached, f"{table.variant.id}-score-sheet-{lang}-{paper}.pdf")


@in_language
def _today(lang: str) -> str:
    return format_date(date.today(), format="long")


def game_sheet(stored: StoredGame, lang: str, paper: str, link: str) -> Pdf:
    """The game's sheet as it stands, dated today, with a QR code of `link`."""
    today = _today(lang)
    key = ("game_sheet", stored.id, stored.game.version, lang, paper, today, link)
    game = stored.game
    cached = _cached(key, lambda: render_sheet(build_game_sheet(game, lang, paper, today, link)))
    return Pdf(cached, f"score-sheet-{lang}-{paper}.pdf")


# -- flask pdf warm -------------------------------------------------------------------------------


def warm(app: Flask, *, variants: list[str], languages: list[str], papers: list[str]) -> int:
    """Build every rule card and blank score sheet of these variants, languages and papers that
    the cache does not hold yet, under the keys a browser's request asks for. Returns how many
    were built."""
    cache = pdf_cache(app)
    before = cache.builds
    # One request context for url_for in the templates; each render names its own language.
    with app.test_request_context("/", base_url=_base_url(app)):
        for variant in variants:
            table = table_rules(variant, {})
            for lang in languages:
                for paper in papers:
                    rule_card(table, lang, paper)
                    blank_sheet(table, lang, paper, default_players(table.variant))
    return cache.builds - before


def _base_url(app: Flask) -> str:
    server = app.config.get("SERVER_NAME")
    if server:
        return f"{app.config['PREFERRED_URL_SCHEME']}://{server}"
    hosts = app.config.get("TRUSTED_HOSTS") or ["localhost"]
    return f"http://{str(hosts[0]).lstrip('.')}"
