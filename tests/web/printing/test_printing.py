"""Printing: the rule page, rule cards and score sheets, house rules from the query, caching."""

from __future__ import annotations

import io
import json
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from pypdf import PdfReader

from referee.engine.game import Game, SeatResult
from referee.engine.variants import VARIANTS
from referee.web.printing.pdfs import render_rule_card
from referee.web.printing.sheets import blank_sheet, game_sheet, page_size, render_sheet
from referee.web.vocabulary.house_rules import overrides_from_query, table_rules


def pdf_text(body: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)


def squeezed(text: str) -> str:
    """Text without whitespace: table cells wrap contract words over lines."""
    return "".join(text.split())


def embedded_fonts(body: bytes) -> set[str]:
    """Names of the fonts a PDF embeds (those with a font file)."""
    names: set[str] = set()
    for page in PdfReader(io.BytesIO(body)).pages:
        resources: Any = page["/Resources"]  # pypdf's objects are as dynamic as the PDF
        fonts = resources.get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            descriptors = [font.get("/FontDescriptor")]
            for descendant in font.get("/DescendantFonts", []):
                descriptors.append(descendant.get_object().get("/FontDescriptor"))
            for descriptor in descriptors:
                if descriptor is None:
                    continue
                descriptor = descriptor.get_object()
                if any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
                    names.add(str(font["/BaseFont"]))
    return names


def _root(reader: PdfReader) -> Any:
    """The document's catalog (pypdf types it as any PDF object)."""
    return reader.trailer["/Root"]


def all_fonts(body: bytes) -> set[str]:
    names: set[str] = set()
    for page in PdfReader(io.BytesIO(body)).pages:
        resources: Any = page["/Resources"]
        for ref in resources.get_object().get("/Font", {}).values():
            names.add(str(ref.get_object()["/BaseFont"]))
    return names


# -- house rules from the query -------------------------------------------------------------------


def test_house_rules_read_from_json_and_from_single_parameters() -> None:
    as_json = overrides_from_query({"house_rules": '{"buying": true, "buy_limit": 2}'})
    single = overrides_from_query({"buying": "yes", "buy_limit": "2"})
    assert as_json == single == {"buying": True, "buy_limit": 2}
    assert overrides_from_query({"max_jokers_per_meld": "none"}) == {"max_jokers_per_meld": None}
    assert overrides_from_query({"deal": "10,11,12,13,14,15,16"}) == {
        "deal": [10, 11, 12, 13, 14, 15, 16]
    }


def test_house_rules_that_change_nothing_key_the_same_card() -> None:
    assert table_rules("contract", {"buying": False}).key == ""
    changed = table_rules("contract", {"buy_limit": 2, "buying": True})
    assert json.loads(changed.key) == {"buying": True, "buy_limit": 2}


def test_rule_page_in_every_variant_names_its_contracts(client: FlaskClient) -> None:
    for variant in VARIANTS:
        page = client.get(f"/rules/{variant}?lang=de")
        assert page.status_code == 200
        text = page.get_data(as_text=True)
        assert 'lang="de"' in text
        if VARIANTS[variant].has_contracts:
            assert "2 Sätze zu 3" in text
        assert f"/rules/{variant}.pdf?lang=de&amp;paper=a4" in text
        assert f"/rules/{variant}.pdf?lang=de&amp;paper=letter" in text
        assert f'action="/sheets/{variant}.pdf"' in text


def test_rule_page_draws_its_cards_without_images(client: FlaskClient) -> None:
    text = client.get("/rules/contract?lang=fr").get_data(as_text=True)
    assert '<span class="pc pc-red" role="img" aria-label="D♦">' in text  # dame de carreau
    assert "<img" not in text
    assert "style=" not in text


def test_house_rules_change_the_rule_page(client: FlaskClient) -> None:
    plain = client.get("/rules/contract?lang=en").get_data(as_text=True)
    assert "an optional house rule (“Buying”) that this table does not play" in plain
    assert "None: the rules as printed here." in plain
    page = client.get("/rules/contract?lang=en&buying=true&buy_limit=2&aces=low_only")
    text = page.get_data(as_text=True)
    assert "may buy at most twice per round" in text
    assert "An ace is always low" in text
    assert "House rules in force" in text and "None: the rules" not in text
    # The print links carry the table's rules along.
    assert "house_rules=%7B%22aces%22:%22low_only%22,%22buy_limit%22:2,%22buying%22:true%7D" in text


