"""Topics and core interests: tools used to get somewhere are no interest; a code host's projects are."""

from __future__ import annotations

from datetime import UTC, datetime

import pandas as pd
import pytest

from omoide.profile.integrated import build_profile, core_interests
from omoide.profile.topics import is_navigation, projects, row_topics, session_place
from tests.fakes import rows_at

NOW = datetime(2026, 11, 21, 12, tzinfo=UTC)
rec = rows_at(NOW)


@pytest.mark.parametrize(
    "host",
    [
        "duckduckgo.com",
        "www.google.com",
        "google.de",
        "google.co.jp",
        "bing.com",
        "html.duckduckgo.com",
        "search.brave.com",
        "accounts.google.com",
        "login.microsoftonline.com",
        "auth.example.com",
        "kumo.okta.com",
        "t.co",
        "bit.ly",
        "l.facebook.com",
    ],
)
def test_search_sign_in_and_shorteners_are_navigation(host: str):
    assert is_navigation(host)


@pytest.mark.parametrize(
    "host",
    [
        "docs.google.com",
        "calendar.google.com",
        "japan-guide.com",
        "en.wikipedia.org",
        "github.com",
        "searchengineland.com",
        "auth0.example.org",  # a first label that only begins like "auth"
        "id.me",  # two labels: a site, not a sign-in subdomain
    ],
)
def test_places_people_read_or_work_in_are_not_navigation(host: str):
    assert not is_navigation(host)


def test_a_code_hosts_titles_name_the_projects():
    titles = "; ".join(
        [
            "Fix sync window at local midnight by aiko-t · Pull Request #412 · kumo-labs/warelay · GitHub",
            "warelay/sync.py at main · kumo-labs/warelay · GitHub",
            "lancedb/lancedb: Developer-friendly, embedded retrieval engine",
            "Merge requests · kumo / tools / omoide-docs · GitLab",
            "Pull requests · GitHub",
            "Page 1/2",
        ]
    )
    assert projects(titles) == ["warelay", "lancedb", "omoide-docs"]


def test_row_topics_of_sessions():
    def topics(line: str) -> list[str]:
        return row_topics("session", [], line)

    assert topics("20:58–21:24 duckduckgo.com (26 min): kyoto ryokan april at DuckDuckGo") == []
    assert topics("16:21–16:21 auth.example.com (1 min): Signing in…") == []
    assert topics("10:00–10:20 japan-guide.com (20 min): Kyoto Travel") == ["japan-guide.com"]
    assert topics("10:00–10:20 Slack (20 min): #warelay") == []  # an app is a tool
    gh = "08:55–09:05 github.com (10 min): Pull requests · kumo-labs/warelay · GitHub (+2 more)"
    assert topics(gh) == ["warelay"]
    assert topics("08:55–09:05 github.com (10 min): Your dashboard") == []
    assert row_topics("note", ["Kyoto"], "Booked the ryokan") == ["Kyoto"]
    assert session_place("09:00–09:40 github.com (40 min)") == "github.com"


def test_core_interests_leave_out_search_sign_in_code_hosts_and_bots():
    rows = pd.DataFrame(
        [
            rec("n1", "Worked on @warelay", 2, entities=["warelay"], importance=0.8),
            rec("n2", "More @warelay", 1, entities=["warelay"], importance=0.8),
            rec("k1", "Booked the ryokan in @Kyoto", 1, entities=["Kyoto"], importance=0.9),
            *[
                rec(f"s{i}", line, days, kind="session", importance=0.6)
                for i, (line, days) in enumerate(
                    [
                        ("20:58–21:24 duckduckgo.com (26 min): kyoto ryokan at DuckDuckGo", 2),
                        ("21:00–21:30 google.de (30 min): ryokan - Google Suche", 1),
                        ("09:00–09:01 accounts.google.com (1 min): Sign in", 1),
                        ("12:29–13:29 github.com (60 min): Issues · kumo-labs/warelay · GitHub", 1),
                        ("12:29–13:29 github.com (60 min): Pulls · lancedb/lancedb · GitHub", 2),
                        ("10:00–10:20 japan-guide.com (20 min): Kyoto Travel", 2),
                    ]
                )
            ],
            rec(
                "c1",
                "assistant: Use ZoneInfo",
                1,
                kind="chat",
                entities=["assistant"],
                heard_from="assistant",
            ),
            rec("c2", "MEE6 [bot]: Welcome", 1, kind="chat", entities=["MEE6 [bot]"]),
        ]
    )
    found = [w.name for w in core_interests(rows, set(), k=10)]
    assert found == ["warelay", "Kyoto", "japan-guide.com", "lancedb"]  # ties by name
    # github.com's session about warelay counts toward warelay (half: seen, not named).
    warelay = core_interests(rows, set(), k=1)[0]
    assert "s3" in warelay.evidence
    profile = build_profile(rows, [], NOW, me=["Aiko"])
    assert [w.name for w in profile.core_interests] == found[:5]
