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
from omoide.embed import cache as embed_cache
from omoide.forget import purge
from omoide.forget.scan import Hit, scan_home, scan_store
from omoide.forget.select import Selection, Selector, select_records
from omoide.ingest.tombstones import (
    add_tombstones,
    domain_entry,
    record_entries,
    salt_of,
    term_entries,
    title_entries,
    url_entry,
)


def own_files(settings: Settings) -> list[Path]:
    """Settings -> the person's own files under the home: the sources omoide reads and omoide.toml (never edited, never scanned)."""
    mine = [s.path for s in settings.sources if s.path is not None]
    return [*mine, settings.home / "omoide.toml"]


def preview(settings: Settings, selector: Selector) -> tuple[Selection, dict[str, Any]]:
    """Settings + selector -> the selection and what a forget would take (nothing changes)."""
    selection = select_records(settings.lake_dir, selector)
    memories = set().union(*memories_of(settings, selection).values())
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
            selection.matcher,
            settings.home,
        ),
    }


def memories_of(settings: Settings, selection: Selection) -> dict[date, set[str]]:
    """Settings + selection -> per day, the memory rows made from it or quoting it; read once, before anything is removed."""
    if selection.memories is None:
        selection.memories = purge.forgotten_memories_by_day(settings.lake_dir, selection)
    return selection.memories


def days_to_remake(settings: Settings, selection: Selection) -> list[date]:
    """Settings + selection -> the days made again: the touched days, the days with a memory row quoting it,
    and the days whose vault page quotes it (a `Related Memories` link to a forgotten memory of another day)."""
    quoting = set(purge.pages_quoting(settings.vault_dir / "memory", selection.matcher))
    return sorted(set(selection.days) | quoting | set(memories_of(settings, selection)))


def take_back(settings: Settings, selector: Selector, selection: Selection) -> dict[str, int]:
    """Settings + selector + its selection -> tombstones recorded, records and what rests on them removed; counts per store."""
    now = datetime.now(UTC)
    salt = salt_of(settings.state_dir)
    entries = record_entries(salt, selection.events) if not selection.events.empty else []
    if selector.domain:
        entries.append(domain_entry(salt, selector.domain))
    if selector.url:
        entries.append(url_entry(salt, selector.url))
    if selector.domain or selector.url:
        # A forgotten site stays out: the window watcher's records of its pages carry no URL.
        what = selection.described
        entries += title_entries(salt, what.pages, what.sites)
    # What the forget was asked with, so an answer about it can say it was forgotten.
    entries += term_entries(salt, [t for t in (selector.match, selector.entity) if t])
    counts = {"tombstones added": add_tombstones(settings.state_dir, entries, now)}
    remake = days_to_remake(settings, selection)
    memories = memories_of(settings, selection)
    ids = set().union(*memories.values())
    counts |= purge.purge_lake(settings.lake_dir, selection, memories)
    counts["lancedb memories"] = purge.purge_memories(settings.lancedb_dir, ids)
    counts["opinions resting on them"] = purge.purge_opinions(
        settings.lancedb_dir, ids, selection.matcher
    )
    counts["Big Five evidence ids"] = purge.purge_profile_evidence(settings.lancedb_dir, ids)
    counts["quarantine entries"] = purge.purge_quarantine(settings.quarantine_dir, selection)
    counts["day marks cleared"] = purge.clear_day_marks(settings.day_marks_dir, remake)
    counts |= settle(settings, selection)
    return counts


def settle(settings: Settings, selection: Selection) -> dict[str, int]:
    """Settings + selection -> caches, stored results and log lines quoting it removed; counts."""
    return {
        # Vectors are keyed by a hash of their text, so no needle finds them: a vector of a
        # forgotten text is still derived from it, and the whole cache goes (it is rebuilt).
        "embedding cache vectors": embed_cache.clear(settings.cache_dir),
        "cache files": purge.purge_files(
            [settings.cache_dir, settings.prefect_home / "storage"], selection.matcher
        ),
        "log lines": purge.redact_logs(settings.home / "logs", selection.matcher),
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
