"""The daily flow's memory half (summarize → vault → embed → recall) under a real Prefect API."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import lancedb
import pytest

from omoide.core.kinds import DAY_KINDS, PERIOD_KINDS
from omoide.core.settings import get_settings
from omoide.profile.history import load_analyses
from omoide.sample import write_sample
from omoide.store.profile_table import open_profile_history
from omoide.vault.daily import memory_path
from tests import ollama_server
from tests.flows.test_daily import task_states

pytestmark = pytest.mark.usefixtures("prefect_harness")
LAST = date(2026, 11, 20)


@pytest.fixture
def sample_home(omoide_home: Path) -> Path:
    write_sample(omoide_home, days=1, end=LAST)
    return omoide_home


def _table(home: Path):
    return lancedb.connect(home / "lancedb").open_table("memories")


def _line(home: Path, source: str) -> str:
    """Citation 'path#Lnn' -> the text of that line (relative paths are under home)."""
    path, _, n = source.rpartition("#L")
    file = Path(path) if Path(path).is_absolute() else home / path
    return file.read_text(encoding="utf-8").splitlines()[int(n) - 1]


def test_daily_writes_vault_and_memories_that_recall_cites(sample_home: Path):
    from omoide.embed import get_embedder
    from omoide.flows.daily import daily
    from omoide.memory.recall import recall

    state = daily(day=LAST, return_state=True)
    assert state.is_completed(), state.message
    out = state.result()
    assert out["digest"]["produced_by"] == "embedded:extractive-digest-v3"
    vault = memory_path(sample_home / "vault", "2026-11-20")
    assert vault.exists() and "## Summary" in vault.read_text(encoding="utf-8")
    rows = _table(sample_home).to_pandas()
    assert {"note", "chat", "session", "digest", "W", "B", "O", "S"} <= set(rows["kind"])
    # The day's rows, and the reflection's one page each for its week and its month.
    assert out["memories"]["memories"] == rows["kind"].isin(DAY_KINDS).sum()
    assert sorted(rows.loc[rows["kind"].isin(PERIOD_KINDS), "kind"]) == ["month", "week"]

    settings = get_settings()
    emb = get_embedder(settings.embed, settings.llm.host)
    got = recall(
        _table(sample_home), emb, "which store is right for warelay", datetime.now(UTC), k=5
    )
    assert got and got[0].kind == "O" and "Lance" in got[0].content
    for r in got:
        line = _line(sample_home, r.source)
        # A note's memory starts with its heading path ("Friday, 20 November 2026 > Log: ").
        text = r.content.split(": ", 1)[1] if r.kind == "note" else r.content
        first_words = " ".join(text.split()[:3]).lstrip("- ")
        assert first_words.split(":")[0][:10] in line or r.kind == "chat", (r.source, line)
    session = rows[rows["kind"] == "session"].iloc[0]
    assert re.fullmatch(r"vault/memory/2026-11-20\.md#L\d+", session["source"])
    assert session["content"] in _line(sample_home, session["source"])


def test_rerunning_a_day_makes_no_llm_or_embedding_call_and_changes_no_row(sample_home: Path):
    from omoide.flows.daily import daily

    assert daily(day=LAST, return_state=True).is_completed()
    version = _table(sample_home).version
    before = _table(sample_home).to_pandas().sort_values("memory_id", ignore_index=True)
    vault_bytes = memory_path(sample_home / "vault", "2026-11-20").read_bytes()

    again = daily(day=LAST, return_state=True)
    states = task_states(again.state_details.flow_run_id)
    assert states[f"summarize-{LAST}"] == "Cached" and states[f"embed-{LAST}"] == "Cached"

    forced = daily(day=LAST, force=True, return_state=True)
    assert forced.is_completed()
    out = forced.result()
    assert (
        out["memories"]["embedded"] == 0
        and out["memories"]["unchanged"] == out["memories"]["memories"]
    )
    assert out["digest"]["llm_calls"] == 0
    assert _table(sample_home).version == version
    after = _table(sample_home).to_pandas().sort_values("memory_id", ignore_index=True)
    assert before.drop(columns=["vector"]).equals(after.drop(columns=["vector"]))
    assert memory_path(sample_home / "vault", "2026-11-20").read_bytes() == vault_bytes


def test_daily_with_ollama_summarizes_once_then_serves_the_cache(
    sample_home: Path, fake_ollama, monkeypatch
):
    from omoide.flows.daily import daily

    monkeypatch.setenv("OMOIDE_LLM__BACKEND", "ollama")
    monkeypatch.setenv("OMOIDE_LLM__HOST", fake_ollama.url)
    monkeypatch.setenv("OMOIDE_LLM__MODEL", ollama_server.CHAT_MODEL)
    state = daily(day=LAST, return_state=True)
    assert state.is_completed(), state.message
    out = state.result()
    assert out["digest"]["produced_by"] == f"ollama:{ollama_server.CHAT_MODEL}"
    chats = len(fake_ollama.bodies("/api/chat"))
    # the summarizer's map and reduce calls; the rest are reflect's (opinion judge, Big Five)
    assert chats >= 2 and 2 <= out["digest"]["llm_calls"] <= chats
    prompt = fake_ollama.bodies("/api/chat")[0]["messages"][1]["content"]
    assert "<untrusted_data>" in prompt
    text = memory_path(sample_home / "vault", "2026-11-20").read_text(encoding="utf-8")
    assert f"model: {ollama_server.CHAT_MODEL}" in text

    forced = daily(day=LAST, force=True, return_state=True)
    assert forced.is_completed()
    assert len(fake_ollama.bodies("/api/chat")) == chats  # every answer came from the cache


def test_switching_the_embedding_model_re_embeds_everything_cleanly(
    sample_home: Path, fake_ollama, monkeypatch
):
    from omoide.flows.daily import daily

    assert daily(day=LAST, return_state=True).is_completed()
    before = _table(sample_home).to_pandas()
    assert set(before["embed_model"]) == {"all-MiniLM-L6-v2-int8"}

    monkeypatch.setenv("OMOIDE_EMBED__BACKEND", "ollama")
    monkeypatch.setenv("OMOIDE_EMBED__MODEL", ollama_server.EMBED_MODEL)
    monkeypatch.setenv("OMOIDE_EMBED__HOST", fake_ollama.url)
    state = daily(day=LAST, return_state=True)
    assert state.is_completed(), state.message
    assert state.result()["memories"]["reembedded_all"] is True
    after = _table(sample_home).to_pandas()
    assert set(after["embed_model"]) == {ollama_server.EMBED_MODEL}  # never a mix
    assert sorted(after["memory_id"]) == sorted(before["memory_id"])
    assert {len(v) for v in after["vector"]} == {fake_ollama.dim}


def test_recall_flow_returns_cited_memories(sample_home: Path):
    from omoide.flows.daily import daily
    from omoide.flows.recall import recall_flow

    assert daily(day=LAST, return_state=True).is_completed()
    got = recall_flow(query="Peter platform team", k=3, kinds=["W", "note"], rehearse=False)
    assert 1 <= len(got) <= 3
    assert all(r["kind"] in {"W", "note"} and r["source"] for r in got)
    assert "Peter" in got[0]["content"]


def test_daily_reflects_into_bank_pages_and_the_weekly_flow_analyses(omoide_home: Path):
    from omoide.flows.backfill import backfill
    from omoide.flows.reflect import reflect_flow

    write_sample(omoide_home, days=3, end=LAST)
    state = backfill(start=date(2026, 11, 19), end=LAST, return_state=True)
    assert state.is_completed(), state.message
    bank = omoide_home / "vault" / "bank"
    for page in (
        "entities/peter.md",
        "entities/mina.md",
        "opinions.md",
        "profile.md",
        "profile-radar.png",
    ):
        assert (bank / page).exists(), page
    opinions = (bank / "opinions.md").read_text(encoding="utf-8")
    assert "Lance is the right store for warelay." in opinions and "#L" in opinions
    profile = (bank / "profile.md").read_text(encoding="utf-8")
    assert "Offline estimate" in profile and "rests on" in profile
    related = memory_path(omoide_home / "vault", "2026-11-20").read_text(encoding="utf-8")
    assert "<!-- omoide:related:begin -->" in related and "[[2026-11-19]]" in related
    week, month = _period_pages(omoide_home)
    assert _day_links(week) == _day_links(month) == ["2026-11-19", "2026-11-20"]
    assert "- [[2026-W47]] 16–22 November" in month.read_text(encoding="utf-8")

    from omoide.flows.daily import daily

    before = {p: p.read_bytes() for p in [*bank.rglob("*"), week, month] if p.is_file()}
    again = daily(day=LAST, return_state=True)
    assert again.is_completed() and again.result()["reflect"]["entity_pages_written"] == 0
    assert again.result()["reflect"]["period_pages_written"] == 0
    after = {p: p.read_bytes() for p in [*bank.rglob("*"), week, month] if p.is_file()}
    assert after == before  # idempotent

    # Over the same memories the weekly analysis is the backfill's (same inputs, same id) ...
    weekly = reflect_flow(end=LAST, days=7, return_state=True)
    assert weekly.is_completed(), weekly.message
    assert weekly.result()["analyses_added"] == []
    # ... and once an earlier day is added it analyses anew; no Ollama here, so the weekly
    # analysis is the offline estimate, over all three days; the history grows.
    assert daily(day=date(2026, 11, 18), return_state=True).is_completed()
    weekly = reflect_flow(end=LAST, days=7, return_state=True)
    assert weekly.is_completed(), weekly.message
    assert weekly.result()["analyses_added"] == ["offline"]
    analyses = load_analyses(open_profile_history(get_settings().lancedb_dir))
    assert [a.provenance["signals"]["active_days"] for a in analyses] == [2, 3]
    assert (bank / "profile.md").read_bytes() != before[bank / "profile.md"]
    # The new day rewrote its week and month; a backfill of the whole sample changes no byte.
    assert _day_links(week) == _day_links(month) == ["2026-11-18", "2026-11-19", "2026-11-20"]
    pages = {p: p.read_bytes() for p in (omoide_home / "vault" / "memory").rglob("*.md")}
    rows = _period_rows(omoide_home)
    assert sorted(r["kind"] for r in rows) == ["month", "week"]
    assert backfill(start=date(2026, 11, 18), end=LAST, return_state=True).is_completed()
    assert {p: p.read_bytes() for p in (omoide_home / "vault" / "memory").rglob("*.md")} == pages
    assert _period_rows(omoide_home) == rows


def _period_pages(home: Path) -> tuple[Path, Path]:
    """Home -> the sample's week and month pages (both must exist)."""
    week = home / "vault" / "memory" / "weekly" / "2026-W47.md"
    month = home / "vault" / "memory" / "monthly" / "2026-11.md"
    assert week.exists() and month.exists()
    return week, month


def _day_links(page: Path) -> list[str]:
    """A week or month page -> the days its `### Days` section links."""
    return re.findall(r"^- \[\[(\d{4}-\d{2}-\d{2})\]\]", page.read_text(encoding="utf-8"), re.M)


def _period_rows(home: Path) -> list[dict]:
    """Home -> the week and month rows of LanceDB (all but the vectors), in id order."""
    rows = _table(home).search().where("kind IN ('week', 'month')").limit(None).to_arrow()
    return sorted(rows.drop(["vector"]).to_pylist(), key=lambda r: r["memory_id"])
