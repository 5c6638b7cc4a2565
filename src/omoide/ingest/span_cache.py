"""A backfill's day keys kept between runs: a source's span fingerprints reused while its files are unchanged.

Keying a year of days reads every source once (a second or more per source at a year's
size), and a re-run of unchanged days does nothing else. A source whose files have the same
identity, size and times as when its span was keyed gives the same hashes, as git's index
trusts a file's stat data: kept under `cache/plan/` (each day's key, or a span's when its
keys depend on the span), reused while the files stay as they were. A file changed within
two seconds of being keyed is not trusted (a second write in the same clock tick leaves its
times as they were), nor are hashes that a later `now` could change (see
fingerprint.span_prints).
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

from omoide import __version__
from omoide.core.files import write_text_atomic
from omoide.core.ids import stable_id
from omoide.core.settings import SourceConfig
from omoide.ingest.fingerprint import DB_KINDS, FileEntry, file_entry, input_files, span_prints

# The folder under the home's cache where the keys are kept (an export carries it).
KEPT_DIR = "plan"
# Spans kept per source whose days' keys depend on the span (it holds rejects, fixes or
# records without a time, which count in every day's key).
KEPT_SPANS = 8
# A file written this recently may be written again with the same times: its hashes are not kept.
RACY_NS = 2_000_000_000


def planned_fingerprints(
    source: SourceConfig,
    days: Sequence[date],
    tz: str,
    now: datetime,
    folder: Path,
    salt: str,
) -> dict[date, str | None]:
    """Source + local days + the folder of kept keys + the collectors' version -> each day's
    records hash (fingerprint.span_prints), reused while the source's files are unchanged."""
    if source.url is not None or not days:
        return span_prints(source, days, tz, now)[0]
    taken = time.time_ns()
    before = source_state(source)
    state = stable_id("state", __version__, salt, source.model_dump_json(), tz, *before)
    path = folder / f"{stable_id('source', source.model_dump_json())}.json"
    kept = _read(path)
    if kept.get("state") != state:
        kept = {"state": state, "now": None, "days": {}, "spans": {}}
    span = stable_id("span", *days)
    reused = _reused(kept, span, days, now)
    if reused is not None:
        return reused
    prints, steady, spanless = span_prints(source, days, tz, now)
    settled = all(_times(e) < taken - RACY_NS for e in before)
    if steady and settled and None not in prints.values() and source_state(source) == before:
        found = {d.isoformat(): fp for d, fp in prints.items()}
        if spanless:
            # Each day's own records: its key in any span (a backfill's, then a longer re-run's).
            kept["days"].update(found)
        else:
            kept["spans"].pop(span, None)
            kept["spans"][span] = found
            for old in list(kept["spans"])[:-KEPT_SPANS]:
                del kept["spans"][old]
        if kept["now"] is None or now > datetime.fromisoformat(kept["now"]):
            kept["now"] = now.isoformat()
        write_text_atomic(json.dumps(kept), path)
    return prints


def _reused(
    kept: dict[str, Any], span: str, days: Sequence[date], now: datetime
) -> dict[date, str | None] | None:
    """Kept keys of unchanged files + a span + its days + now -> the days' keys when all are kept and hold at now, else None."""
    if kept["now"] is None or now < datetime.fromisoformat(kept["now"]):
        return None
    found = kept["spans"].get(span) or kept["days"]
    if isinstance(found, dict) and all(isinstance(found.get(d.isoformat()), str) for d in days):
        return {d: found[d.isoformat()] for d in days}
    return None


def source_state(source: SourceConfig) -> tuple[FileEntry, ...]:
    """Source -> (path, inode, size, modified, changed) of every file it can be read from.

    A browser database: the file and its journals (not the rest of the profile folder, which
    a running browser rewrites all the time). A folder: every visible entry under it, as the
    collectors walk it (hidden folders and files skipped, links to folders not entered).
    """
    path = source.path
    if path is None:
        return ()
    if source.kind in DB_KINDS or not path.is_dir():
        # A database's files are the same whatever the day.
        return tuple(file_entry(f) for f in input_files(source, date.min))
    found: list[Path] = []
    for parent, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [Path(parent, n) for n in (*dirs, *names) if not n.startswith(".")]
    return tuple(file_entry(f) for f in sorted(found))


def _times(entry: FileEntry) -> int:
    """A file's entry -> the later of its modified and changed times (0 when it could not be read)."""
    return max(entry[3:5], default=0)  # type: ignore[type-var]


def _read(path: Path) -> dict[str, Any]:
    """A kept-keys file -> what it holds; nothing when missing, unreadable or not shaped as written."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        datetime.fromisoformat(kept["now"]) if kept["now"] is not None else None
    except (OSError, ValueError, TypeError, KeyError):
        return {}
    shaped = isinstance(kept.get("days"), dict) and isinstance(kept.get("spans"), dict)
    return kept if shaped else {}
