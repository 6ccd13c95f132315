"""Secrets of the web app: tokens are random, only their sha256 is stored, and a
presented token is compared in constant time (timing tells nothing of a near miss)."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

#: bytes of randomness in a seat, host or team token
TOKEN_BYTES = 32


#: what an id of a game or event may look like (they are made by :func:`new_id`):
#: anything else, a NUL byte say, is unknown at once, without a database round trip
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,32}")


def new_id(nbytes: int) -> str:
    """A random id of ``nbytes`` bytes, URL-safe."""
    return secrets.token_urlsafe(nbytes)


def could_be_id(text: str) -> bool:
    return ID_PATTERN.fullmatch(text) is not None


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is ``stored_hash`` (constant time)."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def hash_matches(token_digest: str, stored_hash: str | None) -> bool:
    """Like :func:`matches` for a token already hashed (one hash, many comparisons)."""
    return stored_hash is not None and hmac.compare_digest(token_digest, stored_hash)
