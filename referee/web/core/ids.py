"""Ids and edit tokens of games, clubs and events: random, url-safe, kept as hashes only."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

#: Ids are 22 url-safe characters; anything far from that is not looked up.
ID_LENGTHS = range(16, 33)
#: The longest edit token looked at (ours are 32 characters).
MAX_TOKEN = 64


def new_id() -> str:
    """A game's, club's or event's id: 128 random bits, 22 characters, never beginning with "-"
    (ids are typed on command lines too, where a leading dash reads as an option)."""
    while True:
        made = secrets.token_urlsafe(16)
        if not made.startswith("-"):
            return made


def new_edit_token() -> str:
    """A secret that grants writing: 192 random bits."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """What the database keeps of an edit token."""
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(stored_hash: str | None, token: str | None) -> bool:
    """Whether `token` is the one whose hash was kept (in constant time)."""
    if stored_hash is None or not token or len(token) > MAX_TOKEN:
        return False
    return hmac.compare_digest(stored_hash, token_hash(token))


def valid_id(value: Any) -> bool:
    """Whether `value` could be an id at all (anything else is not looked up: a 404)."""
    return isinstance(value, str) and len(value) in ID_LENGTHS and "\x00" not in value
