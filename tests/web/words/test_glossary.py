"""The glossary (translations/glossary/<lang>.toml): one word per concept of the game, per language.

Every catalog keeps to it: no msgstr of any area uses a word the glossary replaces, and every
concept's chosen word is used somewhere. Strings added later keep to it too: when one does not,
the failure names the catalog, the entry and the word, and what the glossary says instead.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from referee.web.plumbing.i18n import AREAS, TRANSLATIONS_ROOT

GLOSSARY_ROOT = TRANSLATIONS_ROOT / "glossary"
GLOSSARY_LANGUAGES = ("de", "nl", "pt", "fr", "es")
#: %(num)d and the like are code, not words: "num" is no Portuguese "num".
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


@dataclass(frozen=True)
class Entry:
    """One msgstr (one plural form) of one catalog."""

    path: str
    msgid: str
    text: str


def glossary_path(code: str) -> Path:
    return GLOSSARY_ROOT / f"{code}.toml"


@cache
def glossary(code: str) -> dict[str, Any]:
    with glossary_path(code).open("rb") as file:
        return tomllib.load(file)


@cache
def entries(code: str) -> tuple[Entry, ...]:
    found: list[Entry] = []
    for area in AREAS:
        path = TRANSLATIONS_ROOT / area / code / "LC_MESSAGES" / "messages.po"
        with path.open("rb") as file:
            catalog = read_po(file, locale=code)
        for message in catalog:
            if not message.id:
                continue
            msgid = message.id[0] if isinstance(message.id, tuple) else message.id
            texts = message.string if isinstance(message.string, tuple) else (message.string,)
            shown = str(path.relative_to(TRANSLATIONS_ROOT.parent))
            found.extend(Entry(shown, str(msgid), str(text)) for text in texts if text)
    return tuple(found)


@cache
def word(text: str) -> re.Pattern[str]:
    """A word or phrase on its own: not inside a longer word, in any case."""
    return re.compile(rf"(?<!\w){re.escape(text)}(?!\w)", re.IGNORECASE)


def without(text: str, phrases: list[str]) -> str:
    """The text without placeholders, and without the phrases in which a replaced word means
    something else."""
    text = PLACEHOLDER.sub(" ", text)
    for phrase in phrases:
        text = word(phrase).sub(" ", text)
    return text


def rules(code: str) -> list[tuple[str, str, list[str], list[str]]]:
    """(concept, what to use instead, words to avoid, phrases where they are fine) per entry."""
    found = []
    for name, concept in glossary(code)["concepts"].items():
        found.append((name, repr(concept["term"]), concept["replaces"], concept.get("allow", [])))
    avoid = glossary(code).get("avoid")
    if avoid:
        found.append(("avoid", avoid["instead"], avoid["words"], avoid.get("allow", [])))
    return found


def test_every_language_has_a_glossary_of_the_same_concepts() -> None:
    concepts = {code: set(glossary(code)["concepts"]) for code in GLOSSARY_LANGUAGES}
    expected = concepts["de"]
    assert len(expected) >= 25
    for code, names in concepts.items():
        assert glossary(code)["language"] == code
        assert names == expected, f"{glossary_path(code)}: {sorted(names ^ expected)}"


@pytest.mark.parametrize("code", GLOSSARY_LANGUAGES)
def test_glossary_entries_are_complete(code: str) -> None:
    problems = []
    for name, concept in glossary(code)["concepts"].items():
        forms = concept.get("forms", [])
        if concept.get("term") not in forms:
            problems.append(f"[concepts.{name}]: the term must be one of its forms")
        replaced = {text.casefold() for text in concept.get("replaces", ())}
        if not isinstance(concept.get("replaces"), list):
            problems.append(f"[concepts.{name}]: replaces = [...] (may be empty)")
        if replaced & {form.casefold() for form in forms}:
            problems.append(f"[concepts.{name}]: a word both chosen and replaced")
        if not concept.get("note"):
            problems.append(f"[concepts.{name}]: a note on the choice")
    assert problems == [], f"{glossary_path(code)}: " + "; ".join(problems)


@pytest.mark.parametrize("code", GLOSSARY_LANGUAGES)
def test_no_catalog_uses_a_replaced_word(code: str) -> None:
    problems = []
    for entry in entries(code):
        for concept, instead, replaced, allowed in rules(code):
            text = without(entry.text, allowed)
            for synonym in replaced:
                match = word(synonym).search(text)
                if match:
                    problems.append(
                        f"\n{entry.path}: msgid {entry.msgid!r}: its msgstr {entry.text!r} uses "
                        f"{match.group(0)!r}, which the glossary replaces "
                        f"(translations/glossary/{code}.toml, {concept}: use {instead})"
                    )
    assert problems == [], "".join(dict.fromkeys(problems))


@pytest.mark.parametrize("code", GLOSSARY_LANGUAGES)
def test_every_chosen_word_is_used(code: str) -> None:
    texts = [entry.text for entry in entries(code)]
    unused = [
        f"{name} ({concept['term']!r})"
        for name, concept in glossary(code)["concepts"].items()
        if not any(word(form).search(text) for form in concept["forms"] for text in texts)
    ]
    assert unused == [], f"translations/glossary/{code}.toml: no catalog uses {unused}"


@pytest.mark.parametrize("code", GLOSSARY_LANGUAGES)
def test_the_words_said_beside_the_term_are_used(code: str) -> None:
    """`beside`: words the seeds' players say that the catalogs must say too, each somewhere
    ("fechar" beside "bater", "K-A-2 gilt nicht" and "nicht als Übergang", "Geen kopen")."""
    texts = [entry.text for entry in entries(code)]
    unused = [
        f"{name}: {said!r}"
        for name, concept in glossary(code)["concepts"].items()
        for said in concept.get("beside", ())
        if not any(word(said).search(text) for text in texts)
    ]
    assert unused == [], f"translations/glossary/{code}.toml: no catalog says {unused}"


@pytest.mark.parametrize("code", GLOSSARY_LANGUAGES)
def test_an_entry_about_a_concept_uses_its_word(code: str) -> None:
    """`msgid_words`: an entry whose English msgid names the concept ("stock", "decks",
    "joker") says it with the concept's word ("voorraadstapel", "kaartspellen", "Coringa"),
    so no column reads "Spellen" and no sentence says "stapel" for the stock."""
    problems = []
    for name, concept in glossary(code)["concepts"].items():
        english = concept.get("msgid_words", ())
        for entry in entries(code):
            if not any(word(said).search(entry.msgid) for said in english):
                continue
            text = without(entry.text, concept.get("allow", []))
            if not any(word(form).search(text) for form in concept["forms"]):
                problems.append(
                    f"\n{entry.path}: msgid {entry.msgid!r}: its msgstr {entry.text!r} does not "
                    f"say {name} as the glossary does ({concept['term']!r})"
                )
    assert problems == [], "".join(dict.fromkeys(problems))


def test_the_glossary_holds_the_words_of_the_third_reading() -> None:
    """Issue 21: the words the seeds' players use, each held by the glossary."""
    de, nl, pt = (glossary(code)["concepts"] for code in ("de", "nl", "pt"))
    assert "über Eck" in de["around_the_corner"]["replaces"]
    assert {"K-A-2 gilt nicht", "nicht als Übergang"} <= set(de["around_the_corner"]["beside"])
    assert "Kaufen gilt" in de["buy"]["replaces"] and "Kaufen erlaubt" in de["buy"]["beside"]
    assert "rond de hoek" in nl["around_the_corner"]["replaces"]
    assert nl["deck"]["term"] == "kaartspel" and "decks" in nl["deck"]["msgid_words"]
    assert {"Niet kopen", "aankopen"} <= set(nl["buy"]["replaces"])
    assert {"keer kopen", "Geen kopen"} <= set(nl["buy"]["beside"])
    assert nl["stock"]["term"] == "voorraadstapel" and "stapel" in nl["stock"]["replaces"]
    assert "fechar" in pt["go_out"]["beside"] and pt["go_out"]["term"] == "bater"
    assert pt["joker"]["term"] == "Coringa" and "curinga" in pt["joker"]["replaces"]


