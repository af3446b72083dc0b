"""The layout in a phone-sized Chromium: fits 360 px, thumb-sized targets, no CSP complaints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect


def test_error_page_fits_a_360px_phone_without_csp_violations(
    page: Page, live_server: str, console_errors: list[str], screenshot_dir: Path
) -> None:
    response = page.goto(f"{live_server}/no-such-page?lang=pt")
    assert response is not None
    assert response.status == 404
    page.wait_for_function("window.htmx !== undefined && document.readyState === 'complete'")

    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate("window.__cspViolations") == []
    assert page.evaluate("htmx.config.includeIndicatorStyles") is False
    assert page.locator("head style").count() == 0  # htmx added no inline <style>
    assert page.locator("h1").inner_text() == "Página não encontrada"

    page.locator("details.lang-picker summary").tap()
    page.screenshot(path=str(screenshot_dir / "base-404-pt-360.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # The one expected complaint: the page itself answered 404.
    assert [text for text in console_errors if "status of 404" not in text] == []


def test_targets_are_thumb_sized(page: Page, live_server: str) -> None:
    page.goto(f"{live_server}/no-such-page")
    page.locator("details.lang-picker summary").tap()
    targets = page.locator(
        ".site-header a, .site-header summary, .lang-picker li a, main a.button, main button"
    )
    assert targets.count() >= 10
    for index in range(targets.count()):
        if not targets.nth(index).is_visible():
            continue  # the theme switch's other link: one of the two is shown
        box = targets.nth(index).bounding_box()
        assert box is not None
        assert box["height"] >= 44, targets.nth(index).inner_text()
        assert box["width"] >= 44, targets.nth(index).inner_text()


def test_language_picker_works_without_javascript(
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    screenshot_dir: Path,
) -> None:
    context = browser.new_context(**browser_context_args, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/no-such-page?x=1")
        page.locator("details.lang-picker summary").tap()
        # The page is already at this address: wait for the navigation the tap starts,
        # not for the address (which matches before the redirect comes back).
        with page.expect_navigation(url=f"{live_server}/no-such-page?x=1"):
            page.get_by_role("link", name="Deutsch").tap()
        expect(page.locator("html")).to_have_attribute("lang", "de")
        expect(page.locator("h1")).to_have_text("Seite nicht gefunden")
        assert {"name": "lang", "value": "de"}.items() <= context.cookies()[0].items()
        page.screenshot(path=str(screenshot_dir / "base-404-de-nojs-360.png"))
    finally:
        context.close()
