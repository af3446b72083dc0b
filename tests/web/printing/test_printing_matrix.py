"""Every rule card: each variant x language x paper renders two pages in its own words.

Each card is rendered once (the matrix shares one app), then checked: page count, page
size, the localized contract words (pdftotext, or pypdf without poppler), the language
and title in the metadata, the structure tags, the fonts embedded, a size in the tens of
KB. A few pages are saved as PNG under test-artifacts/printing/ for a reviewer to look at.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask_babel import force_locale
from pypdf import PdfReader
from test_rules_fourth_reading import WRONG

from referee.engine.variants import VARIANTS
from referee.web import create_app
from referee.web.printing.pdfs import render_rule_card
from referee.web.printing.sheets import blank_sheet, render_sheet
from referee.web.vocabulary import words
from referee.web.vocabulary.house_rules import table_rules

ROOT = Path(__file__).resolve().parents[3]
SNAPSHOTS = ROOT / "test-artifacts" / "printing"
LANGUAGES = ("en", "de", "nl", "pt", "fr", "es")
PAPERS = {"a4": (595, 842), "letter": (612, 792)}
SNAPSHOT_CARDS = {
    ("contract", "de", "letter"),
    ("shanghai", "fr", "letter"),
    ("zioncheck-nl", "nl", "a4"),
    ("rummy", "pt", "a4"),
}


@pytest.fixture(scope="module")
def print_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    instance = tmp_path_factory.mktemp("print-instance")
    yield create_app(
        {"TESTING": True, "SECRET_KEY": "matrix", "DATABASE_URL": "sqlite://"},
        instance_path=str(instance),
    )


def _render(app: Flask, variant: str, lang: str, paper: str) -> bytes:
    with app.test_request_context(f"/rules/{variant}.pdf?lang={lang}&paper={paper}"):
        return render_rule_card(table_rules(variant), lang, paper).body


def _text_by_page(body: bytes) -> list[str]:
    """The text of each page: poppler's pdftotext (fast), or pypdf where it is missing."""
    if shutil.which("pdftotext"):
        out = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", "-", "-"], input=body, capture_output=True, timeout=60
        )
        return out.stdout.decode("utf-8").split("\f")
    return [page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages]


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _embedded(reader: PdfReader) -> tuple[set[str], set[str]]:
    """(all font names, embedded font names) over the document."""
    every: set[str] = set()
    embedded: set[str] = set()
    for page in reader.pages:
        resources: Any = page["/Resources"]  # pypdf's objects are as dynamic as the PDF
        for ref in resources.get_object().get("/Font", {}).values():
            font = ref.get_object()
            name = str(font["/BaseFont"])
            every.add(name)
            descriptors = [font.get("/FontDescriptor")] + [
                d.get_object().get("/FontDescriptor") for d in font.get("/DescendantFonts", [])
            ]
            for descriptor in descriptors:
                if descriptor is not None and "/FontFile2" in descriptor.get_object():
                    embedded.add(name)
    return every, embedded


def _snapshot(body: bytes, name: str) -> Path:
    SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    pdf = SNAPSHOTS / f"{name}.pdf"
    pdf.write_bytes(body)
    subprocess.run(
        ["pdftoppm", "-r", "60", "-png", str(pdf), str(SNAPSHOTS / name)], check=True, timeout=60
    )
    return SNAPSHOTS / f"{name}-1.png"


# Every variant in every language, each on one paper: the papers alternate, so every variant
# and every language is drawn on both A4 and Letter (a card takes about a second to render).
CARDS = [
    (variant, lang, tuple(PAPERS)[(v + n) % len(PAPERS)])
    for v, variant in enumerate(VARIANTS)
    for n, lang in enumerate(LANGUAGES)
]


@pytest.mark.parametrize(("variant", "lang", "paper"), CARDS)
def test_rule_card(print_app: Flask, variant: str, lang: str, paper: str) -> None:
    body = _render(print_app, variant, lang, paper)
    reader = PdfReader(io.BytesIO(body))
    assert len(reader.pages) == 2, "page 1 the summary, page 2 the full rules"
    size = tuple(round(float(v)) for v in reader.pages[0].mediabox.upper_right)
    assert size == PAPERS[paper]
    root: Any = reader.trailer["/Root"]
    assert root["/Lang"] == lang
    assert root["/MarkInfo"]["/Marked"] and "/StructTreeRoot" in root, "a tagged PDF"
    pages = _text_by_page(body)
    text = _squeezed("".join(pages))
    summary = _squeezed(pages[0])
    with print_app.test_request_context(f"/?lang={lang}"), force_locale(lang):
        variant_data = VARIANTS[variant]
        name = words.variant_name(variant_data)
        assert reader.metadata is not None and reader.metadata.title == name
        assert _squeezed(name) in summary
        for contract in variant_data.contracts:
            # a table cell starts as a line does: "Duas trincas"
            said = words.contract_text(contract)
            assert _squeezed(said[:1].upper() + said[1:]) in summary
        if lang != "en":
            # The page is in its own language, not in English.
            assert "Fullrules" not in text and "Cardvalues" not in text
    every, embedded = _embedded(reader)
    assert every and every == embedded, "every font is embedded"
    assert 10_000 < len(body) < 80_000
    # None of the wrong sentences the fourth reading of the seeds took off the cards.
    spaced = " ".join(" ".join(page.split()) for page in pages)
    assert [p for p in WRONG[lang] if re.search(p, spaced)] == []
    if (variant, lang, paper) in SNAPSHOT_CARDS and shutil.which("pdftoppm"):
        png = _snapshot(body, f"rules-{variant}-{lang}-{paper}")
        assert png.stat().st_size > 1000


@pytest.mark.parametrize(
    ("variant", "lang", "paper", "players"),
    [
        ("contract", "de", "a4", ["Änne", "Bo", "Çem"]),
        ("shanghai", "es", "letter", ["", "", "", "", "", ""]),
        ("zioncheck-nl", "nl", "a4", ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]),
        ("rummy", "fr", "letter", ["Ann", "Bo"]),
    ],
)
def test_score_sheet_snapshots(
    print_app: Flask, variant: str, lang: str, paper: str, players: list[str]
) -> None:
    with print_app.test_request_context(f"/?lang={lang}"):
        # More than the variant's players only as a house rule (zioncheck-nl's 8: RULES.md).
        house = (
            {"max_players": len(players)} if len(players) > VARIANTS[variant].max_players else None
        )
        table = table_rules(variant, house)
        body = render_sheet(blank_sheet(table, lang, paper, players)).body
    reader = PdfReader(io.BytesIO(body))
    assert len(reader.pages) == 1
    every, embedded = _embedded(reader)
    assert every == embedded
    assert len(body) < 80_000
    if shutil.which("pdftoppm"):
        png = _snapshot(body, f"sheet-{variant}-{lang}-{paper}")
        assert png.stat().st_size > 1000
