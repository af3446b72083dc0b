"""Each referee code's rule: the rule card's own sentences that a code is about, and the section
of the rule page they stand in, so an explanation can quote the card and link to it.

The sentences are not written here: the full rules (`rulebook.build_rulebook`, the page and the
card print the same) tag each paragraph with the topics it states (`rulebook.Said`), and a code
names the topics that explain it (`TOPICS`). So a citation is the card's text for the table's
variant, house rules and language, and changes as the card changes. The trainer quotes it with
each drill (`GET /api/v1/drills`: `rule`, `rule_url`) and "my rules" prints just those
sentences (`/rules/<variant>/my-rules.pdf`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from .rulebook import Rulebook, Section

#: The topics (`rulebook.Said`) that state the rule behind each code a check gives: the
#: violations of `check_meld`, `check_contract`, `check_layoff`, `check_joker_swap` and their
#: conditions (a lay-off or swap before the contract is down...).
TOPICS: Final[Mapping[str, tuple[str, ...]]] = {
    # a meld
    "too_few_cards": ("set", "run"),
    "not_same_rank_or_suit": ("set", "run"),
    "set_ranks_differ": ("set",),
    "set_too_large": ("set", "set_max"),
    "set_suits_repeat": ("set_suits",),
    "run_gap": ("run",),
    "run_suits_differ": ("run",),
    "run_ranks_repeat": ("run",),
    "run_too_long": ("run", "corner"),
    "run_around_the_corner": ("corner",),
    "ace_low_only": ("aces",),
    "too_many_copies": ("shoe",),
    # jokers
    "too_many_jokers": ("joker_count",),
    "jokers_not_allowed": ("joker_count", "no_jokers"),
    "no_natural_card": ("natural",),
    "joker_not_declared": ("declare",),
    "joker_declaration_mismatch": ("declare",),
    # a contract
    "wrong_sets_and_runs": ("contract",),
    "contract_run_too_short": ("contract_run", "run"),
    "runs_same_suit": ("contract_runs",),
    "runs_same_suit_and_start": ("contract_runs",),
    "sets_same_rank": ("contract_sets",),
    "last_round_goes_out": ("last_round",),
    "last_round_no_discard": ("last_round",),
    "going_out_needs_discard": ("going_out", "last_round"),
    "discard_taken_this_turn": ("rediscard",),
    # laying off
    "layoff_before_contract": ("layoff_timing",),
    "layoff_same_turn_as_contract": ("layoff_timing",),
    "layoff_changes_meld": ("layoff",),
    "nothing_to_lay_off": ("layoff",),
    # a joker swap
    "joker_swap_not_allowed": ("swap", "no_swap"),
    "joker_swap_in_set": ("swap",),
    "swap_from_own_meld": ("swap",),
    "swap_from_another_players_meld": ("swap",),
    "swap_card_does_not_fit": ("swap", "declare"),
    "no_joker_to_swap": ("swap", "no_swap"),
    "swap_before_contract": ("swap_timing",),
    "swap_same_turn_as_contract": ("swap_timing",),
    "swap_use_joker_this_turn": ("swap_use",),
}

#: What a drill without a reason (a valid case, a value or a fact) is about, by kind (a fact's
#: drills by their fact).
KIND_TOPICS: Final[Mapping[str, tuple[str, ...]]] = {
    "meld": ("set", "run"),
    "contract": ("contract",),
    "value": ("scoring",),
    "layoff": ("layoff",),
    "swap": ("swap",),
    "solve": ("contract",),
    "dealer": ("dealer",),
    "cards": ("deal_count",),
    "shoe": ("shoe",),
}
#: Where a variant without contracts finds what a contract's topic says.
_WITHOUT_CONTRACT: Final[Mapping[str, tuple[str, ...]]] = {"contract": ("set", "run")}


@dataclass(frozen=True)
class Citation:
    """The card's sentences on some topics, and the section the first of them stands in."""

    sentences: tuple[str, ...]
    anchor: str

    @property
    def text(self) -> str:
        return " ".join(self.sentences)


def known(code: str) -> bool:
    """Whether `code` is a referee code with a rule to cite."""
    return code in TOPICS


def topics_of(codes: Iterable[str]) -> tuple[str, ...]:
    """The topics of these codes, in order, each once (unknown codes add none)."""
    seen: dict[str, None] = {}
    for code in codes:
        seen.update(dict.fromkeys(TOPICS.get(code, ())))
    return tuple(seen)


def drill_topics(kind: str, question: Mapping[str, Any], codes: Sequence[str]) -> tuple[str, ...]:
    """What a drill's explanation cites: its reasons' rules, or, with no reason, its kind's."""
    if codes:
        return topics_of(codes)
    return KIND_TOPICS[str(question.get("fact")) if kind == "facts" else kind]


def sections_citing(book: Rulebook, topics: Sequence[str]) -> tuple[Section, ...]:
    """The full rules' sections cut to the paragraphs that state `topics`, in the card's order
    (sections without one left out)."""
    if not book.variant.has_contracts:
        topics = [alias for topic in topics for alias in _WITHOUT_CONTRACT.get(topic, (topic,))]
    cut = []
    for section in book.sections:
        paragraphs = section.citing(topics)
        if paragraphs:
            cut.append(Section(title=section.title, paragraphs=paragraphs, key=section.key))
    return tuple(cut)


def cite(book: Rulebook, topics: Sequence[str]) -> Citation | None:
    """The card's sentences on `topics` (None when the card states none of them)."""
    sections = sections_citing(book, topics)
    if not sections:
        return None
    sentences = tuple(paragraph for section in sections for paragraph in section.paragraphs)
    return Citation(sentences=sentences, anchor=sections[0].anchor)
