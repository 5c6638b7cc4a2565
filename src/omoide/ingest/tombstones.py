"""Tombstones: keyed hashes of what a person forgot, so re-collecting a source cannot bring it back.

A tombstone never holds the forgotten text: each entry is a BLAKE2b hash keyed with this
home's own random salt (`state/forget.salt`), so the file says nothing a dictionary of
common domains or phrases could read back across homes. Three kinds:

- `record`: a record's `event_id` (itself a hash of source + native id), and
- `content`: the record's source kind, time and text, hashed together, so the same chat
  line or note entry is recognised even when the note above it was edited;
- `domain`: a host and all its subdomains, excluded for good (a forgotten domain stays so);
- `url`: a URL prefix (its length is kept beside the hash, to hash each URL's prefix);
- `title`: a forgotten page's title, and `site`: a forgotten domain's site name ("Just One
  Cookbook"), so a window-watcher record of that page or site, which carries no URL, stays out
  too (its title compared part by part, see `omoide.ingest.titles`);
- `term`: the words a forget was asked with (`--match`, `--entity`), so an answer about them can
  say they were forgotten (`omoide.answer.forgotten`); re-collection goes by the kinds above.

Each entry keeps when it was written (`at`), for the same answers.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pandas as pd

from omoide.core.files import private_dir, write_text_atomic
from omoide.ingest import titles
from omoide.ingest.sanitize import host_of

TOMBSTONES = "tombstones.jsonl"
SALT = "forget.salt"
KINDS = ("record", "content", "domain", "url", "title", "site", "term")


@dataclass(frozen=True)
class Tombstones:
    """The hashes a home keeps of what was forgotten, by kind (url: prefix length -> hashes)."""

    salt: bytes = b""
    records: frozenset[str] = frozenset()
    contents: frozenset[str] = frozenset()
    domains: frozenset[str] = frozenset()
    urls: dict[int, frozenset[str]] = field(default_factory=dict)
    titles: frozenset[str] = frozenset()
    sites: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(
            self.records or self.contents or self.domains or self.urls or self.titles or self.sites
        )


def keyed(salt: bytes, *parts: str) -> str:
    """Salt + text parts -> their keyed 32-hex hash (the parts never stored)."""
    h = hashlib.blake2b(key=salt, digest_size=16)
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") + b"\x1f")
    return h.hexdigest()


def salt_of(state_dir: Path) -> bytes:
    """State folder -> this home's tombstone salt, created on first use."""
    path = state_dir / SALT
    if not path.exists():
        private_dir(state_dir)
        write_text_atomic(secrets.token_hex(32), path)
    return bytes.fromhex(path.read_text(encoding="utf-8").strip())