def test_alias_redirects_to_the_variant_id(client: FlaskClient) -> None:
    answer = client.get("/rules/zioncheck?lang=nl")
    assert answer.status_code == 301
    assert answer.headers["Location"].startswith("/rules/contract?lang=nl")


@pytest.mark.parametrize(
    ("url", "status", "words"),
    [
        ("/rules/pinochle?lang=de", 404, "Variante"),
        ("/rules/pinochle.pdf?lang=fr", 404, "variante"),
        ("/rules/contract?lang=de&buy_limit=lots", 400, "buy_limit"),
        ("/rules/contract.pdf?lang=es&house_rules=%7Bnot%20json", 400, "house_rules"),
        ("/rules/contract.pdf?lang=pt&house_rules=%7B%22dancing%22%3Atrue%7D", 400, "dancing"),
        ("/rules/contract.pdf?lang=nl&paper=a5", 400, "Letter"),
        ("/sheets/contract.pdf?lang=en&paper=a3", 400, "Letter"),
    ],
)
def test_bad_input_is_a_translated_4xx(
    client: FlaskClient, url: str, status: int, words: str
) -> None:
    answer = client.get(url)
    assert answer.status_code == status
    assert answer.mimetype == "text/html"
    assert words in answer.get_data(as_text=True)


def test_the_rules_index_lists_every_variant(client: FlaskClient) -> None:
    text = client.get("/rules?lang=es").get_data(as_text=True)
    for variant in VARIANTS:
        assert f'href="/rules/{variant}"' in text
    assert "Reglas" in text


# -- rule cards -----------------------------------------------------------------------------------


def test_rule_card_is_a_two_page_pdf_with_title_and_language(client: FlaskClient) -> None:
    answer = client.get("/rules/shanghai.pdf?lang=pt&paper=letter")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    reader = PdfReader(io.BytesIO(answer.data))
    assert len(reader.pages) == 2
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert (round(width), round(height)) == (612, 792)
    assert reader.metadata is not None and reader.metadata.title == "Rummy Xangai"
    assert _root(reader)["/Lang"] == "pt"
    assert 10_000 < len(answer.data) < 100_000


