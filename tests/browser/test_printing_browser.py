"""The rule page on a 360-px phone in headless Chromium: fits, thumb-sized, prints, keeps input."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect


def test_rule_page_on_a_phone(page: Page, live_server: str, screenshot_dir: Path) -> None:
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    page.goto(live_server + "/rules/zioncheck-nl?lang=nl")
    expect(page.get_by_role("heading", level=1)).to_have_text("Contract-rommé (Nederlandse regels)")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "no sideways scrolling"
    for link in page.locator(".rb-actions a").all():
        box = link.bounding_box()
        assert box is not None and box["height"] >= 44 and box["width"] >= 44
    expect(page.locator(".rb-examples .pc").first).to_be_visible()
    page.screenshot(path=str(screenshot_dir / "printing-rules-nl.png"), full_page=True)

    # The rule card button hands over the PDF.
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Regelkaart, A4 (pdf)").tap()
    download = download_info.value
    assert download.suggested_filename == "zioncheck-nl-rules-nl-a4.pdf"
    assert Path(download.path()).read_bytes().startswith(b"%PDF")
    # Nothing the Content-Security-Policy had to refuse (inline style or script).
    assert not [e for e in errors if "Refused" in e or "Content Security Policy" in e], errors


def test_sheet_form_keeps_a_bad_entry(page: Page, live_server: str, screenshot_dir: Path) -> None:
    page.goto(live_server + "/rules/rummy?lang=en")
    players = page.get_by_label("Players")
    players.fill("Ann, Bo, Cy, Di, Ed, Flo, Gus")  # rummy takes at most 6
    box = players.bounding_box()
    assert box is not None and box["height"] >= 44
    page.get_by_role("button", name="Score sheet (PDF)").tap()
    expect(page.locator(".field-errors")).to_contain_text("2 to 6 players, not 7")
    expect(page.get_by_label("Players")).to_have_value("Ann, Bo, Cy, Di, Ed, Flo, Gus")
    page.screenshot(path=str(screenshot_dir / "printing-sheet-error.png"), full_page=True)
    page.get_by_label("Players").fill("Ann, Bo, Cy")
    with page.expect_response(lambda answer: "/sheets/rummy.pdf" in answer.url) as answer_info:
        page.get_by_role("button", name="Score sheet (PDF)").tap()
    answer = answer_info.value
    assert answer.status == 200 and answer.headers["content-type"] == "application/pdf"


def test_shanghai_examples_of_four_cards_fit_a_phone(
    page: Page, live_server: str, screenshot_dir: Path
) -> None:
    """Shanghai's ace examples are runs of four (J-Q-K-A, A-2-3-4): they still fit 360 px."""
    page.goto(live_server + "/rules/shanghai?lang=de")
    examples = page.locator(".rb-examples")
    expect(examples.locator("figcaption", has_text="Ass hoch")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "no sideways scrolling"
    rows = examples.locator(".ex-cards").evaluate_all(
        "els => els.map(e => e.scrollWidth <= e.clientWidth + 1)"
    )
    assert rows and all(rows)
    examples.screenshot(path=str(screenshot_dir / "printing-shanghai-examples-de.png"))
