"""The cascade: forgotten records -> removed from every store that holds them or what was made from them.

Lake rows go, and the touched days' sessions and memory rows (derived: the day is made
again from what is left); LanceDB rows, opinions that rest on them (replayed from the rest),
Big Five evidence ids; quarantine entries; caches, stored task results and log lines that
quote them. Each function returns how many it removed, for the receipt.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from datetime import date, timedelta
from pathlib import Path

from omoide.core import schemas
from omoide.core.files import write_parquet_atomic, write_text_atomic
from omoide.core.location import StorePath, size_under, write_parquet
from omoide.core.refs import to_ref
from omoide.forget.matcher import Matcher
from omoide.forget.scan import files_under
from omoide.forget.select import Selection
from omoide.reflect.opinions import load_opinions
from omoide.store.connect import connect_db
from omoide.store.day_marks import mark_path
from omoide.store.lake import part_path, partition, read_facts, read_part, stage_days
from omoide.store.memories import optimize, rebuild_text_index, sql_list
from omoide.store.opinions_table import open_opinions
from omoide.store.profile_table import drop_evidence
from omoide.vault.period_pages import period_pages

LOG_REMOVED = "[omoide forget: a line about something forgotten was removed]"


def forgotten_memories_by_day(lake_dir: StorePath, selection: Selection) -> dict[date, set[str]]:
    """Lake + selection -> per day, the ids of the memory rows made from a forgotten record or quoting a forgotten string.

    Every day's rows are read, not only the touched days': a row quoting a forgotten title
    elsewhere (a digest, a fact) goes too, and its day is made again.
    """
    refs = set(selection.events["source_ref"]) if not selection.events.empty else set()
    out: dict[date, set[str]] = {}
    for day in stage_days(lake_dir, "facts"):
        facts = read_facts(lake_dir, day)
        ids = {
            memory_id
            for memory_id, sources, content in zip(
                facts["memory_id"], facts["source_refs"], facts["content"], strict=True
            )
            if refs & set(sources if sources is not None else ())
            or selection.matcher.any_text([content])
        }
        if ids:
            out[day] = ids
    return out


def _sessions_holding(path: StorePath, refs: set[str]) -> int:
    """Sessions partition + forgotten record refs -> how many of its sessions were made from one."""
    sessions = read_part(path, schemas.SESSIONS)
    return int(
        sum(bool(refs & set(rs if rs is not None else ())) for rs in sessions["source_refs"])
    )


def purge_lake(
    lake_dir: StorePath, selection: Selection, memories: dict[date, set[str]]
) -> dict[str, int]:
    """Lake + selection + forgotten memory ids by day -> forgotten events removed; those days' sessions and memory rows dropped (made again).

    The counts are rows that held forgotten records: the sessions and memory rows made from
    them, not every row of a day that is made again.
    """
    gone = set(selection.events["event_id"]) if not selection.events.empty else set()
    refs = set(selection.events["source_ref"]) if not selection.events.empty else set()
    counts = {"lake events": 0, "lake sessions": 0, "lake memory rows": 0}
    for day in sorted(set(selection.days) | set(memories)):
        for path in sorted(partition(lake_dir, "events", day).glob("*.parquet")):
            events = read_part(path, schemas.EVENTS)
            drop = events["event_id"].isin(gone)
            if not drop.any():
                continue
            counts["lake events"] += int(drop.sum())
            kept = events.loc[~drop]
            if kept.empty:
                path.unlink()
            else:
                write_parquet(schemas.to_table(kept, schemas.EVENTS), path)
        sessions = part_path(lake_dir, "sessions", day, "sessions")
        if sessions.exists():
            counts["lake sessions"] += _sessions_holding(sessions, refs)
            sessions.unlink()
        facts = part_path(lake_dir, "facts", day, "facts")
        if facts.exists():
            counts["lake memory rows"] += len(memories.get(day, ()))
            facts.unlink()
        # A block's label and note quote the day's records; summarize makes them again.
        blocks = part_path(lake_dir, "blocks", day, "blocks")
        if blocks.exists():
            blocks.unlink()
    return counts


def purge_memories(db_dir: Path, ids: set[str]) -> int:
    """LanceDB folder + memory ids -> those rows deleted from the memories table; how many."""
    if not ids or not (db_dir / "memories.lance").exists():
        return 0
    table = connect_db(db_dir).open_table("memories")
    where = f"memory_id IN ({sql_list(sorted(ids))})"
    n = table.count_rows(where)
    if n:
        table.delete(where)
    return n


def purge_opinions(db_dir: Path, ids: set[str], matcher: Matcher) -> int:
    """LanceDB folder + forgotten memory ids -> every opinion cleared when one rests on them; how many rested.

    Opinions move by evidence in order, so one built partly on a forgotten memory cannot be
    mended in place: the table is emptied and the next full reflection replays the facts left.
    """
    if not (db_dir / "opinions.lance").exists():
        return 0
    table = open_opinions(db_dir)
    touched = [
        op
        for op in load_opinions(table)
        if ids & ({op.origin_id} | {h.memory_id for h in op.history})
        or matcher.any_text([op.statement, *op.entities])
    ]
    if touched:
        table.delete("true")
    return len(touched)


def purge_profile_evidence(db_dir: Path, ids: set[str]) -> int:
    """LanceDB folder + forgotten memory ids -> those ids taken out of every Big Five analysis' evidence; how many."""
    return drop_evidence(db_dir, ids.__contains__) if ids else 0


