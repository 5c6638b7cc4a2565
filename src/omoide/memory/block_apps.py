"""A window's app, title and site -> what kind of screen activity it is (meeting, coding, messages, writing, browser).

The vocabulary follows ActivityWatch's default categories (aw-webui `src/util/classes.ts`:
"Comms > IM" for Slack, Discord, Telegram, Signal, WhatsApp; "Work > Programming" for editors
and terminals) with a video-call class of its own, since a call in front is a meeting
whatever else is open. Names are compared lower-case, as the window watcher's app names vary
in case between platforms.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from omoide.memory.active_time import ANY_BROWSER

CATEGORIES = ("meeting", "coding", "messages", "writing", "browser", "other")
CALL_APPS = frozenset(
    "zoom zoom.us zoom.exe teams ms-teams teams.exe webex skype facetime jitsi whereby".split()
)
CALL_TITLE = re.compile(r"zoom meeting|meet -|google meet|huddle|webex meeting|\bcall with\b", re.I)
CALL_SITES = frozenset(
    {"meet.google.com", "zoom.us", "whereby.com", "meet.jit.si", "teams.microsoft.com"}
)
CODE_APPS = frozenset(
    "code code.exe code-oss vscodium cursor zed pycharm pycharm64.exe idea idea64.exe goland webstorm "
    "clion rider sublime_text subl emacs vim nvim gvim neovide xcode android-studio "
    "kitty alacritty wezterm wezterm-gui gnome-terminal gnome-terminal-server konsole xterm urxvt "
    "terminal iterm2 tilix foot terminator windowsterminal.exe windowsterminal ghostty".split()
)
CHAT_APPS = frozenset(
    "slack slack.exe discord discord.exe telegram telegram-desktop telegramdesktop signal "
    "signal-desktop whatsapp element mattermost messages thunderbird mail outlook".split()
)
CHAT_SITES = re.compile(
    r"(?:^|\.)(?:slack\.com|discord\.com|web\.whatsapp\.com|web\.telegram\.org|mail\.google\.com|outlook\.live\.com|outlook\.office\.com)$"
)
NOTE_APPS = frozenset(
    "obsidian notion logseq joplin typora zettlr standard-notes bear notes libreoffice "
    "soffice.bin winword.exe winword pages onenote".split()
)


def categories(apps: pd.Series, titles: pd.Series, sites: pd.Series) -> np.ndarray:
    """Aligned app names, window titles and sites (None where there is none) -> one of CATEGORIES per row."""
    app = apps.fillna("").astype(str).str.lower().to_numpy()
    title = titles.fillna("").astype(str)
    site = sites.fillna("").astype(str).str.lower()
    out = np.full(len(app), "other", dtype=object)
    browser = np.isin(app, list(ANY_BROWSER))
    out[browser] = "browser"
    out[np.isin(app, list(NOTE_APPS))] = "writing"
    out[np.isin(app, list(CODE_APPS))] = "coding"
    chat = np.isin(app, list(CHAT_APPS)) | (browser & site.str.contains(CHAT_SITES).to_numpy())
    out[chat] = "messages"
    call = (
        np.isin(app, list(CALL_APPS))
        | (browser & site.isin(CALL_SITES).to_numpy())
        | title.str.contains(CALL_TITLE).to_numpy()
    )
    out[call] = "meeting"
    return out