def test_rule_card_is_cached_and_answers_304(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from referee.web.printing import documents

    builds: list[str] = []

    def counted(*args: Any) -> Any:
        builds.append(args[1])
        return render_rule_card(*args)

    monkeypatch.setattr(documents, "render_rule_card", counted)
    first = client.get("/rules/contract.pdf?lang=nl&paper=a4")
    etag = first.headers["ETag"]
    second = client.get("/rules/contract.pdf?lang=nl&paper=a4")
    assert builds == ["nl"]  # built once, then served from memory
    assert second.data == first.data and second.headers["ETag"] == etag
    again = client.get("/rules/contract.pdf?lang=nl&paper=a4", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    other = client.get("/rules/contract.pdf?lang=nl&paper=letter")
    assert other.headers["ETag"] != etag


def test_house_rules_change_the_rule_card(client: FlaskClient) -> None:
    plain = pdf_text(client.get("/rules/contract.pdf?lang=de").data)
    rules = quote(json.dumps({"buying": True, "buy_limit": 2}))
    changed = pdf_text(client.get(f"/rules/contract.pdf?lang=de&house_rules={rules}").data)
    assert "optionaleHausregel" in squeezed(plain) and "optionaleHausregel" not in squeezed(changed)
    assert "höchstenszweimalkaufen" in squeezed(changed)  # "zweimal": in words, as players say it


def test_a_custom_contract_table_prints_its_contracts(client: FlaskClient) -> None:
    contracts = ["2 sets of 3", "1 set of 3 + 1 run of 4", "four runs of 3"]
    rules = quote(json.dumps({"contracts": contracts}))
    answer = client.get(f"/rules/contract.pdf?lang=fr&house_rules={rules}")
    assert answer.status_code == 200
    text = squeezed(pdf_text(answer.data))
    assert squeezed("4 suites de 3") in text
    assert len(PdfReader(io.BytesIO(answer.data)).pages) == 2


# -- score sheets ---------------------------------------------------------------------------------


def test_blank_sheet_prints_names_contracts_and_values(client: FlaskClient) -> None:
    answer = client.get("/sheets/contract.pdf?lang=de&players=Änne,Bo,Çem")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    assert answer.headers["ETag"]
    text = pdf_text(answer.data)
    for word in ("Änne", "Bo", "Çem", "2 Sätze zu 3", "3 Folgen zu 4", "Kartenwerte", "Sieger"):
        assert squeezed(word) in squeezed(text)
    assert "♣" in text and "♥" in text
    reader = PdfReader(io.BytesIO(answer.data))
    assert len(reader.pages) == 1
    assert _root(reader)["/Lang"] == "de"
    assert reader.metadata is not None and "Punkteblatt" in str(reader.metadata.title)
    assert all_fonts(answer.data) == embedded_fonts(answer.data)  # no unembedded Helvetica
    assert any("DejaVuSans" in name for name in embedded_fonts(answer.data))
    assert len(answer.data) < 100_000


def test_many_players_turn_the_sheet_to_landscape(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        table = table_rules("contract")
        few = blank_sheet(table, "en", "a4", ["Ann", "Bo", "Cy"])
        many = blank_sheet(table, "en", "a4", [""] * 8)
    width, height = page_size(few)
    assert width < height
    width, height = page_size(many)
    assert width > height


def test_sheet_form_errors_keep_what_was_typed(client: FlaskClient) -> None:
    typed = "Ann,Bo,Cy,Di,Ed,Flo,Gus,Hal,Ivy"
    answer = client.get(f"/sheets/contract.pdf?lang=en&players={typed}")
    assert answer.status_code == 400
    text = answer.get_data(as_text=True)
    assert "3 to 8 players, not 9" in text
    assert f'value="{typed}"' in text
    twice = client.get("/sheets/rummy.pdf?lang=nl&players=Ann,ann,Bo")
    assert twice.status_code == 400 and "verschillende namen" in twice.get_data(as_text=True)


def test_a_number_gives_unnamed_columns(client: FlaskClient) -> None:
    answer = client.get("/sheets/rummy.pdf?lang=en&players=2")
    assert answer.status_code == 200
    text = pdf_text(answer.data)
    assert "Deal" in text and "10" in text  # two players are dealt 10 cards each


OUT = SeatResult(went_out=True)


def _game() -> Game:
    """A game two rounds in."""
    game = Game.start("contract", ["Ann", "Bo", "Cy"])
    game = game.enter_round(1, [OUT, SeatResult(penalty=25), SeatResult(penalty=30)]).game
    return game.enter_round(2, [SeatResult(penalty=45), OUT, SeatResult(penalty=5)]).game


def test_game_sheet_fills_in_scores_and_running_totals(app: Flask) -> None:
    with app.test_request_context("/?lang=en"):
        sheet = game_sheet(_game(), "en", "a4", "2 December 2026")
        body = render_sheet(sheet).body
    text = pdf_text(body)
    assert "2 December 2026" in text
    assert [row.totals for row in sheet.rows[:2]] == [[0, 25, 30], [45, 25, 35]]
    assert len(sheet.rows) == 7  # the rounds still to play are printed blank
    for word in ("Ann", "45", "35", "Dealer: Bo", "3 runs of 4"):
        assert word in text


def test_game_sheet_from_a_real_game(client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/games", json={"variant": "shanghai", "players": ["Ann", "Bo", "Cy"]}
    ).get_json()
    auth = {"Authorization": f"Bearer {created['edit_token']}"}
    results = [
        {"player": "Ann", "went_out": True},
        {"player": "Bo", "penalty": 25},
        {"player": "Cy", "penalty": 40},
    ]
    posted = client.post(
        f"/api/v1/games/{created['id']}/rounds", json={"round": 1, "results": results}, headers=auth
    )
    assert posted.status_code == 200
    answer = client.get(f"/games/{created['id']}/sheet.pdf?lang=es")
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    text = pdf_text(answer.data)
    assert "Rummy Shanghái" in text and "Bo" in text and "40" in text
    assert "no-cache" in answer.headers["Cache-Control"]
    again = client.get(
        f"/games/{created['id']}/sheet.pdf?lang=es",
        headers={"If-None-Match": answer.headers["ETag"]},
    )
    assert again.status_code == 304


def test_game_sheet_of_no_game_is_404(client: FlaskClient) -> None:
    assert client.get("/games/nothing-here/sheet.pdf?lang=de").status_code == 404


def test_print_link_for_the_games_page(app: Flask) -> None:
    with app.test_request_context():
        from flask import url_for

        assert url_for("printing.game_sheet", game_id="g1") == "/games/g1/sheet.pdf"


def _text_runs(body: bytes) -> list[tuple[str, float, float, float]]:
    """Each string the sheet draws: (text, x left, x right, baseline), in page points."""
    from reportlab.pdfbase import pdfmetrics

    runs: list[tuple[str, float, float, float]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: float) -> None:
        text = text.strip()
        if not text or font is None:
            return
        family = "RefereeSans-Bold" if "Bold" in str(font.get("/BaseFont", "")) else "RefereeSans"
        x = cm[4] + tm[4] * cm[0]
        width = pdfmetrics.stringWidth(text, family, size * tm[0])
        runs.append((text, x, x + width, cm[5] + tm[5] * cm[3]))

    PdfReader(io.BytesIO(body)).pages[0].extract_text(visitor_text=visit)
    return runs


@pytest.mark.parametrize("lang", ["en", "de", "nl", "pt", "fr", "es"])
def test_no_words_on_a_sheet_overprint_each_other(app: Flask, lang: str) -> None:
    """Card values in the margin ("2–10 valor de face") and every label stay apart."""
    for variant in VARIANTS.values():
        for players in (variant.min_players, variant.max_players):
            with app.test_request_context(f"/?lang={lang}"):
                sheet = blank_sheet(table_rules(variant.id), lang, "a4", [""] * players)
                body = render_sheet(sheet).body
            runs = sorted(_text_runs(body), key=lambda run: run[1])
            for index, first in enumerate(runs):
                for second in runs[index + 1 :]:
                    if abs(first[3] - second[3]) < 4:  # on the same line: side by side
                        assert first[2] <= second[1] + 0.5, (variant.id, players, first, second)


def test_the_summary_states_set_limits_and_the_joker_limit(app: Flask) -> None:
    """Page 1 settles arguments: Dutch sets of 3-4 in other suits, Shanghai's one joker."""
    from referee.web.vocabulary.rulebook import build_rulebook

    def captions(variant: str, lang: str = "en", **house: Any) -> str:
        with app.test_request_context(f"/?lang={lang}"):
            book = build_rulebook(table_rules(variant, house or None), lang)
            return " | ".join(example.caption for example in book.meld_examples)

    assert "Set: 3 to 4 cards of one rank, each of another suit" in captions("zioncheck-nl")
    assert "Satz: 3 bis 4 Karten eines Werts, jede in einer anderen Farbe" in captions(
        "zioncheck-nl", "de"
    )
    assert "Set: 3 or more cards of one rank" in captions("contract")
    assert "at most 1 joker per meld" in captions("shanghai")
    assert "joker per meld" not in captions("contract")
    # A house rule changes the words with the game.
    assert "at most 2 jokers per meld" in captions("contract", max_jokers_per_meld=2)


def test_duplicates_are_normal_only_where_every_shoe_has_two_decks(app: Flask) -> None:
    from referee.web.vocabulary.rulebook import build_rulebook

    def cards_section(variant: str, **house: Any) -> str:
        with app.test_request_context("/?lang=en"):
            book = build_rulebook(table_rules(variant, house or None), "en")
            return " ".join(book.sections[0].paragraphs)

    assert "Duplicate cards are normal." in cards_section("shanghai")
    # zioncheck-nl: 3-5 players with 1 deck; more only as a house rule, with 2 decks
    assert "Play with one 52-card deck and jokers" in cards_section("zioncheck-nl")
    dutch = cards_section("zioncheck-nl", max_players=8)
    assert "one or more 52-card decks" in dutch and "With two decks or more" in dutch


def test_sheet_player_counts_that_are_not_numbers_are_a_400(client: FlaskClient) -> None:
    for players in ("9" * 400, "²", "0", "99"):
        answer = client.get(f"/sheets/contract.pdf?players={players}")
        assert answer.status_code == 400, players
        assert "players" in answer.get_data(as_text=True)
