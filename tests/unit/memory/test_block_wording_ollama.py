"""A block worded end to end through the real `ollama` client: map prompt, JSON answer, grounding, the day page."""

from __future__ import annotations

import json
import re

from omoide.core.settings import LLMSettings
from omoide.llm import ollama_llm
from omoide.memory.block_wording import worded
from omoide.memory.day_rows import digest_id, session_lines
from omoide.memory.summarize import summarize_day
from omoide.vault.daily import write_daily
from tests.ollama_server import CHAT_MODEL, Body, FakeOllama

from .conftest import DAY, TZ
from .test_block_wording import BLOCKS


def _map_answer(body: Body) -> str:
    """A map request -> bullets, a grounded label for the demo block and an invented one for the reading block."""
    prompt = body["messages"][1]["content"]
    shown = dict(
        (line, item)
        for item, line in re.findall(r"^\[(i\d+)\] \d\d:\d\d block: (.*)$", prompt, re.M)
    )
    demo = next(i for line, i in shown.items() if line.startswith("demo of the sync fix"))
    reading = next(i for line, i in shown.items() if line.startswith("reading about"))
    return json.dumps(
        {
            "bullets": [{"text": "The user demoed the warelay sync fix.", "items": [demo]}],
            "blocks": [
                {"item": demo, "label": "warelay sync fix demo with Mina"},
                {"item": reading, "label": "reading the Kyoto travel guide"},
            ],
        }
    )


def test_a_block_is_worded_by_the_model_and_the_page_carries_it(
    fake_ollama: FakeOllama, events, sessions, tmp_path
):
    llm = ollama_llm(LLMSettings(host=fake_ollama.url, model=CHAT_MODEL, retries=0))
    fake_ollama.reply(_map_answer, json.dumps({"summary": "The user demoed the sync fix."}))
    s = summarize_day(events, sessions, DAY, TZ, llm, chunk_tokens=4000, blocks=BLOCKS)
    map_body, _ = fake_ollama.bodies("/api/chat")
    assert "blocks" in map_body["format"]["properties"]  # the schema asks for the labels
    assert s.block_labels == {"b2": "warelay sync fix demo with Mina"}
    assert s.ungrounded == 1  # Kyoto is in no item of the reading block

    blocks = worded(BLOCKS, s.block_labels)
    page = write_daily(tmp_path, s, session_lines(sessions, TZ), digest_id(s.day), blocks=blocks)
    text = page.path.read_text(encoding="utf-8")
    assert "warelay sync fix demo with Mina and Peter" in text  # the block's people still named
    assert "reading about hybrid search" in text and "Kyoto" not in text
