"""Numbers and dates as the page's language writes them, quick enough for tables of hundreds
of cells (a chart's table): the locale's symbols are looked up once per language, not once
per number as Babel's formatters do."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from fractions import Fraction
from functools import lru_cache

import pyphen
from babel import Locale
from babel.dates import format_date
from flask_babel import get_locale
from markupsafe import Markup, escape


def _locale() -> Locale:
    return get_locale() or Locale.parse("en")


@lru_cache(maxsize=16)
def _symbols(locale: Locale) -> tuple[str, str, str]:
    """The locale's decimal sign, group sign and minus sign ("," "." "-" in German)."""
    symbols = locale.number_symbols.get("latn", {})
    return symbols.get("decimal", "."), symbols.get("group", ","), symbols.get("minusSign", "-")


def decimal_sign() -> str:
    """The page's decimal sign ("," in German)."""
    return _symbols(_locale())[0]


@lru_cache(maxsize=64)
def _number_format(decimals: int, locale: Locale) -> Callable[[float], str]:
    decimal, group, minus = _symbols(locale)
    table = str.maketrans({",": group, ".": decimal, "-": minus})

    def write(value: float) -> str:
        text = f"{value:,.{decimals}f}"
        if text.startswith("-") and not text.strip("-0.,"):
            text = text[1:]  # no "-0.0"
        return text.translate(table)

    return write


def number_format(decimals: int = 0) -> Callable[[float], str]:
    """A writer of numbers with `decimals` places in the page's language, for many numbers."""
    return _number_format(decimals, _locale())


def number(value: float, decimals: int = 0) -> str:
    """`value` rounded to `decimals` places, grouped by thousands: "1,234.5", "1.234,5"."""
    return number_format(decimals)(value)


def tournament_points(value: Fraction | int) -> str:
    """Tournament points: whole where they are, else with the decimals a shared place needs
    (12, 12.5, 9.33 in English; 12,5 and 9,33 in German): an evening's and a season's alike."""
    fraction = Fraction(value)
    if fraction.denominator == 1:
        return number(int(fraction))
    return number(float(fraction), 1 if fraction.denominator == 2 else 2)


@lru_cache(maxsize=512)
def _day(day: date, style: str, locale: Locale) -> str:
    return format_date(day, style, locale=locale)


def day(value: date, style: str = "medium") -> str:
    """A day as the locale writes it ("Dec 2, 2026", "02.12.26"), each written once."""
    return _day(value, style, _locale())


#: Words shorter than this are never broken.
_LONG_WORD = 8


@lru_cache(maxsize=8)
def _hyphenator(language: str) -> pyphen.Pyphen | None:
    found = pyphen.language_fallback(language)
    return pyphen.Pyphen(lang=found) if found else None


def hyphenated(text: str) -> Markup:
    """`text` with soft hyphens where the page's language may break its long words (pyphen's
    dictionaries, as WeasyPrint hyphenates): a narrow column's header breaks "Turnier-punkte"
    over two lines instead of pushing the columns after it off a phone's screen."""
    hyphenator = _hyphenator(str(_locale()))
    words = str(text).split(" ")
    if hyphenator is None:
        return Markup(escape(text))
    broken = [
        hyphenator.inserted(word, hyphen="\u00ad") if len(word) >= _LONG_WORD else word
        for word in words
    ]
    return Markup(escape(" ".join(broken)))
