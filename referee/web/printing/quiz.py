"""The quiz sheet for a club's newcomers' evening: twenty of the trainer's drills (every kind the
variant has, in turn), the questions on page 1 with their cards drawn as the rule card draws
them, the answers with the referee's reasons on page 2.

The drills are the engine's (`referee.engine.drills`, the same for the same seed) and their
words the trainer's (`vocabulary.drill_words`); printing reads neither the trainer's service
nor its API (the layers keep the two features apart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.engine import drills as engine
from referee.engine.cards import parse_cards
from referee.web.plumbing.i18n import in_language
from referee.web.vocabulary import drill_words
from referee.web.vocabulary.house_rules import TableRules
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.rulebook import Face, Rulebook, build_rulebook
from referee.web.vocabulary.rulebook import card_faces as _faces

#: Questions on a sheet.
QUESTIONS = 20
#: The sheet printed when the query names no seed (the same sheet for every club).
DEFAULT_SEED = 1


@dataclass(frozen=True)
class Question:
    """One question as the sheet prints it, and its answer as page 2 does."""

    number: int
    prompt: str
    situation: tuple[str, ...]
    #: the cards shown, in groups (a meld, the card to lay off...), as small card faces
    groups: tuple[tuple[Face, ...], ...]
    #: "←" between a meld and the card laid off; "" between melds
    joiner: str
    choices: tuple[str, ...]
    answer: str
    reasons: tuple[str, ...]

    @property
    def size(self) -> int:
        """About how tall the question prints (characters of text, a card as a few)."""
        cards = sum(len(group) for group in self.groups)
        words = len(self.prompt) + sum(len(line) for line in self.situation)
        return 90 + words + 14 * cards + sum(len(choice) + 6 for choice in self.choices)


@dataclass(frozen=True)
class Quiz:
    book: Rulebook
    level: int
    seed: int
    questions: tuple[Question, ...]

    @property
    def columns(self) -> tuple[tuple[Question, ...], tuple[Question, ...]]:
        """The questions in two columns of about equal height, in order (floats lay out many
        times faster than CSS columns in WeasyPrint, as the rule card's do)."""
        half = sum(question.size for question in self.questions) / 2
        running = 0
        for index, question in enumerate(self.questions):
            if running + question.size / 2 > half:
                return self.questions[:index], self.questions[index:]
            running += question.size
        return self.questions, ()


def _groups(drill: engine.Drill) -> tuple[tuple[tuple[Face, ...], ...], str]:
    question = drill.question
    if drill.kind == "contract":
        return tuple(_faces(parse_cards(meld)) for meld in question["melds"]), ""
    if drill.kind == "layoff":
        meld, cards = parse_cards(question["meld"]), parse_cards(question["cards"])
        return (_faces(meld), _faces(cards)), "←"
    shown: Sequence[Any] = (
        question.get("cards") or question.get("hand") or question.get("meld") or ()
    )
    return ((_faces(parse_cards(shown)),) if shown else ()), ""


def _question(number: int, drill: engine.Drill) -> Question:
    groups, joiner = _groups(drill)
    choices = (
        tuple(drill_words.choice_label(drill, choice) for choice in drill.choices)
        if drill.choices is not None
        else ()
    )
    return Question(
        number=number,
        prompt=drill_words.prompt(drill),
        situation=drill_words.situation(drill),
        groups=groups,
        joiner=joiner,
        choices=choices,
        answer=drill_words.answer_text(drill),
        reasons=tuple(describe(reason.code, reason.params) for reason in drill.reasons),
    )


@in_language
def build_quiz(table: TableRules, lang: str, level: int, seed: int) -> Quiz:
    """The sheet's twenty questions and answers in `lang` (RefereeError for a bad level/seed)."""
    drawn = engine.drills(table.variant, level=level, count=QUESTIONS, seed=seed)
    return Quiz(
        book=build_rulebook(table, lang),
        level=level,
        seed=seed,
        questions=tuple(_question(number, drill) for number, drill in enumerate(drawn, 1)),
    )
