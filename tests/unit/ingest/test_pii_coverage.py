"""Coverage of the PII sanitizer against public test vectors: edge forms and look-alikes.

Vectors only (no code) come from public validator, scrubber and scanner suites; each group
names its source. Tokens below are the vendors' documented examples or random strings in
their published shape, never live credentials.
"""

from __future__ import annotations

import time

import pytest

from omoide.ingest.pii import PREFILTER, redact_text


def redacted(text: str) -> str:
    """Text -> its redacted form."""
    return redact_text(text)[0]


# E-mail addresses. Sources: RFC 3696 section 3 and its errata, as listed by fnando/validators
# (spec/support/emails.rb) and JoshData/python-email-validator's tests (quoted local parts,
# IP-literal domains, internationalised domains); Wikipedia "Email address" examples.
@pytest.mark.parametrize(
    "address",
    [
        "simple@example.com",
        "very.common@example.com",
        "FirstName.LastName@EasierReading.org",
        "x@example.com",
        "long.email-address-with-hyphens@and.subdomains.example.com",
        "user.name+tag+sorting@example.com",
        "valid-valid+1.23@test.example.com.au",
        "valid_valid123@test.example.com",
        "JOHN.DOE@EXAMPLE.COM",
        "1234567890@example.com",
        "_somename@example.com",
        "test'test@example.com",
        "$A12345@example.com",
        "!def!xyz%abc@example.com",
        "user%example.com@example.org",
        "example-indeed@strange-example.com",
        "valid123.456@example.museum",
        '"john doe"@example.com',
        '"very.(),:;<>[]\\".VERY.\\"very@\\\\ \\"very\\".unusual"@strange.example.com',
        '"Joe.\\\\Blow"@example.com',
        '"Abc@def"@example.com',
        "me@[127.0.0.1]",
        "user@[192.168.0.1]",
        "me@[IPv6:::1]",
        "postmaster@[IPv6:2001:db8::1]",
        "jörg@bücher.de",
        "用户@例子.广告",
        "δοκιμή@παράδειγμα.δοκιμή",
        "me@xn--bcher-kva.example",
    ],
)
def test_email_forms_are_redacted(address: str) -> None:
    text, counts = redact_text(f"write to {address} today")
    assert text == "write to [EMAIL] today"
    assert counts == {"email": 1}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<Jane.Doe@Example.COM>", "<[EMAIL]>"),
        ("mailto:info@example.org?subject=hi", "mailto:[EMAIL]?subject=hi"),
        ("**bob@example.com**", "**[EMAIL]**"),
        ("'bob@example.com'", "'[EMAIL]'"),
        (
            "https://example.com/users/bob@example.com/edit",
            "https://example.com/users/[EMAIL]/edit",
        ),
        (
            "https://example.com/?email=bob@example.com&x=1",
            "https://example.com/?email=[EMAIL]&x=1",
        ),
        # RFC 3696 allows "=" and "/" in a local part; they also separate names from values in
        # query strings and logs, so the address is redacted from the "=" on (a known limit).
        ("customer/department=shipping@example.com", "customer/department=[EMAIL]"),
    ],
)
def test_email_in_context(text: str, expected: str) -> None:
    assert redacted(text) == expected


# Non-addresses. Sources: the invalid lists of fnando/validators and python-email-validator
# (no dot in the domain, bad IP literal), plus strings common in browsing and shell history.
@pytest.mark.parametrize(
    "text",
    [
        "ping @handle on twitter",
        "foo@bar",
        "user@localhost",
        "Abc.example.com",
        "plainaddress",
        "icon@2x.png",
        "logo@3x.jpg",
        "apple-touch-icon@1.5x.webp",
        "npm i lodash@4.17.21",
        "pip install pkg@1.2.3",
        "npx create-react-app@latest",
        "npm i @types/node@20.11.5",
        "git@github.com:octocat/Hello-World.git",
        "user@[300.1.1.1]",
        "/photos/36050182@N05/",
        "a @ b",
    ],
)
def test_email_look_alikes_stay(text: str) -> None:
    assert redacted(text) == text


# Credential parameter names. Sources: OAuth 2.0 (RFC 6749 sections 4.1.2, 4.2.2; RFC 7636
# code_verifier), OAuth 1.0a (oauth_token, oauth_verifier), AWS SigV4 and SigV2 presigned
# URLs, Azure SAS (sig), Google signed URLs, Presidio's and Sentry's URL scrubber key lists.
@pytest.mark.parametrize(
    "name",
    [
        "access_token",
        "id_token",
        "refresh_token",
        "oauth_token",
        "oauth_verifier",
        "code_verifier",
        "api_key",
        "apikey",
        "api-key",
        "apiKey",
        "x-api-key",
        "key",
        "access_key",
        "secret",
        "client_secret",
        "clientSecret",
        "password",
        "passwd",
        "pwd",
        "pass",
        "auth",
        "authorization",
        "token",
        "private_token",
        "sig",
        "signature",
        "X-Amz-Signature",
        "X-Amz-Credential",
        "X-Amz-Security-Token",
        "AWSAccessKeyId",
        "Signature",
        "session",
        "sessionid",
        "sid",
        "code",
        "jwt",
        "bearer",
    ],
)
def test_credential_parameters_are_redacted(name: str) -> None:
    text, counts = redact_text(f"https://example.com/cb?state=xyz&{name}=Zm9vYmFy42&page=2")
    assert text == f"https://example.com/cb?state=xyz&{name}=[REDACTED]&page=2"
    assert counts == {"url_secret": 1}


