"""The closed vocabularies of the data: event types, source kinds, memory kinds and types (no dependencies)."""

from __future__ import annotations

# Kinds of events a collector emits; sessionize groups the activity kinds.
EVENT_TYPES = ("visit", "window", "web", "afk", "note", "retain", "chat")
ACTIVITY_TYPES = ("visit", "window", "web", "chat")
# Chat exports people have (see omoide.ingest.sources.chat_export): their events are `chat`.
CHAT_EXPORT_KINDS = ("line", "chatgpt", "claude", "discord", "whatsapp", "telegram", "slack")
# Every source kind whose events are chat messages: omoide's own JSONL and the exports.
CHAT_SOURCE_KINDS = ("chat", *CHAT_EXPORT_KINDS)
# Conversations with an AI assistant: their titles are topics, not the people one talks to.
ASSISTANT_CHAT_KINDS = ("chatgpt", "claude")
SOURCE_KINDS = ("chrome", "firefox", "safari", "activitywatch", "notes", *CHAT_SOURCE_KINDS)
# The speaker an export marks as the user (ChatGPT's "user", Claude's "human") when
# `user_name` is not set; an AI's turns are spoken by "assistant".
OWN_SPEAKER = "me"
ASSISTANT_SPEAKER = "assistant"
# Speakers that are programs, not people: never a relationship, never someone one "heard" a
# thing from. Two ways a chat event says so, both kept in its `actor` (the lake, the memory
# rows' `heard_from` and their "speaker: text" lines carry it on, no column needed):
# - a name of this closed vocabulary (compared case-folded): the exports' AI turns are
#   spoken by ASSISTANT_SPEAKER; the others are what chat logs call a bot or the system;
# - the export's own marker: a speaker the export flags as a bot (DiscordChatExporter's
#   `author.isBot`, a chat JSONL line's `role` of BOT_ROLES) keeps its name with BOT_MARK
#   appended, as GitHub names its app accounts ("dependabot[bot]").
# A name in the `people` setting is a person even when it is in the vocabulary (a friend
# called Claude); a marked speaker is a bot whatever its name.
BOT_SPEAKERS = frozenset({ASSISTANT_SPEAKER, "chatgpt", "claude", "system", "bot"})
BOT_MARK = "[bot]"
BOT_ROLES = ("assistant", "bot", "system")


def is_bot(speaker: object) -> bool:
    """A speaker's name -> is it a program (the vocabulary, or the BOT_MARK an export set)?"""
    if not isinstance(speaker, str):
        return False
    name = speaker.strip().casefold()
    return name in BOT_SPEAKERS or name.endswith(BOT_MARK)


def bot_speaker(name: str) -> str:
    """A speaker an export flags as a bot -> its actor: the name with BOT_MARK, or "assistant" unnamed."""
    name = name.strip()
    if not name:
        return ASSISTANT_SPEAKER
    return name if is_bot(name) else f"{name} {BOT_MARK}"


# The relationship type of an entity that is not a person (a place, project, organisation,
# bot or the user): the `entities` table needs one (see omoide.reflect.relationships).
NO_RELATIONSHIP = "none"
FACT_KINDS = ("W", "B", "O", "S")
# Memory kinds: the fine-grained records a day is made of, then what was derived from them.
RECORD_KINDS = ("note", "chat", "session")
DERIVED_KINDS = (*FACT_KINDS, "digest")
# A promise, plan or to-do in the person's own messages and notes, one row each, citing the
# line it was said in (omoide.memory.commitment_rows; answered by omoide.answer.commitments).
COMMITMENT_KIND = "commitment"
# A stretch of the day a person would name (a meeting, coding on a project, planning a trip),
# one row each, its content the block's line (omoide.memory.blocks). It restates the sessions,
# notes and chat it groups, so nothing that counts sessions or records counts it; a day's
# replacement owns it like the records.
BLOCK_KIND = "block"
# What a day is made of: the kinds of a day's rows in lake/facts, which a day's replacement owns.
DAY_KINDS = (*RECORD_KINDS, *DERIVED_KINDS, COMMITMENT_KIND, BLOCK_KIND)
# Roll-ups of many days the reflection writes (omoide.reflect.periods): one row per week or
# month page, its `day` the period's first day. They restate their days, so no step that
# reads a person's memories counts them, and no day's replacement deletes them.
PERIOD_KINDS = ("week", "month")
MEMORY_KINDS = (*DAY_KINDS, *PERIOD_KINDS)
# How a memory is known (hybrid-memory design): lived or written by the user, told by
# someone (`heard_from` names them), or derived by a rule or a model (its `backend` and
# `confidence` say which and how sure).
MEMORY_TYPES = ("direct", "heard", "inferred")
# Backends of memories the user lived or wrote: the collectors' records and `## Retain` lines.
OWN_BACKENDS = ("collector", "user")


def backend_type(backend: object) -> str:
    """A memory's backend -> "direct" for the user's own records and retained lines, else "inferred"."""
    return "direct" if backend in OWN_BACKENDS else "inferred"
