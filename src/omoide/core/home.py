"""Environment -> OMOIDE_HOME: stdlib only, so a command can find its home before loading the settings."""

from __future__ import annotations

import os
from pathlib import Path


def home_from_env() -> Path:
    """Environment -> OMOIDE_HOME as an absolute path (default ./data)."""
    return Path(os.environ.get("OMOIDE_HOME", "data")).expanduser().resolve()