def test_the_glossary_holds_the_words_of_the_fourth_reading() -> None:
    """Issue 33: buying as an optional house rule (seed 000 "optionale Hausregel", seed 004
    "regra opcional da casa"), our reading of what the seeds leave open, the players at the
    table on /referee; each chosen in every language and used by a catalog (the tests above)."""
    chosen = {
        code: {name: glossary(code)["concepts"][name]["term"] for name in NEW_CONCEPTS}
        for code in GLOSSARY_LANGUAGES
    }
    assert chosen["de"] == {
        "optional_house_rule": "optionale Hausregel",
        "our_reading": "unsere Lesart",
        "table_size": "Spieler am Tisch",
    }
    assert chosen["pt"]["optional_house_rule"] == "regra opcional da casa"
    assert chosen["nl"]["table_size"] == "spelers aan tafel"
    assert chosen["fr"]["optional_house_rule"] == "règle maison facultative"
    assert chosen["es"]["our_reading"] == "nuestra lectura"
    assert "unsere Wahl" in glossary("de")["concepts"]["our_reading"]["forms"]


NEW_CONCEPTS = ("optional_house_rule", "our_reading", "table_size")


def test_the_glossary_holds_the_seating_rule() -> None:
    """Issue 31, point 4: keep two apart, two together, one at a fixed table, one word in each
    language, said by every entry whose English says "seating rule" (the tests above)."""
    chosen = {
        code: glossary(code)["concepts"]["seating_rule"]["term"] for code in GLOSSARY_LANGUAGES
    }
    assert chosen == {
        "de": "Sitzregel",
        "nl": "plaatsingsregel",
        "pt": "regra de lugares",
        "fr": "règle de placement",
        "es": "regla de asientos",
    }


def test_the_check_finds_a_replaced_word_inside_a_sentence_only_as_a_whole_word() -> None:
    assert word("Vertrag").search("Der Vertrag ist erfüllt.")
    assert word("Vertrag").search("Folgen eines vertrag.") is not None
    assert word("Vertrag").search("Die Vertragstabelle") is None
    assert (
        word("Reihe").search(without("die Abwurfkarte außer der Reihe nehmen", ["außer der Reihe"]))
        is None
    )
    assert word("série").search("Une série, ce sont…")
