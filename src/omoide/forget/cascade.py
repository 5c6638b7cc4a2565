"""A forget from start to proof, less the re-making of the touched days (a flow, run by the CLI between).

`preview` says what would go; `take_back` records the tombstones and removes the records and
what rests on them; `settle` clears what the re-made days may have left behind and compacts
LanceDB; `receipt_scan` is the proof. The CLI runs the touched days again in between.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from omoide.core.kinds import CHAT_SOURCE_KINDS
from omoide.core.location import Remote
from omoide.core.settings import Settings
from omoide.forget import purge
from omoide.forget.scan import Hit, scan_home, scan_store
from omoide.forget.select import Selection, Selector, select_records
from omoide.ingest.tombstones import (
    add_tombstones,
    domain_entry,
    record_entries,
    salt_of,
    url_entry,
)


def own_files(settings: Settings) -> list[Path]:
    """Settings -> the person's own files under the home: the sources omoide reads and omoide.toml (never edited, never scanned)."""
    mine = [s.path for s in settings.sources if s.path is not None]
    return [*mine, settings.home / "omoide.toml"]


def preview(settings: Settings, selector: Selector) -> tuple[Selection, dict[str, Any]]:
    """Settings + selector -> the selection and what a forget would take (nothing changes)."""
    selection = select_records(settings.lake_dir, selector)
    memories = purge.forgotten_memories(settings.lake_dir, selection)
    events = selection.events
    by_source = Counter(events["source_name"]) if not events.empty else Counter()
    return selection, {
        "records": len(events),
        "by_source": dict(sorted(by_source.items())),
        "days": [d.isoformat() for d in selection.days],
        "memory_rows": len(memories),
        "strings_checked": len(selection.needles),
        "still_in_your_files": purge.note_mentions(
            [
                s.path
                for s in settings.sources
                if s.path is not None and s.kind in ("notes", *CHAT_SOURCE_KINDS)
            ],
            selection.needles,
            settings.home,
        ),
    }


def days_to_remake(settings: Settings, selection: Selection) -> list[date]:
    """Settings + selection -> the touched days, and the days whose vault page quotes a forgotten string
    (a `Related Memories` link to a forgotten memory of another day): each is made again."""
    quoting = set(purge.pages_quoting(settings.vault_dir / "memory", selection.needles))
    return sorted(set(selection.days) | quoting)


def take_back(settings: Settings, selector: Selector, selection: Selection) -> dict[str, int]:
    """Settings + selector + its selection -> tombstones recorded, records and what rests on them removed; counts per store."""
    now = datetime.now(UTC)
    salt = salt_of(settings.state_dir)
    entries = record_entries(salt, selection.events) if not selection.events.empty else []
    if selector.domain:
        entries.append(domain_entry(salt, selector.domain))
    if selector.url:
        entries.append(url_entry(salt, selector.url))
    counts = {"tombstones added": add_tombstones(settings.state_dir, entries, now)}
    ids = purge.forgotten_memories(settings.lake_dir, selection)
    counts |= purge.purge_lake(settings.lake_dir, selection)
    counts["lancedb memories"] = purge.purge_memories(settings.lancedb_dir, ids)
    counts["opinions resting on them"] = purge.purge_opinions(
        settings.lancedb_dir, ids, selection.needles
    )
    counts["Big Five evidence ids"] = purge.purge_profile_evidence(settings.lancedb_dir, ids)
    counts["quarantine entries"] = purge.purge_quarantine(settings.quarantine_dir, selection)
    counts["day marks cleared"] = purge.clear_day_marks(
        settings.day_marks_dir, days_to_remake(settings, selection)
    )
    counts |= settle(settings, selection)
    return counts


def settle(settings: Settings, selection: Selection) -> dict[str, int]:
    """Settings + selection -> caches, stored results and log lines quoting it removed; counts."""
    return {
        "cache files": purge.purge_files(
            [settings.cache_dir, settings.prefect_home / "storage"], selection.needles
        ),
        "log lines": purge.redact_logs(settings.home / "logs", selection.needles),
    }


def compact(settings: Settings) -> dict[str, int]:
    """Settings -> LanceDB compacted and its old versions deleted; bytes freed."""
    return {"lancedb bytes freed": purge.compact_tables(settings.lancedb_dir)}


def receipt_scan(settings: Settings, selection: Selection) -> list[Hit]:
    """Settings + selection -> every file under the home (but the person's own) and the store still holding a forgotten string."""
    hits = scan_home(settings.home, selection.needles, own_files(settings))
    root = settings.storage_root
    if isinstance(root, Remote):
        hits += scan_store(root, selection.needles)
    elif not root.is_relative_to(settings.home):
        hits += scan_home(root, selection.needles)
    return hits
