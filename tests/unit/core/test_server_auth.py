"""The home's loopback servers: one secret made once and readable by the owner alone; foreign Host and Origin refused."""

from __future__ import annotations

import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from omoide.core.server_auth import auth_path, auth_string, own_origins, refusal


def test_the_secret_is_made_once_owner_only_and_read_back(omoide_home: Path) -> None:
    first = auth_string(omoide_home)
    assert first.startswith("omoide:") and len(first) > 40
    assert auth_string(omoide_home) == first
    assert stat.S_IMODE(auth_path(omoide_home).stat().st_mode) == 0o600
    assert stat.S_IMODE(auth_path(omoide_home).parent.stat().st_mode) == 0o700


def test_processes_starting_at_once_agree_on_one_secret(omoide_home: Path) -> None:
    with ThreadPoolExecutor(8) as pool:
        secrets = set(pool.map(lambda _: auth_string(omoide_home), range(32)))
    assert len(secrets) == 1
    assert [p.name for p in auth_path(omoide_home).parent.iterdir()] == ["prefect-auth"]


@pytest.mark.parametrize("text", ["", "omoide:", "not a secret\n"])
def test_an_emptied_or_damaged_secret_is_made_anew(omoide_home: Path, text: str) -> None:
    auth_path(omoide_home).parent.mkdir(parents=True)
    auth_path(omoide_home).write_text(text)
    assert auth_string(omoide_home).startswith("omoide:") and auth_string(omoide_home) != text


@pytest.mark.parametrize(
    ("host", "origin", "why"),
    [
        ("127.0.0.1:4200", None, None),
        ("localhost:4200", "http://localhost:4200", None),
        ("LOCALHOST:4200", "http://127.0.0.1:4200", None),
        (None, None, "unknown host"),
        ("evil.example:4200", None, "unknown host"),  # a name rebound to 127.0.0.1
        ("127.0.0.1", None, "unknown host"),  # not its port
        ("127.0.0.1:4201", None, "unknown host"),
        ("127.0.0.1:4200", "https://evil.example", "foreign origin"),
        ("127.0.0.1:4200", "http://127.0.0.1:8000", "foreign origin"),  # another loopback page
        ("127.0.0.1:4200", "null", "foreign origin"),  # a sandboxed frame, a file:// page
    ],
)
def test_only_requests_addressed_to_the_server_from_its_own_pages_pass(
    host: str | None, origin: str | None, why: str | None
) -> None:
    assert refusal(4200, host, origin) == why


def test_its_own_origins_are_the_uis_on_both_loopback_names() -> None:
    assert own_origins(4200) == ("http://127.0.0.1:4200", "http://localhost:4200")
