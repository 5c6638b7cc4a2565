"""Memory rows + the people the settings name -> who counts as a person (not an interest)."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd


def people_in(rows: pd.DataFrame, named: Sequence[str], me: Sequence[str]) -> list[str]:
    """Memory rows + configured people + the user's names -> the people, chat partners included.

    The profile must not take a friend for an interest; the user and an AI assistant are
    not people here.
    """
    partners = rows.loc[rows["kind"] == "chat", "entities"].explode().dropna().astype(str)
    found = dict.fromkeys([*named, *partners])
    return [p for p in found if p and p not in me and p.lower() != "assistant"]
