"""The closed vocabularies of the data: event types, source kinds, memory kinds and types (no dependencies)."""

from __future__ import annotations

# Kinds of events a collector emits; sessionize groups the activity kinds.
EVENT_TYPES = ("visit", "window", "web", "afk", "note", "retain", "chat")
ACTIVITY_TYPES = ("visit", "window", "web", "chat")
# Chat exports people have (see omoide.ingest.sources.chat_export): their events are `chat`.
CHAT_EXPORT_KINDS = ("line", "chatgpt", "claude", "discord")
# Every source kind whose events are chat messages: omoide's own JSONL and the exports.
CHAT_SOURCE_KINDS = ("chat", *CHAT_EXPORT_KINDS)
# Conversations with an AI assistant: their titles are topics, not the people one talks to.
ASSISTANT_CHAT_KINDS = ("chatgpt", "claude")
SOURCE_KINDS = ("chrome", "firefox", "activitywatch", "notes", *CHAT_SOURCE_KINDS)
# The speaker an export marks as the user (ChatGPT's "user", Claude's "human") when
# `user_name` is not set; an AI's turns are spoken by "assistant".
OWN_SPEAKER = "me"
ASSISTANT_SPEAKER = "assistant"
FACT_KINDS = ("W", "B", "O", "S")
# Memory kinds: the fine-grained records a day is made of, then what was derived from them.
RECORD_KINDS = ("note", "chat", "session")
DERIVED_KINDS = (*FACT_KINDS, "digest")
MEMORY_KINDS = (*RECORD_KINDS, *DERIVED_KINDS)
# How a memory is known (hybrid-memory design): lived or written by the user, told by
# someone (`heard_from` names them), or derived by a rule or a model (its `backend` and
# `confidence` say which and how sure).
MEMORY_TYPES = ("direct", "heard", "inferred")
# Backends of memories the user lived or wrote: the collectors' records and `## Retain` lines.
OWN_BACKENDS = ("collector", "user")


def backend_type(backend: object) -> str:
    """A memory's backend -> "direct" for the user's own records and retained lines, else "inferred"."""
    return "direct" if backend in OWN_BACKENDS else "inferred"
