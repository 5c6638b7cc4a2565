"""One LanceDB writer at a time within a process, whatever thread it runs on."""

from __future__ import annotations

import threading

# A backfill works on several days side by side; their table writes (and the repair that
# reads the tables' keys to find a race's duplicates) must not interleave, or a repair could
# take another day's half-landed rows for duplicates. Embedding happens under it too: it
# already keeps every core busy, so nothing is lost by running it one day at a time.
LANCEDB_WRITES = threading.Lock()