# Userinfo in URLs. Source: RFC 3986 section 3.2.1 and connection strings from the
# PostgreSQL, Redis and MongoDB documentation.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://user:pass@host.example.com/", "https://[REDACTED]@host.example.com/"),
        ("https://user:p%40ss@host.example.com:8443/x", "https://[REDACTED]@host.example.com:8443/x"),
        ("https://user:p@ss@host.example.com/", "https://[REDACTED]@host.example.com/"),
        ("postgresql://admin:s3cret@db.internal:5432/app", "postgresql://[REDACTED]@db.internal:5432/app"),
        ("redis://:s3cret@cache:6379/0", "redis://[REDACTED]@cache:6379/0"),
        ("mongodb+srv://app:pw@cluster0.example.net/db", "mongodb+srv://[REDACTED]@cluster0.example.net/db"),
    ],
)  # fmt: skip
def test_userinfo_is_redacted(text: str, expected: str) -> None:
    assert redacted(text) == expected


# Token formats anywhere in text. Sources: the shapes documented by each vendor and used by
# gitleaks' rules (jwt, github-pat, github-fine-grained-pat, slack-*-token, aws-access-token,
# gcp-api-key, stripe-access-token, gitlab-pat, npm-access-token, huggingface-access-token,
# openai-api-key); the JWT is jwt.io's example, AKIA...EXAMPLE AWS's documented key id.
TOKENS = [
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "gho_16C7e42F292c6912E7710c838347Ae178B4a",
    "ghs_16C7e42F292c6912E7710c838347Ae178B4a",
    "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefgh",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
    "xoxp-123456789012-123456789012-123456789012-abcdef0123456789abcdef0123456789",
    "xapp-1-A0123456789-1234567890123-abcdef0123456789abcdef0123456789",
    "AKIAIOSFODNN7EXAMPLE",
    "ASIAY34FZKBOKMUTVV7A",
    "AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "pk_live_TYooMQauvdEDq54NiTphI7jx",
    "rk_test_51H8bGqKZ2yFXyP8a0QmRt7vC",
    "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7cDe0fGh3iJk",
    "sk-Abcdefghij0123456789T3BlbkFJAbcdefghij0123456789",
    "glpat-xYz12AbCdEfGhIjKlMnO",
    "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
    "hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh",
]  # fmt: skip


@pytest.mark.parametrize("token", TOKENS, ids=[t[:10] for t in TOKENS])
def test_token_formats_are_redacted_anywhere(token: str) -> None:
    text, counts = redact_text(f"export TOKEN {token} # copied")
    assert text == "export TOKEN [REDACTED] # copied"
    assert counts == {"url_secret": 1}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"Authorization: Bearer {TOKENS[0]}", "Authorization: Bearer [REDACTED]"),
        ('curl -H "Authorization: Bearer abc123xyz"', 'curl -H "Authorization: Bearer [REDACTED]"'),
        ("Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [REDACTED]"),
        ("bearer 9f8e7d6c5b4a39281706f5e4", "bearer [REDACTED]"),
    ],
)
def test_authorization_credentials_are_redacted(text: str, expected: str) -> None:
    assert redacted(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "the bearer bond market",
        "bearer tokens explained",
        "sk-learn-tutorial-for-beginners-2024",
        "task-manager and desk-lamp",
        "AKIA is a prefix",
        "https://example.com/cb?state=xyz&token_type=Bearer&expires_in=3600",
        "https://example.com/search?q=password+manager&keyword=shoes",
        "https://example.com/?token=",
    ],
)
def test_token_look_alikes_stay(text: str) -> None:
    assert redacted(text) == text


def test_every_token_passes_the_secrets_screen() -> None:
    pyarrow = pytest.importorskip("pyarrow")
    compute = pytest.importorskip("pyarrow.compute")
    flags = compute.match_substring_regex(pyarrow.array(TOKENS), PREFILTER)
    assert all(flags.to_pylist())


