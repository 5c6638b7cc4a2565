"""Memory rows + the people the settings name -> who is a person: the evidence a relationship needs.

An entity is a person only with evidence of personhood, never by default: a name mentioned
in notes may be a place (Kyoto, Higashiyama), a project (warelay) or an organisation, and
none of those is a relationship. The evidence, in the order it is trusted:

1. the `people` setting: names the user listed (a friend called Claude is a person even
   though "claude" is a bot's name);
2. someone the memories heard from: `heard_from` of a memory row, that is the speaker of
   a chat message that is not the user's, or the name a note says told something
   ("Peter said …", "@Peter told me …", "according to Peter"; omoide.memory.memory_types).
   A speaker that is a program (omoide.core.kinds.is_bot: the exports' AI "assistant", a
   Discord bot, a chat JSONL line whose `role` marks a bot) is no evidence.

The user is never their own relationship. No gazetteer is asked: a place needs no label to
be left out (it has no evidence of being a person), and place names are also people's names
(Florence, Austin, Sydney), so a list of places could only take friends away.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from omoide.core.kinds import is_bot


def people_in(rows: pd.DataFrame, named: Sequence[str], me: Sequence[str]) -> list[str]:
    """Memory rows + configured people + the user's names -> the people (configured, then heard from).

    The profile must not take a friend for an interest, nor a bot, a place or a project for
    a friend.
    """
    mine = {m.casefold() for m in me if m}
    heard = rows["heard_from"] if "heard_from" in rows.columns else pd.Series([], dtype=object)
    speakers = [h.strip() for h in heard.dropna() if isinstance(h, str) and not is_bot(h)]
    found = dict.fromkeys([*(n.strip() for n in named), *speakers])
    return [p for p in found if p and p != "?" and p.casefold() not in mine]
