"""A chat's own dates and times are never redacted as phone numbers, in the layouts WhatsApp
and LINE write them (issue 52), while phone numbers beside them still are."""

from __future__ import annotations

import pytest

from omoide.ingest.pii import redact_text


@pytest.mark.parametrize(
    "text",
    [
        "13.06.18 klo 21.25.15 - Laura: Moi",
        "we met 13.06.18 21.25.15, remember?",
        "13.06.18 21.25",
        "13.06.2018 21.25",
        "20.11.26, 21:30",
        "20.11.26, 21:30 Uhr - Lena: Bis morgen",
        "20.11.26 21.30.15",
        "[20/11/2026, 08:02:11] Aiko: Booked it",
        "20/11/2026 à 21h30",
        "2018.06.13 21.25.15",
    ],
)
def test_dates_and_times_stay(text: str) -> None:
    assert redact_text(text)[0] == text


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("13.06.18 21.25.15 soita +358 40 123 4567", "13.06.18 21.25.15 soita [PHONE]"),
        ("ruf an: 030 1234567", "ruf an: [PHONE]"),
        ("appelle 01.84.17.61.18", "appelle [PHONE]"),
        ("call 415-555-0132", "call [PHONE]"),
    ],
)
def test_phones_beside_them_are_still_redacted(text: str, redacted: str) -> None:
    assert redact_text(text)[0] == redacted
