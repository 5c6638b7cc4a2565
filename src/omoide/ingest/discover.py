"""Find the browser profiles and ActivityWatch of this machine, for `omoide init` and `doctor`."""

from __future__ import annotations

import sys
from pathlib import Path

# Why a found Safari history may still be unreadable (macOS guards ~/Library/Safari).
SAFARI_ACCESS = "the app that runs omoide needs Full Disk Access to read Safari's history"
# (kind, path relative to the home directory) per platform; globs allowed.
_CANDIDATES: dict[str, list[tuple[str, str]]] = {
    "linux": [
        ("chrome", ".config/google-chrome/*/History"),
        ("chrome", ".config/chromium/*/History"),
        ("chrome", ".config/microsoft-edge/*/History"),
        ("chrome", ".config/BraveSoftware/Brave-Browser/*/History"),
        ("firefox", ".mozilla/firefox/*/places.sqlite"),
        ("firefox", "snap/firefox/common/.mozilla/firefox/*/places.sqlite"),
    ],
    "darwin": [
        ("chrome", "Library/Application Support/Google/Chrome/*/History"),
        ("chrome", "Library/Application Support/Chromium/*/History"),
        ("chrome", "Library/Application Support/Microsoft Edge/*/History"),
        ("chrome", "Library/Application Support/BraveSoftware/Brave-Browser/*/History"),
        ("firefox", "Library/Application Support/Firefox/Profiles/*/places.sqlite"),
        ("safari", "Library/Safari/History.db"),
    ],
    "win32": [
        ("chrome", "AppData/Local/Google/Chrome/User Data/*/History"),
        ("chrome", "AppData/Local/Microsoft/Edge/User Data/*/History"),
        ("chrome", "AppData/Local/BraveSoftware/Brave-Browser/User Data/*/History"),
        ("firefox", "AppData/Roaming/Mozilla/Firefox/Profiles/*/places.sqlite"),
    ],
}


def browser_profiles(
    home: Path | None = None, platform: str | None = None
) -> list[tuple[str, Path]]:
    """User home + platform -> (kind, history file) for every browser profile found."""
    home = home or Path.home()
    key = platform or sys.platform
    found: list[tuple[str, Path]] = []
    for kind, pattern in _CANDIDATES.get(key, _CANDIDATES["linux"]):
        found += [(kind, p) for p in sorted(home.glob(pattern)) if p.is_file()]
    return found


def starter_toml(profiles: list[tuple[str, Path]], timezone: str) -> str:
    """Found profiles + timezone -> a commented omoide.toml to start from."""
    lines = [
        "# omoide configuration. Relative paths are relative to this file's folder (OMOIDE_HOME).",
        f'timezone = "{timezone}"',
        '# user_name = "Your Name"                # as your chats name you: tells your own messages',
        '# excluded_domains = ["mybank.example"]   # visits to these (and subdomains) are dropped',
        "# session_gap_s = 300",
        "# min_dwell_s = 10",
        "",
    ]
    for i, (kind, path) in enumerate(profiles, 1):
        if kind == "safari":
            lines.append(f"# macOS: {SAFARI_ACCESS}")
        lines += [
            "[[sources]]",
            f'kind = "{kind}"',
            f"path = {_toml_str(path)}",
            f'name = "{kind}-{i}"',
            "",
        ]
    lines += [
        "# [[sources]]",
        '# kind = "activitywatch"',
        '# url = "http://127.0.0.1:5600"          # or path = "aw-buckets-export.json"',
        "",
        "# [[sources]]",
        '# kind = "notes"',
        '# path = "/path/to/vault/daily"          # folder of YYYY-MM-DD.md notes',
        "",
        "# [[sources]]",
        '# kind = "chat"',
        '# path = "/path/to/chats"                # JSONL: {ts, speaker, text, conversation}',
        "",
        "# [[sources]]",
        '# kind = "line"                          # or "chatgpt", "claude", "discord"',
        '# path = "/path/to/line-exports"         # LINE .txt exports; conversations.json; DCE .json',
        "",
        "# [[sources]]",
        '# kind = "whatsapp"                      # or "telegram"',
        '# path = "/path/to/whatsapp-exports"     # "Export chat" .txt/.zip; Telegram result.json',
        "",
    ]
    return "\n".join(lines)


def _toml_str(path: Path) -> str:
    """Path -> a TOML literal string (single quotes keep Windows backslashes intact)."""
    return f"'{path}'" if "'" not in str(path) else '"' + str(path).replace("\\", "\\\\") + '"'
