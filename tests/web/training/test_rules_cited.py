"""Issue 32: each drill's explanation cites the rule card's own sentences and links to their
section of the rule page. Every code a drill can give has its rule, for every variant and
language, and the sentences are the card's (the same paragraphs the page and card print)."""

from __future__ import annotations

from functools import cache
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from referee.engine import drills as engine
from referee.engine.variants import VARIANTS
from referee.web.core.languages import LANGUAGES
from referee.web.vocabulary import rule_citations
from referee.web.vocabulary.house_rules import table_rules
from referee.web.vocabulary.rulebook import Rulebook, Said, build_rulebook


@cache
def _given(variant_id: str) -> tuple[frozenset[str], tuple[engine.Drill, ...]]:
    """The codes drills of this variant give (every kind, the hardest level, two packs of 50
    each), and those drills."""
    variant = VARIANTS[variant_id]
    drawn = tuple(
        drill
        for kind in engine.kinds_for(variant)
        for seed in (0, 1)
        for drill in engine.drills(variant, kind=kind, level=3, count=50, seed=seed)
    )
    return frozenset(reason.code for drill in drawn for reason in drill.reasons), drawn


def _book(web: Flask, variant_id: str, lang: str, **house: object) -> Rulebook:
    with web.test_request_context(f"/?lang={lang}"):
        return build_rulebook(table_rules(variant_id, house or None), lang)


def _on_the_card(book: Rulebook, cited: rule_citations.Citation) -> None:
    """Each sentence is one of the card's paragraphs, the first in the section linked to."""
    printed = {p for section in book.sections for p in section.paragraphs}
    assert cited.sentences and set(cited.sentences) <= printed, cited
    linked = next(s for s in book.sections if s.anchor == cited.anchor)
    assert cited.sentences[0] in linked.paragraphs


def test_every_code_is_a_known_rule_topic(web: Flask) -> None:
    """No topic in the table is a typo: each is said by some variant's card."""
    books = [_book(web, variant_id, "en") for variant_id in VARIANTS]
    books.append(_book(web, "contract", "en", joker_swap_runs=False, joker_swap_sets=False))
    said = {
        topic
        for book in books
        for section in book.sections
        for paragraph in section.paragraphs
        if isinstance(paragraph, Said)
        for topic in paragraph.topics
    }
    named = {t for topics in rule_citations.TOPICS.values() for t in topics}
    assert named | {t for ts in rule_citations.KIND_TOPICS.values() for t in ts} <= said


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_code_a_drill_gives_has_its_rule_in_every_language(
    web: Flask, variant_id: str
) -> None:
    codes, drawn = _given(variant_id)
    assert codes <= set(rule_citations.TOPICS), codes - set(rule_citations.TOPICS)
    for lang in LANGUAGES:
        book = _book(web, variant_id, lang)
        for code in sorted(codes):
            cited = rule_citations.cite(book, rule_citations.topics_of([code]))
            assert cited is not None, (variant_id, lang, code)
            _on_the_card(book, cited)
        for drill in drawn[::7]:  # the drills without a reason cite their kind's rule
            codes_of = [reason.code for reason in drill.reasons]
            topics = rule_citations.drill_topics(drill.kind, drill.question, codes_of)
            cited = rule_citations.cite(book, topics)
            assert cited is not None, (variant_id, lang, drill)
            _on_the_card(book, cited)


def test_a_house_rule_changes_the_sentence_cited(web: Flask) -> None:
    topics = rule_citations.topics_of(["too_many_jokers"])
    plain = rule_citations.cite(_book(web, "contract", "de"), topics)
    two = rule_citations.cite(_book(web, "contract", "de", max_jokers_per_meld=2), topics)
    assert plain and two and plain.text != two.text and "2" in two.text


def test_the_api_gives_each_drill_its_rule_and_link(http: FlaskClient) -> None:
    answer = http.get("/api/v1/drills?variant=shanghai&kind=layoff&level=3&count=12&seed=5&lang=nl")
    assert answer.status_code == 200
    drills = answer.get_json()["drills"]
    page = unescape(http.get("/rules/shanghai?lang=nl").get_data(as_text=True))
    for drill in drills:
        url, _, anchor = drill["rule_url"].partition("#")
        assert url.startswith("http") and "/rules/shanghai" in url and "lang=nl" in url
        assert f'id="{anchor}"' in page, drill["rule_url"]
        assert drill["rule"] and drill["rule"].split(". ")[0] in page, drill["rule"]
    timing = [d for d in drills if {r["code"] for r in d["reasons"]} & {"layoff_before_contract"}]
    assert timing and all(d["rule_url"].endswith("#rule-layoffs") for d in timing)
