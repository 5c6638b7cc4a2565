"""LoCoMo retrieval benchmark: each conversation through the daily pipeline's library stages, then recall.

Per conversation: its turns are written as a chat JSONL (the real chat source format,
one message per turn, at its session's date and time), and every session day goes through
collect → sanitize → sessionize → summarize (the embedded digest) → vault → memory rows →
LanceDB, into a fresh store. Every question is then asked through `recall`; a retrieved
memory covers the dia_ids of the chat lines it cites in `source_refs` (a chat memory its
own turn only, although its text carries its neighbours; a digest the turns it quotes).
The score is LoCoMo's `recall_acc`: per question, the share of its evidence dia_ids
covered by the top k, averaged; questions without evidence count 1.0.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

from omoide.bench.pipeline import build_table
from omoide.core.settings import SourceConfig
from omoide.embed.base import Embedder
from omoide.memory.recall import recall

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
TZ = "UTC"
TURN_SPACING_S = 30  # LoCoMo and LongMemEval give a session's start only; turns are spaced in order
_EVIDENCE_SPLIT = re.compile(r"[;, ]+")
_DIA = re.compile(r"^D:?(\d+):0*(\d+)$")


@dataclass(frozen=True)
class Conversation:
    """One LoCoMo sample as chat lines, their dia_ids, and its questions."""

    sample_id: str
    lines: list[dict[str, Any]]  # chat JSONL records in file order
    dia_ids: list[str]  # dia_id of each line (line n is dia_ids[n - 1])
    questions: list[dict[str, Any]]


def parse_session_time(text: str) -> datetime:
    """LoCoMo "1:56 pm on 8 May, 2023" -> aware UTC datetime."""
    return datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)


def normalise_dia(raw: str) -> str | None:
    """An evidence string piece ("D8:6", "D:11:26", "D30:05") -> "D8:6", or None if not one."""
    m = _DIA.match(raw.strip())
    return f"D{int(m.group(1))}:{int(m.group(2))}" if m else None


def evidence_ids(evidence: Sequence[str]) -> set[str]:
    """A question's evidence list (some entries malformed or joined) -> normalised dia_ids."""
    out = set()
    for item in evidence:
        for piece in _EVIDENCE_SPLIT.split(str(item)):
            dia = normalise_dia(piece) if piece else None
            if dia:
                out.add(dia)
    return out


def conversation(sample: dict[str, Any]) -> Conversation:
    """A LoCoMo sample -> its turns as chat records (speaker, text, ts) with dia_ids."""
    conv = sample["conversation"]
    numbers = sorted(
        int(k.split("_")[1]) for k in conv if re.fullmatch(r"session_\d+", k) and conv[k]
    )
    lines, dias = [], []
    for n in numbers:
        said = []
        for turn in conv[f"session_{n}"]:
            text = str(turn.get("text", "")).strip()
            if turn.get("blip_caption"):
                text += f" [shares a photo: {turn['blip_caption']}]"
            said.append((str(turn["speaker"]), text))
            dias.append(normalise_dia(str(turn["dia_id"])) or str(turn["dia_id"]))
        start = parse_session_time(conv[f"session_{n}_date_time"])
        lines += chat_lines(start, said, str(sample["sample_id"]))
    return Conversation(str(sample["sample_id"]), lines, dias, list(sample.get("qa", [])))


def chat_lines(
    start: datetime, turns: Sequence[tuple[str, str]], conversation: str
) -> list[dict[str, Any]]:
    """A session's start + its (speaker, text) turns -> chat JSONL records, TURN_SPACING_S apart."""
    return [
        {
            "ts": (start + timedelta(seconds=TURN_SPACING_S * i)).isoformat(),
            "speaker": speaker,
            "text": text or "(no text)",
            "conversation": conversation,
        }
        for i, (speaker, text) in enumerate(turns)
    ]


