"""Detectors and redaction of single strings: each PII type, its look-alikes, URL secrets."""

from __future__ import annotations

import re
import time

import pytest

from omoide.ingest.pii import PREFILTER, Span, candidate_patterns, find_pii, redact_text


def redacted(text: str) -> str:
    """Text -> its redacted form."""
    return redact_text(text)[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mail john.doe@example.com now", "mail [EMAIL] now"),
        ("try info@presidio.site or another+tag@mail.co.uk.", "try [EMAIL] or [EMAIL]."),
        ("a@xn--d1acufc.xn--p1ai", "[EMAIL]"),
        ("<UtaKortig@jourrapide.com>", "<[EMAIL]>"),
    ],
)
def test_emails_are_redacted(text: str, expected: str) -> None:
    assert redacted(text) == expected


@pytest.mark.parametrize("text", ["my email is info@presidio.", "/photos/36050182@N05/", "a @ b"])
def test_email_look_alikes_stay(text: str) -> None:
    assert redacted(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("card 4111111111111111 lost", "card [CARD] lost"),
        ("4012-8888-8888-1881 and 4012 8888 8888 1881", "[CARD] and [CARD]"),
        ("amex 3782 822463 10005.", "amex [CARD]."),
        ("12 digits 630427373398?", "12 digits [CARD]?"),
        ("19 digits 4131034282458809939", "19 digits [CARD]"),
        ("4111 1111 1111 1111 2024", "[CARD] 2024"),
    ],
)
def test_luhn_valid_cards_are_redacted(text: str, expected: str) -> None:
    assert redacted(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "4111 1111 1111 1112",  # Luhn-invalid
        "4012-8888-8888-1882",
        "41111111111111111111",  # 20 digits
        "0000 0000 0000 0000",  # placeholder
        "GB56HXDO88167774656119",  # IBAN digits glued to letters
    ],
)
def test_card_look_alikes_stay(text: str) -> None:
    assert redacted(text) == text


@pytest.mark.parametrize(
    "phone",
    [
        "(415) 555-0132",
        "(415)555-0132",
        "415-555-0132",
        "+1 415 555 0132",
        "+1-984-182-0190",
        "+44 (20) 7123 4567",
        "+46 (0)8 928 571 38",
        "+447700 921 916",
        "+33 1 42 68 53 00",
        "+55 11 98456 5666",
        "001-518-640-0854",
        "090-1234-5678",
        "0490 75 40 81",
        "03.93.92.16.85",
        "930.167.3943",
        "345-899-3560x4587",
        "467 3395",
        "9498777106",
    ],
)
def test_phones_are_redacted(phone: str) -> None:
    text, counts = redact_text(f"Call me at {phone} please")
    assert text == "Call me at [PHONE] please"
    assert counts == {"phone": 1}


def test_a_bare_phone_number_alone_is_redacted() -> None:
    assert redacted("9498777106") == "[PHONE]"
    assert redacted("+1 415 555 0132") == "[PHONE]"


@pytest.mark.parametrize(
    "text",
    [
        "at 12:30:45 today",
        "Today is 2021-05-21",
        "Today is 5-20-2021",
        "born 05 21 2021",
        "SSN 078-05-1123",
        "Version 1.2.3",
        "price 1.299.000 EUR",
        "build 10.0.19041.1",
        "order 1234567",
        "ZIP 3610-114",
        "seasons 2023 2024",
        "https://example.com/item/4155550132",
        "https://example.com/?t=4155550132",
        "on 2024-03-15T14:30:00Z",
    ],
)
def test_phone_look_alikes_stay(text: str) -> None:
    assert redacted(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Primary: 10.0.0.1, Secondary: 172.16.0.1", "Primary: [IP], Secondary: [IP]"),
        ("IP: 192.168.1.1.", "IP: [IP]."),
        ("(192.168.1.1)", "([IP])"),
        ("192.168.2.1@eth0", "[IP]@eth0"),
        ("http://192.168.0.1:8080/admin", "http://[IP]:8080/admin"),
        ("Connect to [2001:db8::1]:8080", "Connect to [[IP]]:8080"),
        ("Gateway: fe80::1 on interface", "Gateway: [IP] on interface"),
        ("::ffff:10.0.0.1", "[IP]"),
        ("0:0:0:0:0:FFFF:129.144.52.38", "[IP]"),
        ("684D:1111:222:3333:4444:5555:6:77", "[IP]"),
        ("Loopback ::1", "Loopback [IP]"),
        ("3.10.4.1", "[IP]"),
    ],
)
def test_ips_are_redacted(text: str, expected: str) -> None:
    assert redacted(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "999.1.1.1",
        "256.256.256.256",
        "version 3.10.4.300",
        "v1.2.3.4",
        "my ip: 192.168.0",
        "IP192.168.1.1text",
        "1.2.3.4.5",
        "::ffff:256.0.0.1",
        "2001:db8::256.1.1.1",
        "2001::db8::1",
        "text2001:db8::1",
        "MAC address aa:bb:cc:dd:ee:ff",
        "MyClass::toString",
        "Ratio 1:2:3:4",
        "abc:def:ghi",
        "Home :: Forum",
    ],
)
def test_ip_look_alikes_stay(text: str) -> None:
    assert redacted(text) == text


