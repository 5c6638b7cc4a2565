"""The closed vocabularies of the data: event types, source kinds, memory kinds (no dependencies)."""

from __future__ import annotations

# Kinds of events a collector emits; sessionize groups the activity kinds.
EVENT_TYPES = ("visit", "window", "web", "afk", "note", "retain", "chat")
ACTIVITY_TYPES = ("visit", "window", "web", "chat")
SOURCE_KINDS = ("chrome", "firefox", "activitywatch", "notes", "chat")
FACT_KINDS = ("W", "B", "O", "S")
# Memory kinds: the fine-grained records a day is made of, then what was derived from them.
RECORD_KINDS = ("note", "chat", "session")
DERIVED_KINDS = (*FACT_KINDS, "digest")
MEMORY_KINDS = (*RECORD_KINDS, *DERIVED_KINDS)