def ingest(conv: Conversation, home: Path, embedder: Embedder, now: datetime) -> Any:
    """Conversation -> a fresh LanceDB memories table built by the daily pipeline's stages."""
    chat = home / "chat.jsonl"
    chat.write_text("\n".join(json.dumps(x) for x in conv.lines) + "\n", encoding="utf-8")
    source = SourceConfig(kind="chat", path=chat, name="chat")
    days = sorted({datetime.fromisoformat(x["ts"]).date() for x in conv.lines})
    return build_table(source, days, home, embedder, now, TZ)


def covered(refs: Sequence[str], chat_path: str, dia_ids: Sequence[str]) -> set[str]:
    """A memory's source_refs -> the dia_ids of the chat lines among them."""
    out = set()
    for ref in refs:
        path, _, line = ref.rpartition("#L")
        if path == chat_path and line.isdigit() and 0 < int(line) <= len(dia_ids):
            out.add(dia_ids[int(line) - 1])
    return out


def run_locomo(
    data: Path,
    ks: Sequence[int] = (5, 10, 25),
    embedder: Embedder | None = None,
    decay_lambda: float = 0.05,
    limit: int | None = None,
) -> dict[str, Any]:
    """LoCoMo JSON file -> recall_acc (percent) per k and category, with mean words per result set."""
    from omoide.embed.minilm import MiniLMEmbedder

    emb = embedder or MiniLMEmbedder()
    samples = json.loads(data.read_text(encoding="utf-8"))[:limit]
    kmax = max(ks)
    scores: dict[int, dict[str, list[float]]] = {k: defaultdict(list) for k in ks}
    words: dict[int, list[int]] = {k: [] for k in ks}
    budget_hits: list[float] = []
    n_questions = 0
    for sample in samples:
        conv = conversation(sample)
        now = asked_at(conv)
        with tempfile.TemporaryDirectory(prefix="omoide-locomo-") as tmp:
            home = Path(tmp)
            table = ingest(conv, home, emb, now)
            chat_path = str((home / "chat.jsonl").resolve())
            for qa in conv.questions:
                n_questions += 1
                gold = evidence_ids(qa.get("evidence") or [])
                got = recall(
                    table,
                    emb,
                    str(qa["question"]),
                    now,
                    k=kmax,
                    decay_lambda=decay_lambda,
                    rehearse=False,
                )
                cat = CATEGORIES.get(int(qa.get("category", 0)), "other")
                for k in ks:
                    acc = evidence_found(got[:k], gold, chat_path, conv.dia_ids)
                    scores[k][cat].append(acc)
                    scores[k]["overall"].append(acc)
                    words[k].append(sum(len(r.content.split()) for r in got[:k]))
                budget_hits.append(_within_words(got, gold, chat_path, conv.dia_ids, 1000))
    return {
        "recall_at": {
            str(k): {cat: round(100 * float(np.mean(v)), 1) for cat, v in sorted(scores[k].items())}
            for k in ks
        },
        "mean_words": {str(k): round(float(np.mean(words[k])), 1) for k in ks},
        "recall_within_1000_words": round(100 * float(np.mean(budget_hits)), 1),
        "questions": n_questions,
        "embed_model": emb.model,
        "decay_lambda": decay_lambda,
    }


def evidence_found(
    got: Sequence[Any], gold: set[str], chat_path: str, dia_ids: Sequence[str]
) -> float:
    """Recalled results + the gold turn ids -> share of the evidence their refs cite (1.0 without gold)."""
    seen = set().union(*(covered(r.source_refs, chat_path, dia_ids) for r in got))
    return 1.0 if not gold else len(gold & seen) / len(gold)


def asked_at(conv: Conversation) -> datetime:
    """A conversation -> the time its questions are asked at: a day after its last line."""
    return max(datetime.fromisoformat(x["ts"]) for x in conv.lines) + timedelta(days=1)


def _within_words(
    got: Sequence[Any], gold: set[str], chat: str, dias: Sequence[str], limit: int
) -> float:
    """Ranked results -> share of the evidence found in the first `limit` words of them."""
    if not gold:
        return 1.0
    seen: set[str] = set()
    used = 0
    for r in got:
        used += len(r.content.split())
        if used > limit:
            break
        seen |= covered(r.source_refs, chat, dias)
    return len(gold & seen) / len(gold)