@pytest.mark.parametrize(
    "name",
    [
        "token",
        "access_token",
        "refresh_token",
        "id_token",
        "auth_token",
        "code",
        "key",
        "api_key",
        "apikey",
        "password",
        "passwd",
        "pwd",
        "secret",
        "client_secret",
        "auth",
        "sig",
        "signature",
        "Signature",
        "X-Amz-Signature",
        "X-Amz-Credential",
        "X-Amz-Security-Token",
        "X-Goog-Signature",
        "jsessionid",
        "PHPSESSID",
        "sid",
        "session",
        "sessionid",
        "session_id",
        "CFID",
        "CFTOKEN",
        "public_key",
        "TOKEN",
    ],
)
def test_url_secret_values_are_redacted(name: str) -> None:
    text, counts = redact_text(f"https://example.com/cb?x=1&{name}=s3cr3tVALUE&y=2")
    assert text == f"https://example.com/cb?x=1&{name}=[REDACTED]&y=2"
    assert counts == {"url_secret": 1}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "https://example.com/cb#access_token=2YotnFZFEjr1zCsicMWpAA&state=xyz",
            "https://example.com/cb#access_token=[REDACTED]&state=xyz",
        ),
        (
            "http://shop.example/cart;jsessionid=0123456789abcdef?item=3",
            "http://shop.example/cart;jsessionid=[REDACTED]?item=3",
        ),
        ("https://bob:hunter2@db.example.com/x", "https://[REDACTED]@db.example.com/x"),
        ("ftp://anonymous@files.example.org/", "ftp://[REDACTED]@files.example.org/"),
        (
            "http://abr.business.gov.au/(dhj3bi55ekqndn3mjb5myu45)/entity.aspx?q=1",
            "http://abr.business.gov.au/([REDACTED])/entity.aspx?q=1",
        ),
        (
            "see https://x.example/cb?code=SplxlOBeZQQYbYS6WxSbIA.",
            "see https://x.example/cb?code=[REDACTED].",
        ),
        ("grant_type=password&password=A3ddj3w", "grant_type=password&password=[REDACTED]"),
    ],
)
def test_url_secret_forms(text: str, expected: str) -> None:
    assert redacted(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "https://example.com/cb?state=xyz&token_type=example&expires_in=3600",
        "/waf?key1=val1&key2=val2&keyword=shoes",
        "https://example.com/search?q=python&page=2&zipcode=10115&design=flat",
        "http://www.gotaport.com:1234/",
        "https://example.com/?token=",
    ],
)
def test_ordinary_query_params_stay(text: str) -> None:
    assert redacted(text) == text


def test_find_pii_returns_typed_spans_in_order() -> None:
    text = "x@y.org token=abc 10.0.0.1 4111111111111111 +1 415 555 0132"
    spans = find_pii(text)
    assert [s.type for s in spans] == ["email", "url_secret", "ip", "card", "phone"]
    assert all(isinstance(s, Span) for s in spans)
    assert text[spans[0].start : spans[0].end] == "x@y.org"
    assert text[spans[1].start : spans[1].end] == "token=abc"


def test_overlaps_keep_the_stronger_type() -> None:
    # The password looks like an e-mail local part; the credential wins, the host stays.
    text, counts = redact_text("https://user:pa55@mail.example.com/")
    assert text == "https://[REDACTED]@mail.example.com/"
    assert counts == {"url_secret": 1}


def test_counts_are_per_type_and_redaction_is_idempotent() -> None:
    text, counts = redact_text("a@b.com, c@d.org, call 415-555-0132, ?sid=abc&key=def")
    assert counts == {"email": 2, "phone": 1, "url_secret": 2}
    again, more = redact_text(text)
    assert again == text
    assert not more


def test_plain_text_passes_untouched() -> None:
    assert redact_text("") == ("", {})
    assert redact_text("Weekly planning — Notion") == ("Weekly planning — Notion", {})


def test_prefilter_is_valid_for_re2() -> None:
    pyarrow_compute = pytest.importorskip("pyarrow.compute")
    import pyarrow as pa

    flags = pyarrow_compute.match_substring_regex(pa.array(["a@b.co", "hello"]), PREFILTER)
    assert flags.to_pylist() == [True, False]


@pytest.mark.parametrize(
    "text",
    [
        "a." * 50_000 + "@",
        "a@" + "a." * 50_000 + "1",
        "token=x&" * 12_000,
        "1:" * 50_000,
        "4111 " * 25_000,
        "+1 (2) 3-4.5 " * 8_000,
        "x" * 100_000 + "@y",
    ],
    ids=["local-part", "domain", "many-params", "colons", "card-groups", "phone-groups", "word"],
)
def test_hostile_input_is_scanned_in_linear_time(text: str) -> None:
    started = time.perf_counter()
    redact_text(text)
    assert time.perf_counter() - started < 3.0


def test_candidate_patterns_find_the_candidates() -> None:
    patterns = candidate_patterns()
    assert patterns and all(isinstance(p, re.Pattern) for p in patterns)
    blob = "a@b.co 4111 1111 1111 1111 +1 415 555 0132 10.0.0.1 ::1 ?token=x https://u:p@h/"
    assert sum(len(p.findall(blob)) for p in patterns) >= 7