# National numbers without a country prefix. Source: libphonenumber's example numbers
# (PhoneNumberMetadata.xml <exampleNumber>, fixed line and mobile) formatted NATIONAL, plus
# the forms issue 12 lists (UK Ofcom drama numbers 020 7946 0018, 07700 900123).
@pytest.mark.parametrize(
    "phone",
    [
        "(555) 123-4567",  # US / CA
        "(201) 555-0123",
        "(506) 234-5678",
        "020 7946 0018",  # GB
        "07700 900123",
        "0121 234 5678",
        "030 1234567",  # DE
        "030 123456",
        "01512 3456789",
        "01 23 45 67 89",  # FR
        "06 12 34 56 78",
        "03-1234-5678",  # JP
        "090-1234-5678",
        "98765 43210",  # IN
        "081234 56789",
        "138 0013 8000",  # CN
        "010 1234 5678",
        "131 2345 6789",
        "(11) 91234-5678",  # BR
        "(11) 2345-6789",
        "02 1234 5678",  # IT
        "312 345 6789",
        "612 34 56 78",  # ES
        "222 123 4567",  # MX
        "8 (912) 345-67-89",  # RU
        "02-212-3456",  # KR
        "010-2000-0000",
        "0412 345 678",  # AU
        "(02) 1234 5678",
        "0812-345-678",  # ID
        "06 12345678",  # NL
        "512 345 678",  # PL
        "(0212) 345 67 89",  # TR
        "0301 2345678",  # PK
        "0802 123 4567",  # NG
        "0905 123 4567",  # PH
    ],
)
def test_national_phone_numbers_are_redacted(phone: str) -> None:
    text, counts = redact_text(f"call {phone} tonight")
    assert text == "call [PHONE] tonight"
    assert counts == {"phone": 1}


def test_a_phone_followed_by_a_small_count_keeps_the_count() -> None:
    assert redacted("call +1 415 555 0132 7 days a week") == "call [PHONE] 7 days a week"


# Look-alikes: Luhn-valid or phone-shaped by chance. Sources: Presidio's credit-card and
# phone recognizer tests (the 1\d{12} epoch exclusion, dates, SSNs), ISBN examples from
# ISO 2108 / Wikipedia, IEEE 802 MAC formats, RFC 4122 UUIDs, W3C trace-context ids.
@pytest.mark.parametrize(
    "text",
    [
        "ts 1732531200000 ms",
        "ts 1732531219019 ms",  # Luhn-valid epoch milliseconds
        "created_at=1764028819019",
        '{"ts": 1732531200000005}',  # Luhn-valid epoch microseconds
        "epoch 1732531200",
        "request id 550e8400-e29b-41d4-a716-446655440000",
        "trace 4bf92f3577b34da6a3ce929d0e0e4736",
        "commit 3f786850e387550fdab836ed7e6dc881de23001b",
        "MAC 00:1A:2B:3C:4D:5E",
        "MAC 00-1A-2B-3C-4D-5E",
        "MAC 001A.2B3C.4D5E",
        "ISBN 978-3-16-148410-0",
        "ISBN 9783161484100",
        "ISBN 9783064061569",  # Luhn-valid ISBN-13
        "ISBN 0-306-40615-2",
        "ISBN 978 3 16 148410 0",
        "EAN 4006381333931",
        "v10.15.7 and 2024.11.25",
        "on 2026-11-25",
        "on 25.11.2026",
        "on 11/25/2026",
        "at 14:30:00.123",
        "2026-11-25T14:30:00.123456+09:00",
        "price $1,234,567.89",
        "€ 1.234.567,89",
        "https://example.com/order/1234567890/details",
        "https://example.com/p/9498777106",
        "Amazon order 112-3456789-0123456",
        "IBAN DE89 3704 0044 0532 0130 00",
        "file IMG_20241125_143000.jpg",
        "Screenshot 2024-11-25 at 14.30.00.png",
        "000-000-0000",
    ],
)
def test_number_look_alikes_stay(text: str) -> None:
    assert redacted(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "eyJ" + "a" * 60_000 + ".",
        "sk-" * 30_000,
        "Authorization: " * 10_000,
        '"' * 50_000 + "@example.com",
        "!" * 50_000 + "a@example.com",
        "https://" + "u@" * 40_000,
    ],
    ids=["jwt-like", "sk-prefixes", "headers", "quotes", "rare-atext", "userinfo"],
)
def test_new_forms_are_scanned_in_linear_time(text: str) -> None:
    started = time.perf_counter()
    redact_text(text)
    assert time.perf_counter() - started < 3.0


@pytest.mark.parametrize(
    "text",
    [
        'mail "john doe"@example.com or user@[192.168.0.1]',
        f"Authorization: Bearer {TOKENS[0]} and key {TOKENS[1]}",
        "https://user:p@ss@host.example.com/?X-Amz-Credential=AKIAIOSFODNN7EXAMPLE",
    ],
)
def test_redacting_twice_changes_nothing_more(text: str) -> None:
    once, counts = redact_text(text)
    assert counts
    assert redact_text(once) == (once, {})
