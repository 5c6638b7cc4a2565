"""Slack's mrkdwn -> plain text, as a person reads the message in the app.

As Slack's "Formatting text for app surfaces" (api.slack.com/reference/surfaces/formatting)
writes it, and as hfaran/slack-export-viewer's formatter reads it: `<@U123>` becomes `@` and
the user's shown name (the label, then the id, when the export does not know them),
`<#C123|general>` `#general`, `<!here>` `@here`, `<!subteam^S1|@team>` and `<!date^…|text>`
their label, a link `<https://…|label>` `label (https://…)` so the address is not lost (a
bare `<https://…>` the address, a `mailto:` link its address); `&amp;`, `&lt;` and `&gt;`,
the only characters Slack escapes, are unescaped, in the text and in labels and addresses.
Bold, italics, code and `:emoji:` stay as written: they read well as they are.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_ANGLE = re.compile(r"<([^<>\n]*)>")
_SPECIAL = ("here", "channel", "everyone")


def plain_text(text: str, users: Mapping[str, str], channels: Mapping[str, str]) -> str:
    """Slack mrkdwn + shown names by user id and channel names by id -> the text as a person reads it."""
    parts = _ANGLE.split(text)  # even: text, odd: what was inside <...>
    return "".join(
        _unescape(p) if i % 2 == 0 else _token(p, users, channels) for i, p in enumerate(parts)
    )


def _token(inner: str, users: Mapping[str, str], channels: Mapping[str, str]) -> str:
    """What a `<...>` holds + people and channel names -> its plain text."""
    target, _, label = inner.partition("|")
    label = _unescape(label)
    if target.startswith("@"):
        return "@" + (users.get(target[1:]) or label.lstrip("@") or target[1:])
    if target.startswith("#"):
        return "#" + (channels.get(target[1:]) or label or target[1:])
    if target.startswith("!"):
        command = target[1:]
        if command in _SPECIAL:
            return f"@{command}"
        return label or "@" + command.split("^")[-1]
    url = _unescape(target)
    if url.startswith("mailto:"):
        return label or url.removeprefix("mailto:")
    return f"{label} ({url})" if label and label != url else url


def _unescape(text: str) -> str:
    """Slack-escaped text -> the characters it stands for (Slack escapes only &, < and >)."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