def load_tombstones(state_dir: Path) -> Tombstones:
    """State folder -> its tombstones (none when nothing was ever forgotten)."""
    path = state_dir / TOMBSTONES
    if not path.exists():
        return Tombstones()
    by_kind: dict[str, set[str]] = {k: set() for k in KINDS}
    urls: dict[int, set[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        entry = json.loads(line)
        if entry["kind"] == "url":
            urls.setdefault(int(entry["length"]), set()).add(entry["hash"])
        else:
            by_kind[entry["kind"]].add(entry["hash"])
    return Tombstones(
        salt_of(state_dir),
        frozenset(by_kind["record"]),
        frozenset(by_kind["content"]),
        frozenset(by_kind["domain"]),
        {n: frozenset(h) for n, h in urls.items()},
        frozenset(by_kind["title"]),
        frozenset(by_kind["site"]),
    )


def tombstones_digest(state_dir: Path) -> str:
    """State folder -> a digest of its tombstones ('' when none), for cache keys."""
    path = state_dir / TOMBSTONES
    if not path.exists():
        return ""
    return hashlib.blake2b(path.read_bytes(), digest_size=16).hexdigest()


def record_entries(salt: bytes, events: pd.DataFrame) -> list[dict[str, object]]:
    """Events (lake rows) -> their `record` and `content` tombstone entries."""
    entries: list[dict[str, object]] = []
    for event_id, content in zip(events["event_id"], content_keys(salt, events), strict=True):
        entries.append({"kind": "record", "hash": event_id})
        entries.append({"kind": "content", "hash": content})
    return entries


def domain_entry(salt: bytes, domain: str) -> dict[str, object]:
    """Domain -> its tombstone entry (the domain and every subdomain stay excluded)."""
    return {"kind": "domain", "hash": keyed(salt, domain.strip().lower().strip("."))}


def url_entry(salt: bytes, prefix: str) -> dict[str, object]:
    """URL prefix -> its tombstone entry (the prefix's length kept to test URLs against it)."""
    return {"kind": "url", "hash": keyed(salt, prefix), "length": len(prefix)}


def title_entries(
    salt: bytes, pages: Iterable[str], sites: Iterable[str]
) -> list[dict[str, object]]:
    """Forgotten page titles + site names -> their tombstone entries (window titles naming them stay out)."""
    return [{"kind": "title", "hash": keyed(salt, titles.normal(t))} for t in pages] + [
        {"kind": "site", "hash": keyed(salt, titles.normal(s))} for s in sites
    ]


def term_entries(salt: bytes, terms: Iterable[str]) -> list[dict[str, object]]:
    """The words a forget was asked with -> their tombstone entries (compared as titles are)."""
    return [{"kind": "term", "hash": keyed(salt, titles.normal(t.lstrip("@")))} for t in terms]


def forgotten_at(state_dir: Path) -> dict[tuple[str, str], datetime]:
    """State folder -> (kind, hash) -> when it was forgotten (empty when nothing was)."""
    path = state_dir / TOMBSTONES
    if not path.exists():
        return {}
    out: dict[tuple[str, str], datetime] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and (entry := json.loads(line)).get("at"):
            out.setdefault((entry["kind"], entry["hash"]), datetime.fromisoformat(entry["at"]))
    return out


def add_tombstones(state_dir: Path, entries: Iterable[dict[str, object]], now: datetime) -> int:
    """State folder + entries -> the new ones appended (atomically rewritten); how many were new."""
    path = state_dir / TOMBSTONES
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    seen = {(e["kind"], e["hash"]) for e in map(json.loads, old.splitlines()) if e}
    lines = []
    for entry in entries:
        if (entry["kind"], entry["hash"]) in seen:
            continue
        seen.add((entry["kind"], entry["hash"]))
        lines.append(json.dumps({**entry, "at": now.isoformat(timespec="seconds")}))
    if lines:
        private_dir(state_dir)
        write_text_atomic(old + "".join(line + "\n" for line in lines), path)
    return len(lines)


def content_keys(salt: bytes, events: pd.DataFrame) -> list[str]:
    """Events -> one keyed hash per row of its source kind, time and text (what it says, when)."""
    stamps = pd.to_datetime(events["ts"], utc=True).dt.strftime("%Y-%m-%dT%H:%M:%S")
    parts = zip(
        events["source"].astype(str),
        stamps,
        *(events[c].fillna("").astype(str) for c in ("actor", "title", "url", "text")),
        strict=True,
    )
    return [keyed(salt, *p) for p in parts]


# A host named in a window title ("Kyoto - japan-guide.com - Chrome").
_HOSTLIKE = re.compile(r"(?<![\w.-])(?:[a-z0-9-]+\.)+[a-z]{2,}(?![\w-])", re.IGNORECASE)


def _host_hit(salt: bytes, host: str | None, domains: frozenset[str]) -> bool:
    """Host + domain hashes -> True when it or any parent domain is tombstoned."""
    if not host:
        return False
    labels = host.lower().split(".")
    return any(keyed(salt, ".".join(labels[i:])) in domains for i in range(len(labels)))


def _domain_hit(salt: bytes, url: str, domains: frozenset[str]) -> bool:
    """URL + domain hashes -> True when its host or any parent domain is tombstoned."""
    return _host_hit(salt, host_of(url), domains)


def _title_hit(salt: bytes, title: str, domains: frozenset[str]) -> bool:
    """Window title + domain hashes -> True when it names a tombstoned host."""
    return any(_host_hit(salt, m.group(0), domains) for m in _HOSTLIKE.finditer(title))


def forgotten_rows(events: pd.DataFrame, tombs: Tombstones) -> pd.Series:
    """Events + tombstones -> boolean mask of the rows that were forgotten."""
    if not tombs or events.empty:
        return pd.Series(False, index=events.index)
    hit = events["event_id"].isin(tombs.records)
    if tombs.contents:
        hit |= pd.Series(content_keys(tombs.salt, events), index=events.index).isin(tombs.contents)
    if tombs.domains or tombs.urls:
        verdicts: dict[str, bool] = {}
        for url in events["url"].dropna().unique().tolist():
            verdicts[url] = _domain_hit(tombs.salt, url, tombs.domains) or any(
                keyed(tombs.salt, url[:n]) in hashes
                for n, hashes in tombs.urls.items()
                if len(url) >= n
            )
        hit |= events["url"].map(verdicts).fillna(False).astype(bool)
    if tombs.domains:
        named = {
            t: _title_hit(tombs.salt, t, tombs.domains) for t in events["title"].dropna().unique()
        }
        hit |= events["title"].map(named).fillna(False).astype(bool)
    if tombs.titles or tombs.sites:
        hit |= _window_hits(events, tombs)
    return hit


def _window_hits(events: pd.DataFrame, tombs: Tombstones) -> pd.Series:
    """Events + title and site hashes -> the window-watcher rows whose title names a forgotten page or site."""
    window = events["event_type"].astype(str) == "window"
    verdicts = {
        t: any(keyed(tombs.salt, h) in tombs.titles for h in titles.heads(t))
        or any(keyed(tombs.salt, s) in tombs.sites for s in titles.segments(t))
        for t in events.loc[window, "title"].dropna().unique()
    }
    return window & events["title"].map(verdicts).fillna(False).astype(bool)
