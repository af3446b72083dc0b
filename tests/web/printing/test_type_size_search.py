"""Issue 35, point 4: the rule card's type size is searched from a guess (the fit the variant's
last card in that language took, else fit-2), and the answer is always the one stepping from
fit-1 gives: the largest type at which the page fits, found in fewer layouts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from referee.web.printing.pdfs import FIRST_FIT, MAX_FIT, _first_fitting


@dataclass
class _Layout:
    pages: list[int]


def _pages_from(answer: int, laid: list[int]) -> Any:
    """A page that fits from fit `answer` on (smaller type never takes more pages)."""

    def lay_out(fit: int) -> _Layout:
        laid.append(fit)
        return _Layout([1] if fit >= answer else [1, 2])

    return lay_out


@pytest.mark.parametrize("answer", range(FIRST_FIT, MAX_FIT + 2))
@pytest.mark.parametrize("guess", range(0, MAX_FIT + 1))
def test_any_guess_finds_what_stepping_finds(answer: int, guess: int) -> None:
    stepped: list[int] = []
    expected, _ = _first_fitting(_pages_from(answer, stepped), FIRST_FIT)
    laid: list[int] = []
    found, document = _first_fitting(_pages_from(answer, laid), FIRST_FIT, guess)
    assert found == expected == min(max(answer, FIRST_FIT), MAX_FIT)
    assert len(document.pages) == (1 if answer <= MAX_FIT else 2)
    assert len(laid) == len(set(laid)), laid  # no size laid out twice


def test_a_card_of_fit_3_is_laid_out_twice_not_three_times() -> None:
    laid: list[int] = []
    assert _first_fitting(_pages_from(3, laid), FIRST_FIT, FIRST_FIT + 1)[0] == 3
    assert laid == [2, 3]
    laid.clear()
    assert _first_fitting(_pages_from(3, laid), FIRST_FIT)[0] == 3
    assert laid == [1, 2, 3]
