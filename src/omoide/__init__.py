"""omoide: a local-first digital twin built from your own activity traces."""

from __future__ import annotations

__version__ = "0.1.0"
