"""The aw-server REST API: buckets and a window's events, with retries on transient failures."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from urllib.parse import quote

import httpx
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential

from omoide.core.errors import SourceError

# Bucket types read, and the event type each becomes.
EVENT_TYPES = {"currentwindow": "window", "afkstatus": "afk", "web.tab.current": "web"}
ATTEMPTS = 4
BACKOFF_S = 0.25
TIMEOUT_S = 10.0
# aw-server-rust parses `limit` as an unsigned integer, so the "-1 = no limit" that
# aw-server (Python) understands is refused there; a huge positive cap works on both.
EVENT_LIMIT = 1_000_000_000


def keyed(buckets: object, origin: object) -> dict[str, Any]:
    """Buckets as dict or list -> dict keyed by bucket id."""
    if isinstance(buckets, dict):
        return {str(k): v for k, v in buckets.items()}
    if isinstance(buckets, list):
        return {
            str(b.get("id", i)) if isinstance(b, dict) else str(i): b for i, b in enumerate(buckets)
        }
    raise SourceError(origin, "'buckets' is neither an object nor a list")


def fetch_buckets(
    url: str,
    start: datetime,
    end: datetime,
    *,
    attempts: int = ATTEMPTS,
    backoff_s: float = BACKOFF_S,
    timeout_s: float = TIMEOUT_S,
) -> dict[str, Any]:
    """aw-server base URL + window -> buckets keyed by id, each with its window's events."""
    base = url.rstrip("/")
    window = {"start": start.isoformat(), "end": end.isoformat(), "limit": str(EVENT_LIMIT)}
    with httpx.Client(base_url=base, timeout=timeout_s) as client:
        meta = _get_json(client, base, "/api/0/buckets/", {}, attempts, backoff_s)
        buckets = keyed(meta, base)
        for bid, bucket in buckets.items():
            if not isinstance(bucket, dict) or bucket.get("type") not in EVENT_TYPES:
                continue
            path = f"/api/0/buckets/{quote(bid, safe='')}/events"
            events = _get_json(client, base, path, window, attempts, backoff_s)
            buckets[bid] = {**bucket, "events": events}
    return buckets


def _transient(exc: BaseException) -> bool:
    """Exception -> whether retrying may help (connection trouble or a 5xx answer)."""
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code >= 500
    return isinstance(exc, httpx.TransportError)


def _get_json(
    client: httpx.Client,
    base: str,
    path: str,
    params: Mapping[str, str],
    attempts: int,
    backoff_s: float,
) -> Any:
    """GET path with retries -> decoded JSON; SourceError naming the URL when it keeps failing."""
    retrying = Retrying(
        stop=stop_after_attempt(attempts),
        wait=wait_exponential(multiplier=backoff_s, max=30),
        retry=retry_if_exception(_transient),
        reraise=True,
    )
    try:
        for attempt in retrying:
            with attempt:
                resp = client.get(path, params=params)
                resp.raise_for_status()
    except httpx.HTTPStatusError as exc:
        code = exc.response.status_code
        raise SourceError(
            base, f"HTTP {code} from {path} after {attempts} attempt(s)", transient=code >= 500
        ) from exc
    except httpx.TransportError as exc:
        raise SourceError(
            base,
            f"cannot reach aw-server ({type(exc).__name__}) after {attempts} attempts",
            transient=True,
        ) from exc
    try:
        return resp.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SourceError(base, f"invalid JSON from {path}: {exc}", transient=True) from exc
