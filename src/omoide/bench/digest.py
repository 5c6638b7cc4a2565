"""`omoide bench digest`: the sample month backfilled once, its pages read as a person reads them -> blocks, highlights, facts and relations against the sample's script.

The home is built as `omoide bench ask` builds it (`omoide.bench.ask.month_home`, its own
cache folder, default ~/.cache/omoide-bench/digest). What is scored:
- `block_precision`, `block_recall`: the lake's activity blocks against the script's planned
  activities (omoide.bench.digest_blocks);
- `title_highlights`: highlights on day, week and month pages that are a window title the lake
  holds (a session's title), which a highlight never is;
- `repeated_facts`: a sentence listed more than once in an entity page's Facts or Was;
- `relations_right`: the share of the script's people whose page states exactly their relations.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

from omoide.bench.ask import SCRIPT, month_home
from omoide.bench.digest_blocks import block_scores
from omoide.memory.window_titles import is_title, norm_title, title_set

_HEADING = re.compile(r"^#{1,6}\s")
# A page line's cited tail: "— from `ref`", "— [notes…](…)", "([[day#…]] · `ref`)", "<!-- memory:… -->".
_TAIL = re.compile(r"\s*(?:—\s*(?:from\s|\[).*|\(\[\[.*|<!--.*)$")
_QUOTED = re.compile(r"“([^”]+)”")
_RELATION_WORDS = ("colleague", "friend", "family", "other")


def section_items(path: Path, heading: str) -> list[str]:
    """A Markdown page + a heading's words -> the text of each list item under that heading, tails cut."""
    out: list[str] = []
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if _HEADING.match(line):
            inside = heading.casefold() in line.casefold()
            continue
        if inside and line.startswith("- "):
            out.append(_TAIL.sub("", line[2:]).strip())
    return out


def page_highlights(vault: Path) -> list[tuple[str, str]]:
    """Vault folder -> (page, highlight text) of every day, week and month page."""
    pages = sorted((vault / "memory").rglob("*.md"))
    return [
        (p.relative_to(vault).as_posix(), h) for p in pages for h in section_items(p, "Highlights")
    ]


def window_titles(lake: Path, days: list[date]) -> frozenset[str]:
    """Lake folder + days -> every window and page title its sessions hold, normalised."""
    from omoide.store.lake import read_sessions

    return title_set(t for day in days for t in read_sessions(lake, day)["titles"])


def repeated_facts(entities_dir: Path) -> dict[str, int]:
    """Entity pages folder -> per page, how many Facts or Was lines restate a sentence listed above them in their section."""
    out: dict[str, int] = {}
    for page in sorted(entities_dir.glob("*.md")):
        extra = 0
        for section in ("Facts", "Was"):
            # A Was line quotes what replaced it first and the fact it was last.
            said = [
                norm_title((_QUOTED.findall(item) or [item])[-1])
                for item in section_items(page, section)
            ]
            extra += sum(n - 1 for n in Counter(said).values() if n > 1)
        if extra:
            out[page.stem] = extra
    return out


def stated_relations(page: Path) -> set[str]:
    """An entity page -> the relations its `Relationship:` statement names."""
    text = page.read_text(encoding="utf-8")
    m = re.search(r"Relationships?:\s*([^.\n(]+)", text)
    if m is None:
        return set()
    return {w for w in _RELATION_WORDS if re.search(rf"\b{w}s?\b", m.group(1).casefold())}


def relations_scores(entities_dir: Path, people: dict[str, list[str]]) -> dict[str, Any]:
    """Entity pages folder + the script's people and their relations -> the share stated exactly, and each."""
    each = {}
    for name, truth in people.items():
        page = entities_dir / f"{name.casefold()}.md"
        stated = stated_relations(page) if page.is_file() else set()
        each[name] = {
            "truth": sorted(truth),
            "stated": sorted(stated),
            "right": stated == set(truth),
        }
    right = sum(v["right"] for v in each.values())
    return {"relations_right": round(right / len(each), 3) if each else None, "relations": each}


def lake_blocks(lake: Path, days: list[date]) -> dict[str, list[dict[str, Any]]]:
    """Lake folder + days -> per day, its blocks as dicts (start, end, kind, label, topic, note)."""
    from omoide.store.lake import read_blocks

    cols = ["start", "end", "kind", "label", "topic", "note"]
    return {d.isoformat(): read_blocks(lake, d)[cols].to_dict("records") for d in days}


def score_home(home: Path, script: dict[str, Any]) -> dict[str, Any]:
    """A backfilled sample home + its script -> its pages scored (the bench's JSON keys and their detail)."""
    vault, lake = home / "vault", home / "lake"
    day_list = sorted(date.fromisoformat(p.stem) for p in (vault / "memory").glob("*.md"))
    titles = window_titles(lake, day_list)
    highlights = page_highlights(vault)
    as_titles = [
        {"page": p, "text": h}
        for p, h in highlights
        if is_title(h.removeprefix("Decision:"), titles)
    ]
    repeated = repeated_facts(vault / "bank" / "entities")
    people = {p["name"]: p["relations"] for p in script.get("people", [])}
    relations = relations_scores(vault / "bank" / "entities", people)
    blocks = block_scores(script, lake_blocks(lake, day_list))
    return {
        "block_precision": blocks["block_precision"],
        "block_recall": blocks["block_recall"],
        "title_highlights": len(as_titles),
        "repeated_facts": sum(repeated.values()),
        "relations_right": relations["relations_right"],
        "days": len(day_list),
        "highlights": len(highlights),
        "detail": {
            "blocks": blocks,
            "title_highlights": as_titles,
            "repeated_facts": repeated,
            "relations": relations["relations"],
        },
    }


def run_digest_bench(
    days: int = 30, volume: float = 1.0, cache_dir: Path | None = None, home: Path | None = None
) -> dict[str, Any]:
    """The sample's days and volume (+ a cache folder, or a home already backfilled) -> its pages scored against its script."""
    from omoide.bench.mcp import default_cache_dir

    began = time.perf_counter()
    built_s = None
    if home is None:
        cache = (cache_dir or default_cache_dir() / "digest").expanduser().resolve()
        home, built_s = month_home(cache, days, volume)
    script = json.loads((home / SCRIPT).read_text(encoding="utf-8"))
    return {
        **score_home(home, script),
        "volume": volume,
        "home": str(home),
        "built_s": None if built_s is None else round(built_s, 1),
        "seconds": round(time.perf_counter() - began, 1),
    }
