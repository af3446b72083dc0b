"""What the features share (referee/web/core): ids and tokens, the clock, one list of languages."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from referee.engine import languages
from referee.engine.cards import LOCAL_RANK_LETTERS
from referee.web.core import clock, ids
from referee.web.core.errors import NotFound, StoreError
from referee.web.core.languages import DEFAULT_LANGUAGE, LANGUAGES, supported


def test_ids_are_unguessable_and_look_like_ids() -> None:
    made = {ids.new_id() for _ in range(200)}
    assert len(made) == 200
    assert all(ids.valid_id(made_id) and len(made_id) == 22 for made_id in made)
    assert not ids.valid_id("short")
    assert not ids.valid_id("x" * 21 + "\x00")
    assert not ids.valid_id(12345678901234567890)


def test_no_new_id_begins_with_a_dash_which_a_command_line_would_read_as_an_option(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = iter(["-dashFirst0123456789ab", "-againDash0123456789ab", "plain0123456789abcdefg"])
    monkeypatch.setattr("secrets.token_urlsafe", lambda _bytes: next(drawn))
    assert ids.new_id() == "plain0123456789abcdefg"


def test_a_token_is_kept_as_a_hash_and_matches_only_itself() -> None:
    token = ids.new_edit_token()
    kept = ids.token_hash(token)
    assert token not in kept and len(kept) == 64
    assert ids.token_matches(kept, token)
    assert not ids.token_matches(kept, ids.new_edit_token())
    assert not ids.token_matches(kept, None)
    assert not ids.token_matches(None, token)
    assert not ids.token_matches(kept, token + "x" * ids.MAX_TOKEN)


def test_the_clock_is_utc_and_reads_back_naive_times_as_utc() -> None:
    assert clock.now().tzinfo is UTC
    assert clock.aware(datetime(2026, 12, 3, 20, 0)) == datetime(2026, 12, 3, 20, 0, tzinfo=UTC)


def test_one_list_of_languages_and_the_cards_know_each() -> None:
    assert list(LANGUAGES) == ["en", "de", "nl", "pt", "fr", "es"]
    assert DEFAULT_LANGUAGE in LANGUAGES
    # One list, the engine's: the web names it, the card reader has letters for each.
    assert tuple(LANGUAGES) == languages.LANGUAGES == tuple(LOCAL_RANK_LETTERS)
    assert DEFAULT_LANGUAGE == languages.DEFAULT_LANGUAGE
    assert supported(" DE ") == "de"
    assert supported("xx") is None and supported(None) is None


def test_not_found_is_a_store_error() -> None:
    assert issubclass(NotFound, StoreError)
