"""The browser table in a real headless Chromium: a whole game by clicking, on a phone-sized screen.

Needs Playwright for Python and a Chromium from the system's packages (Debian:
``apt-get install chromium``; ``.ci/run`` installs it). Without them the test is
skipped with one line saying what is missing. ``SHITHEAD_SCREENSHOTS=DIR`` also
saves the screenshots there (docs/img/ holds the ones docs/playing.md shows).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
MAX_CLICKS = 1500


def chromium_path() -> str | None:
    for candidate in (os.environ.get("SHITHEAD_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def _skip_reason() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return 'Playwright is not installed (pip install -e ".[test]")'
    if chromium_path() is None:
        return "no Chromium found (apt-get install chromium, or set SHITHEAD_CHROMIUM)"
    return None


pytestmark = pytest.mark.skipif(_skip_reason() is not None, reason=_skip_reason() or "")


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


def save(page: object, name: str, tmp_path: Path) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path), full_page=True)  # type: ignore[attr-defined]
    target = os.environ.get("SHITHEAD_SCREENSHOTS")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(target) / name)
    return path


def test_a_whole_game_by_clicking_on_a_phone(server: str, browser: object, tmp_path: Path) -> None:
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(server + "/")
    page.select_option("#rules", "power_deck")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    for select in page.query_selector_all("#bot-seats select"):
        select.select_option("greedy")
    page.select_option("#hint-bot", "heuristic")
    page.fill("#seed", "7")
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])")

    clicks = hints = multi = 0
    while page.is_hidden("#result"):
        assert clicks < MAX_CLICKS, "the game did not end"
        actions = page.eval_on_selector_all("#actions button", "bs => bs.map(b => JSON.parse(b.dataset.action))")
        assert actions, "the human's turn came with no move to click"
        if clicks == 12:
            page.click("#hint")
            page.wait_for_selector("#actions .prob")
            assert "%" in page.inner_text("#actions") and "heuristic would" in page.inner_text("#hint-text")
            hints += 1
            save(page, "browser_table.png", tmp_path)
        several = [i for i, a in enumerate(actions) if a.get("count", 1) > 1]  # prefer laying several cards
        choice = several[-1] if several else 0
        multi += bool(several)
        before = page.get_attribute("body", "data-decisions")
        page.click(f"#actions button >> nth={choice}")
        page.wait_for_function(f"document.body.dataset.decisions !== '{before}'")
        clicks += 1

    assert page.inner_text("#error") == ""
    result = page.inner_text("#result")
    assert "Finish order" in result or "decision cap" in result
    log = page.inner_text("#log")
    assert "you put " in log and "game over: " in log and " plays " in log
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    save(page, "browser_game_over.png", tmp_path)
    assert hints == 1 and clicks > 10 and multi > 0  # several cards of a rank were laid by a click
    outside = [url for url in requests if not url.startswith(server)]
    assert outside == [], outside  # nothing from a CDN or anywhere else
    page.close()


# What of the human's hand and moves lies outside the screen, with the page scrolled to its top.
OUT_OF_VIEW = """() => {
  window.scrollTo(0, 0);
  const out = [];
  for (const id of ["my-hand", "actions"]) {
    const box = document.getElementById(id).getBoundingClientRect();
    if (box.top < 0 || box.bottom > window.innerHeight) out.push(`#${id} at ${box.top}..${box.bottom}`);
  }
  return out;
}"""


def test_the_hand_and_the_moves_are_in_view_on_a_phone(server: str, browser: object, tmp_path: Path) -> None:
    """At four players on a 390x844 screen the human's hand and move buttons show without scrolling, every turn,
    and the hand is sorted as the terminal sorts it (by rank, then suit)."""
    from shithead_env.cards import card_code

    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    page.goto(server + "/")
    page.select_option("#rules", "dead_last")
    page.fill("#players", "4")
    page.dispatch_event("#players", "change")
    for select in page.query_selector_all("#bot-seats select"):
        select.select_option("greedy")
    page.fill("#seed", "3")
    page.click("#deal")
    page.wait_for_selector("#table:not([hidden])")
    turns = 0
    while page.is_hidden("#result") and turns < 40:
        assert page.evaluate(OUT_OF_VIEW) == [], f"turn {turns}: below the fold"
        hand = page.eval_on_selector_all("#my-hand .card", "cards => cards.map(c => c.dataset.card)")
        assert hand == sorted(hand, key=card_code), f"turn {turns}: hand shown as {hand}"
        if turns == 10:
            save(page, "browser_phone_turn.png", tmp_path)
        before = page.get_attribute("body", "data-decisions")
        page.click("#actions button >> nth=0")
        page.wait_for_function(f"document.body.dataset.decisions !== '{before}'")
        turns += 1
    assert turns > 10
    page.close()


def test_a_player_count_out_of_range_is_refused_in_words(server: str, browser: object) -> None:
    """A count the preset does not seat is said so and Deal waits; the typed number is left as typed."""
    page = browser.new_page(viewport=PHONE)  # type: ignore[attr-defined]
    page.goto(server + "/")
    page.select_option("#rules", "dead_last")
    page.fill("#players", "9")
    page.dispatch_event("#players", "change")
    assert page.input_value("#players") == "9"
    assert page.inner_text("#setup-error") == "Players for dead_last must be 2 to 5, not 9."
    assert page.is_disabled("#deal")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    assert page.inner_text("#setup-error") == "" and page.is_enabled("#deal")
    page.close()


REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"  # built into ReDoc's sidebar; it renders without it


def test_the_api_docs_render_offline(server: str, browser: object) -> None:
    page = browser.new_page()  # type: ignore[attr-defined]
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(server + "/docs")
    page.wait_for_selector(".swagger-ui .info .title", timeout=15_000)
    assert "shithead bot server" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path")
    assert "/v1/games/{game}/actions" in page.inner_text("#swagger-ui")
    assert [url for url in requests if not url.startswith(server)] == []
    page.goto(server + "/redoc")
    page.wait_for_selector("text=The bot's action for a seat's view", timeout=15_000)
    page.wait_for_timeout(500)
    assert "Invalid reference token" not in page.inner_text("body")  # every $ref of /openapi.json resolves
    outside = {url for url in requests if not url.startswith((server, f"blob:{server}"))}
    assert outside <= {REDOC_LOGO}, outside  # ReDoc's own footer logo is its one request elsewhere
    page.close()
