"""Issue 32's prints: "my rules" (one page of just the rules a player missed, the rule card's own
sentences, in their language) and the quiz sheet (twenty drills from the engine, the answers
with the referee's reasons on page 2), for every variant in six languages."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from pypdf import PdfReader

from referee.engine import drills as engine
from referee.engine.variants import VARIANTS
from referee.web import create_app
from referee.web.core.languages import LANGUAGES
from referee.web.plumbing.database import database
from referee.web.printing.pdfs import render_quiz
from referee.web.printing.quiz import QUESTIONS
from referee.web.vocabulary import drill_words, rule_citations
from referee.web.vocabulary.house_rules import table_rules
from referee.web.vocabulary.messages import describe
from referee.web.vocabulary.rulebook import build_rulebook

MISSED = ("run_gap", "too_many_jokers", "layoff_before_contract", "swap_before_contract")
#: A word of each language's quiz sheet (its title and its answers' heading).
QUIZ_WORDS = {
    "en": ("Quiz", "Answers"),
    "de": ("Quiz", "Antworten"),
    "nl": ("Quiz", "Antwoorden"),
    "pt": ("Questionário", "Respostas"),
    "fr": ("Quiz", "Réponses"),
    "es": ("Cuestionario", "Respuestas"),
}


def _pages(body: bytes) -> list[str]:
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages]


def _flat(text: str) -> str:
    """Text without whitespace or hyphens (a line may wrap anywhere)."""
    return re.sub(r"[\s\u00ad-]", "", text)


@pytest.fixture(scope="module")
def printer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    instance = tmp_path_factory.mktemp("prints")
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "prints",
            "DATABASE_URL": f"sqlite:///{instance / 'db.sqlite3'}",
            "RATELIMIT_ENABLED": False,
        },
        instance_path=str(instance),
    )
    yield app
    database(app).dispose()


# -- my rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["de", "nl"])
def test_my_rules_prints_just_the_missed_rules_on_one_page(printer: Flask, lang: str) -> None:
    client = printer.test_client()
    answer = client.get(f"/rules/shanghai/my-rules.pdf?lang={lang}&codes={','.join(MISSED)}")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    (page,) = _pages(answer.data)
    with printer.test_request_context(f"/?lang={lang}"):
        book = build_rulebook(table_rules("shanghai", None), lang)
        cited = rule_citations.sections_citing(book, rule_citations.topics_of(MISSED))
        sentences = [p for section in cited for p in section.paragraphs]
        others = [
            p
            for section in book.sections
            for p in section.paragraphs
            if p not in sentences and len(p) > 40
        ]
    assert len(sentences) >= len(MISSED)
    for sentence in sentences:  # the card's own sentences, in the player's language
        assert _flat(sentence) in _flat(page), sentence
    assert not [p for p in others if _flat(p) in _flat(page)]  # and nothing else of the card
    assert ("Meine Regeln" if lang == "de" else "Mijn regels") in page
    again = client.get(
        f"/rules/shanghai/my-rules.pdf?lang={lang}&codes={','.join(reversed(MISSED))}",
        headers={"If-None-Match": answer.headers["ETag"]},
    )
    assert again.status_code == 304  # the same rules in any order: the same cached card


def test_my_rules_follow_the_house_rules(printer: Flask) -> None:
    client = printer.test_client()
    body = client.get("/rules/contract/my-rules.pdf?lang=de&codes=too_many_jokers").data
    two = client.get(
        "/rules/contract/my-rules.pdf?lang=de&codes=too_many_jokers&max_jokers_per_meld=2"
    ).data
    assert "höchstens 2 Joker" in _pages(two)[0] and "höchstens 2 Joker" not in _pages(body)[0]


@pytest.mark.parametrize(
    ("query", "status", "said"),
    [
        ("codes=", 400, "Nenne die Regeln"),
        ("codes=run_gap,nope", 400, "„nope“ ist keine Begründung"),
        ("codes=" + ",".join(list(rule_citations.TOPICS)[:21]), 400, "höchstens 20 Regeln"),
        ("codes=swap_before_contract", 400, "Keine dieser Regeln"),  # rummy has no jokers
        ("codes=run_gap&paper=a3", 400, "A4 oder Letter"),
    ],
)
def test_my_rules_refuse_bad_codes_in_the_players_language(
    printer: Flask, query: str, status: int, said: str
) -> None:
    answer = printer.test_client().get(f"/rules/rummy/my-rules.pdf?lang=de&{query}")
    assert answer.status_code == status
    assert said in answer.get_data(as_text=True)


def test_my_rules_of_no_such_variant_is_a_404(printer: Flask) -> None:
    assert printer.test_client().get("/rules/nope/my-rules.pdf?codes=run_gap").status_code == 404


def test_my_rules_and_the_quiz_count_against_the_pdf_limit(tmp_path: Path) -> None:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "limits",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "RATELIMIT_ENABLED": True,
            "RATELIMIT_PDF": "2 per minute",
        },
        instance_path=str(tmp_path / "instance"),
    )
    client = app.test_client()
    assert client.get("/rules/rummy/my-rules.pdf?codes=run_gap").status_code == 200
    assert client.get("/rules/rummy/my-rules.pdf?codes=run_gap").status_code == 200  # cached
    assert client.get("/rules/rummy/my-rules.pdf?codes=ace_low_only").status_code == 200
    assert client.get("/rules/rummy/quiz.pdf?seed=3").status_code == 429
    database(app).dispose()


# -- the quiz sheet ------------------------------------------------------------------------------


def test_the_rule_page_links_to_its_quiz_sheet(printer: Flask) -> None:
    page = printer.test_client().get("/rules/contract?lang=nl").get_data(as_text=True)
    assert "/rules/contract/quiz.pdf?lang=nl" in page and "Quizblad voor nieuwkomers" in page


@pytest.mark.parametrize(
    ("query", "said"),
    [
        ("level=4", "4 liegt nicht zwischen 1 und 3"),
        ("seed=x", "„x“ ist keine ganze Zahl"),
        ("seed=123456789012345", "liegt nicht zwischen 0 und 999999"),
    ],
)
def test_the_quiz_refuses_a_bad_level_or_seed_in_words(
    printer: Flask, query: str, said: str
) -> None:
    answer = printer.test_client().get(f"/rules/contract/quiz.pdf?lang=de&{query}")
    assert answer.status_code == 400 and said in answer.get_data(as_text=True)


def test_the_quiz_is_the_same_for_a_seed(printer: Flask) -> None:
    client = printer.test_client()
    one = client.get("/rules/rummy/quiz.pdf?lang=en&seed=11&level=3")
    two = client.get("/rules/rummy/quiz.pdf?lang=en&seed=11&level=3")
    other = client.get("/rules/rummy/quiz.pdf?lang=en&seed=12&level=3")
    assert one.status_code == two.status_code == other.status_code == 200
    assert one.headers["ETag"] == two.headers["ETag"] != other.headers["ETag"]


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_quiz_renders_for_every_variant_in_six_languages(
    printer: Flask, variant_id: str
) -> None:
    """Two pages: twenty numbered questions, then their answers, each the engine's own answer
    and reasons, in the sheet's language."""
    table = table_rules(variant_id, None)
    seed = 100 + list(VARIANTS).index(variant_id)
    drawn = engine.drills(table.variant, level=2, count=QUESTIONS, seed=seed)
    assert len({drill.kind for drill in drawn}) >= 4  # drills of several kinds
    for lang in LANGUAGES:
        with printer.test_request_context(f"/?lang={lang}"):
            built = render_quiz(table, lang, "a4", 2, seed)
            answers = [drill_words.answer_text(drill) for drill in drawn]
            reasons = [[describe(r.code, r.params) for r in drill.reasons] for drill in drawn]
            prompts = [drill_words.prompt(drill) for drill in drawn]
        questions, answered = _pages(built.body)
        title, heading = QUIZ_WORDS[lang]
        assert title in questions and heading in answered, (variant_id, lang)
        for number in range(1, QUESTIONS + 1):
            assert re.search(rf"(^|\s){number}\.\s", questions), (variant_id, lang, number)
        assert not re.search(rf"(^|\s){QUESTIONS + 1}\.\s", questions)
        flat_questions, flat_answers = _flat(questions), _flat(answered)
        assert all(_flat(prompt) in flat_questions for prompt in prompts), (variant_id, lang)
        at = 0
        for number, (answer, why) in enumerate(zip(answers, reasons, strict=True), 1):
            # In order: each number, then the engine's answer and its reasons word for word.
            found = flat_answers.find(_flat(f"{number}. {answer}"), at)
            assert found >= 0, (variant_id, lang, number, answer, answered)
            at = found
            for reason in why:
                assert _flat(reason) in flat_answers, (variant_id, lang, reason)
