"""Reading numbers people type (plumbing/numbers.py): the counts a form or a query sends."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.engine.errors import RefereeError
from referee.web.plumbing.numbers import MAX_DIGITS, plain_count, whole_number


@pytest.mark.parametrize("text", ["¹", "٣", "²3", "3²", "-1", "+1", " 1", "1 ", "", "1_000"])
def test_a_count_is_ascii_digits_only_and_anything_else_is_not_given(text: str) -> None:
    assert plain_count(text) is None


def test_a_count_reads_as_it_shows() -> None:
    assert plain_count(None) is None
    assert plain_count("0") == 0
    assert plain_count("007") == 7
    assert plain_count("9" * MAX_DIGITS) == 999_999
    assert plain_count("9" * (MAX_DIGITS + 1)) is None


@given(st.text(max_size=12))
def test_any_text_is_a_count_exactly_when_the_whole_number_reader_takes_it_as_one(
    text: str,
) -> None:
    """One reading of digits: a count is what `whole_number` reads as a number of zero or more
    written without spaces or a sign, and `plain_count` never raises."""
    counted = plain_count(text)
    try:
        read: int | None = whole_number(text, low=0)
    except RefereeError:
        read = None
    if text != text.strip() or text.startswith("-"):
        assert counted is None
    else:
        assert counted == read
