"""An ActivityWatch export file -> its buckets keyed by id; a damaged file costs only what is damaged.

Decoding: UTF-8, or UTF-16/32 with a BOM (text_files); a file that is not text is a SourceError
naming it. Bytes that are not UTF-8 inside the JSON are decoded as U+FFFD (each event that
holds one is counted by the collector, and one whose text is mostly such characters is
rejected), so one bad byte in a title costs neither the title's other characters nor the file.

When the JSON does not decode as a whole (a flipped byte, a cut-off file, nesting too deep
somewhere), the export is salvaged bucket by bucket: each `"events": [` array is found, its
bucket's header (id, type, ...) is decoded from the object it opens, and its events are
decoded one by one (json_salvage); an event that does not decode is a `Damaged` element,
which the collector rejects with its bucket and position. A bucket whose header does not
decode is one `Damaged` bucket (its type is unknown, so none of its events can be read): the
collector rejects it by name. Only a file in which no events array can be found at all is a
SourceError. The number of damaged events is logged as a warning.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omoide.core.errors import SourceError
from omoide.ingest.sources.aw_api import keyed
from omoide.ingest.sources.base import read_source
from omoide.ingest.sources.json_salvage import Damaged, array_elements
from omoide.ingest.sources.text_files import utf8_text

log = logging.getLogger(__name__)

_EVENTS = re.compile(r'"events"\s*:\s*\[')
_KEY_BEFORE = re.compile(r'("(?:[^"\\]|\\.)*")\s*:\s*$')
_ID = re.compile(r'"id"\s*:\s*("(?:[^"\\]|\\.)*")')
# What may lie between two buckets' events lists besides their headers: the end of one
# bucket, the start of the document, and the next bucket's key.
_GAP = re.compile(r'\s*(?:\{\s*"buckets"\s*:)?[\s\[\]{},]*(?:"(?:[^"\\]|\\.)*"\s*:\s*)?')
# How far back from an events array its bucket's header may start, and how many object
# starts are tried there: a header is a few hundred characters.
_HEADER_SPAN = 65_536
_HEADER_TRIES = 64


@dataclass(frozen=True)
class Export:
    """An export read: buckets keyed by id, whether bytes that were not UTF-8 were replaced, damage by bucket."""

    buckets: dict[str, Any]
    replaced_bytes: bool = False
    damage: list[tuple[str, str]] = field(default_factory=list)  # (bucket id, what is wrong)


def load_export(path: Path) -> Export:
    """Export JSON file -> buckets keyed by id (salvaged when damaged); SourceError naming the file if unreadable."""
    data = utf8_text(read_source(path), path)
    try:
        text, replaced = data.decode("utf-8-sig"), False
    except UnicodeDecodeError as exc:
        text, replaced = data.decode("utf-8-sig", "replace"), True
        log.warning(
            "activitywatch: %s: bytes that are not UTF-8 (first at %d) replaced", path, exc.start
        )
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        salvaged = salvaged_buckets(text)
        if salvaged is None:
            if isinstance(exc, RecursionError):
                raise SourceError(path, "invalid JSON: nested too deeply") from None
            raise SourceError(
                path, f"invalid JSON at line {exc.lineno} col {exc.colno}: {exc.msg}"
            ) from exc
        buckets, damage = salvaged
        damaged = sum(
            1 if isinstance(b, Damaged) else sum(isinstance(e, Damaged) for e in b["events"])
            for b in buckets.values()
        )
        log.warning(
            "activitywatch: %s is damaged JSON; read bucket by bucket: %d damaged record(s) rejected",
            path,
            damaged,
        )
        return Export(buckets, replaced, damage)
    if not isinstance(doc, dict) or "buckets" not in doc:
        raise SourceError(path, "not an ActivityWatch export: no top-level 'buckets'")
    return Export(keyed(doc["buckets"], path), replaced)


def _is_event(value: object) -> bool:
    """Decoded value -> does it look like an AW event (an object with a timestamp)?"""
    return isinstance(value, dict) and "timestamp" in value


def salvaged_buckets(text: str) -> tuple[dict[str, Any], list[tuple[str, str]]] | None:
    """Export text that does not decode -> every bucket whose events array is found, and where one ends early; None when none is."""
    openers = list(_EVENTS.finditer(text))
    if not openers:
        return None
    headers = [
        _header(text, m.start(), openers[k - 1].end() if k else 0) for k, m in enumerate(openers)
    ]
    buckets: dict[str, Any] = {}
    damage: list[tuple[str, str]] = []
    first = headers[0][0] if headers[0][0] is not None else openers[0].start()
    damage += _lost(text, 0, first, None)
    for k, m in enumerate(openers):
        if k + 1 < len(openers):
            nxt = headers[k + 1][0]
            end = nxt if nxt is not None else openers[k + 1].start()
        else:
            end = len(text)
        events, closed = array_elements(text, m.end(), end, _is_event)
        _, meta, key = headers[k]
        ids = _ids(text, openers[k - 1].end() if k else 0, m.start())
        bid = key or (str(meta.get("id", k)) if meta else (ids[-1] if ids else f"#{k}"))
        if meta is None:
            buckets[bid] = Damaged(
                m.start(),
                f"damaged JSON in the bucket's header before character {m.start()}: "
                f"its type is unknown, so its {len(events)} event(s) are not read",
            )
            continue
        buckets[bid] = {**meta, "events": events}
        if closed is None:
            # Cut short, or its closing bracket damaged: events after the damage may be gone.
            where = "the file ends" if end == len(text) else "the next bucket starts"
            damage.append(
                (bid, f"damaged JSON: {where} before this bucket's events list is closed")
            )
        elif k + 1 == len(openers) or headers[k + 1][0] is not None:
            damage += _lost(text, closed, end, bid)  # (a damaged header is named on its own)
    return buckets, damage


def _lost(text: str, a: int, b: int, before: str | None) -> list[tuple[str, str]]:
    """Text between two buckets read + the bucket before -> damage for what is there besides punctuation and a key.

    A bucket whose `"events": [` was damaged is found by no search for events lists; its
    header still names it (`"id": "..."`), so it is named instead of vanishing.
    """
    if _GAP.fullmatch(text, a, b):
        return []
    lost = _ids(text, a, b)
    if lost:
        return [
            (
                bid,
                f"damaged JSON near character {a}: this bucket's events list cannot be found, so none of its events are read",
            )
            for bid in lost
        ]
    return [
        (
            before or "?",
            f"damaged JSON at characters {a}..{b}: text that belongs to no events list read",
        )
    ]


def _ids(text: str, a: int, b: int) -> list[str]:
    """Text span -> the bucket ids written in it (`"id": "..."`; event ids are numbers)."""
    out = []
    for m in _ID.finditer(text, a, b):
        try:
            out.append(json.loads(m.group(1)))
        except json.JSONDecodeError:
            continue
    return [i for i in out if isinstance(i, str)]


def _header(
    text: str, opener: int, floor: int
) -> tuple[int | None, dict[str, Any] | None, str | None]:
    """Text + offset of an `"events": [` + where to stop looking back -> (header start, header fields, bucket key).

    The header is the object the events array sits in, up to the array: the nearest object
    start before it whose text, closed with an empty events list, decodes.
    """
    low = max(floor, opener - _HEADER_SPAN)
    tries = 0
    at = text.rfind("{", low, opener)
    while at >= 0 and tries < _HEADER_TRIES:
        tries += 1
        try:
            meta = json.loads(text[at:opener] + '"events": []}')
        except (json.JSONDecodeError, RecursionError):
            at = text.rfind("{", low, at)
            continue
        if isinstance(meta, dict):
            meta.pop("events", None)
            return at, meta, _key_before(text, at, low)
        at = text.rfind("{", low, at)
    return None, None, _key_before(text, opener, low)


def _key_before(text: str, at: int, low: int) -> str | None:
    """Text + offset of a bucket object -> the key it is stored under (`"id": {`), or None."""
    m = _KEY_BEFORE.search(text, max(low, at - 1024), at)
    if m is None:
        return None
    try:
        key = json.loads(m.group(1))
    except json.JSONDecodeError:
        return None
    return key if isinstance(key, str) else None
