"""What a memory's vector is computed from: its content, less what only places it in time."""

from __future__ import annotations

import re

# A session line reads "08:55–09:05 github.com (10 min): titles". The span and the duration
# say when, which recall's time filters and decay already know from the row's timestamps;
# left in, they make the same page on another day (or at another minute) a new text to embed
# and pull vectors of unrelated sessions at the same hour together.
_SESSION_WHEN = re.compile(r"^\d{2}:\d{2}–\d{2}:\d{2} (\S+) \(\d+ min\)")
TEXT_VERSION = "2"  # bump when what is embedded changes: stored rows then get new vectors


def embedding_text(kind: str, content: str) -> str:
    """Memory kind + content -> the text handed to the embedding model."""
    if kind == "session":
        return _SESSION_WHEN.sub(r"\1", content, count=1)
    return content
