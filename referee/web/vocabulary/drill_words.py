"""A drill in words: its question, its choices, the table it is asked at and its answer, in
the current language. The trainer's API (`training/service.py`) says its drills with these, and
the quiz sheet (`printing`, `/rules/<variant>/quiz.pdf`) prints the same words; the sentences
are the training catalog's (scripts/i18n)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask_babel import gettext, ngettext

from referee.engine import drills as engine

from .words import card_label, cards_label, shoe_text


def prompt(drill: engine.Drill) -> str:
    """The question in words."""
    question = drill.question
    if drill.kind == "facts":
        return _fact_prompt(question)
    prompts = {
        "meld": lambda: gettext("Is this a meld?"),
        "contract": lambda: gettext(
            "Do these melds meet the contract of round %(round)s?", round=question["round"]
        ),
        "value": lambda: gettext("How many points are these cards worth in a hand?"),
        "layoff": lambda: gettext("May this card be laid off on this meld now?"),
        "swap": lambda: gettext("Which card may take the joker's place?"),
        "solve": lambda: gettext("Can you go down with this hand, and with which melds?"),
    }
    return prompts[drill.kind]()


def _fact_prompt(question: Mapping[str, Any]) -> str:
    if question["fact"] == "dealer":
        return gettext(
            "Seat %(first)s dealt the first round. Who deals round %(round)s?",
            first=question["first_dealer"],
            round=question["round"],
        )
    if question["fact"] == "cards":
        return gettext(
            "How many cards does each player get in round %(round)s at a table of %(players)s?",
            round=question["round"],
            players=question["players"],
        )
    return gettext("Which shoe does a table of %(players)s play with?", players=question["players"])


def choice_label(drill: engine.Drill, choice: Any) -> str:
    """One choice in words: yes, no, none, a card, a seat, a shoe."""
    words = {
        engine.YES: gettext("Yes"),
        engine.NO: gettext("No"),
        engine.NONE: gettext("None of these"),
    }
    if isinstance(choice, str) and choice in words:
        return words[choice]
    if isinstance(choice, dict):
        return shoe_text(int(choice["decks"]), int(choice["jokers"]))
    if drill.kind == "swap":
        return card_label(str(choice))
    if drill.kind == "facts" and drill.question.get("fact") == "dealer":
        return gettext("Seat %(seat)s", seat=choice)
    return str(choice)


def situation(drill: engine.Drill) -> tuple[str, ...]:
    """What the question takes as given beyond its cards, in words: the round, whether the
    player's contract is down, whose meld, going out with a discard."""
    return situation_of(drill.kind, drill.question)


def situation_of(
    kind: str, question: Mapping[str, Any], *, with_round: bool = True
) -> tuple[str, ...]:
    """`situation` of a drill's kind and question (a drill as the API gives it: the trainer's
    pages); `with_round=False` where the page says the round's contract itself."""
    said: list[str] = []
    if with_round and kind == "solve" and "round" in question:  # a contract drill names its own
        said.append(gettext("Round %(round)s", round=question["round"]))
    down = question.get("contract_down")
    if down is not None:
        said.append(_CONTRACT_DOWN[str(down)]())
    if "own_meld" in question:
        said.append(
            gettext("The meld is your own.")
            if question["own_meld"]
            else gettext("The meld is another player's.")
        )
    if question.get("going_out"):
        said.append(gettext("Going out with these melds."))
    if "discard" in question:
        said.append(gettext("Last discard: %(card)s", card=card_label(str(question["discard"]))))
    return tuple(said)


_CONTRACT_DOWN = {
    "no": lambda: gettext("Your contract is not down yet."),
    "this_turn": lambda: gettext("You laid your contract down this turn."),
    "earlier_turn": lambda: gettext("Your contract has been down since an earlier turn."),
}


def answer_text(drill: engine.Drill) -> str:
    """The right answer in words: a choice as its label, the points, the solver's melds."""
    if drill.kind == "solve":
        return _solution_text(drill.answer)
    if drill.kind == "value":
        points = int(drill.answer)
        return ngettext("%(num)d point", "%(num)d points", points)
    return choice_label(drill, drill.answer)


def _solution_text(answer: Mapping[str, Any]) -> str:
    melds = [cards_label(meld) for meld in answer["melds"]]
    if answer.get("can_meet_contract") is False or not melds:
        return gettext("No: nothing to go down with.")
    return gettext(
        "Yes: %(melds)s (left in hand: %(points)s points)",
        melds=" · ".join(melds),
        points=answer["leftover_penalty"],
    )