def purge_quarantine(q_dir: Path, selection: Selection) -> int:
    """Quarantine folder + selection -> entries of forgotten records, or quoting them, removed; how many."""
    refs = set(selection.events["source_ref"]) if not selection.events.empty else set()
    removed = 0
    for path in sorted(q_dir.rglob("*.parquet")) if q_dir.exists() else []:
        rows = read_part(path, schemas.QUARANTINE)
        drop = rows["ref"].isin(refs) | rows["excerpt"].map(
            lambda t: selection.matcher.any_text([t])
        ).astype(bool)
        if not drop.any():
            continue
        removed += int(drop.sum())
        kept = rows.loc[~drop]
        if kept.empty:
            path.unlink()
        else:
            write_parquet_atomic(schemas.to_table(kept, schemas.QUARANTINE), path)
    return removed


def _holds(path: Path, matcher: Matcher) -> bool:
    """File + matcher -> True when its bytes (any case) hold a needle."""
    try:
        return bool(matcher.in_bytes(path.read_bytes()))
    except OSError:
        return False


def purge_files(folders: Sequence[Path], matcher: Matcher) -> int:
    """Cache folders (LLM answers, profile, stored task results) + matcher -> files quoting a needle deleted; how many.

    They are caches: what is deleted is recomputed, from what is left, when next needed.
    """
    removed = 0
    for folder in folders:
        if not folder.exists():
            continue
        for path in files_under(folder, ()):
            if _holds(path, matcher):
                path.unlink()
                removed += 1
    return removed


def redact_logs(logs_dir: Path, matcher: Matcher) -> int:
    """Log folder + matcher -> every line quoting a needle replaced by a notice; how many lines."""
    replaced = 0
    for path in files_under(logs_dir, ()) if logs_dir.exists() else []:
        if not _holds(path, matcher):
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        out = []
        for line in lines:
            if matcher.in_bytes(line.encode("utf-8")):
                out.append(LOG_REMOVED + "\n")
                replaced += 1
            else:
                out.append(line)
        write_text_atomic("".join(out), path)
    return replaced


def pages_quoting(memory_dir: Path, matcher: Matcher) -> list[date]:
    """Vault `memory/` folder + matcher -> the days whose page quotes a needle, and a day of each week or month page that does.

    Making one day of a period again rewrites that period's pages (the reflection rewrites
    the weeks and months of the days it is given), so one day with a page is enough.
    """
    days = set()
    for path in sorted(memory_dir.glob("*.md")) if memory_dir.exists() else []:
        try:
            day = date.fromisoformat(path.stem)
        except ValueError:
            continue
        if _holds(path, matcher):
            days.add(day)
    for period, path in period_pages(memory_dir.parent):
        if _holds(path, matcher):
            with_page = [d for d in period.days() if (memory_dir / f"{d}.md").exists()]
            days.update(with_page[:1])
    return sorted(days)


def clear_day_marks(marks_dir: Path, days: Sequence[date]) -> int:
    """Day-marks folder + days -> their marks removed (a backfill must make them again); how many."""
    removed = 0
    for day in days:
        path = mark_path(marks_dir, day)
        if path.exists():
            path.unlink()
            removed += 1
    return removed


def compact_tables(db_dir: StorePath) -> int:
    """LanceDB folder -> every table compacted, its text index rebuilt, old versions deleted; bytes freed.

    Deleting a row only marks it: its bytes stay in the data files, the old versions and the
    full-text index until the table is rewritten and the versions before it are removed. A
    delete's predicate is kept in its version's manifest (an entity's slug is its name), so the
    small tables are rewritten whole, leaving a latest version that records no predicate.
    """
    if not db_dir.exists():
        return 0
    db = connect_db(db_dir)
    before = size_under(db_dir)
    for name in db.list_tables().tables:
        table = db.open_table(name)
        if name == "memories":
            rebuild_text_index(table)
        else:
            table = db.create_table(
                name, data=table.to_arrow(), schema=table.schema, mode="overwrite"
            )
        with warnings.catch_warnings():
            # It warns that readers of older versions fail: the writer lock is held, and a
            # reader (the MCP server) opens the table again on its next question.
            warnings.simplefilter("ignore", UserWarning)
            # The memories table's vector index is trained on the rows kept after it; the
            # version before that training goes at the next prune.
            optimize(table, cleanup_older_than=timedelta(0), delete_unverified=True)
    return max(0, before - size_under(db_dir))


def note_mentions(sources: Sequence[Path], matcher: Matcher, home: Path) -> list[str]:
    """The person's own text files (notes, chats) + needles -> `path#Lnn` of each line still quoting one.

    omoide never edits them; the person decides.
    """
    found = []
    for root in sources:
        files = [root] if root.is_file() else sorted(root.rglob("*")) if root.is_dir() else []
        for path in files:
            if (
                path.suffix not in (".md", ".markdown", ".txt", ".jsonl", ".json")
                or not path.is_file()
            ):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for n, line in enumerate(text.splitlines(), start=1):
                if matcher.in_text(line):
                    found.append(to_ref(f"{path}#L{n}", home))
    return found
