"""glibc's malloc held to two arenas: what a process's threads get, and a limit the user set kept."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

from omoide.core import malloc_arenas

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")

# Six threads alive at once, each mallocing; then glibc lists its arenas on stderr.
_THREADS = """
import ctypes, ctypes.util, sys, threading
from omoide.core.malloc_arenas import cap_malloc_arenas
print(cap_malloc_arenas() if sys.argv[1] == "cap" else None)
barrier = threading.Barrier(6)
def work():
    kept = [bytearray(50_000) for _ in range(4)]
    barrier.wait()
threads = [threading.Thread(target=work) for _ in range(6)]
for t in threads: t.start()
for t in threads: t.join()
ctypes.CDLL(ctypes.util.find_library("c")).malloc_stats()
"""


def _arenas(how: str) -> tuple[str, int]:
    """'cap' or 'as is' -> (what cap_malloc_arenas said, arenas glibc reports) of a fresh process."""
    env = {k: v for k, v in os.environ.items() if k != malloc_arenas.ENV}
    done = subprocess.run(
        [sys.executable, "-c", _THREADS, how], env=env, capture_output=True, text=True, check=True
    )
    arenas = sum(line.startswith("Arena ") for line in done.stderr.splitlines())
    return done.stdout.strip(), arenas


def test_threads_share_two_arenas_once_capped() -> None:
    said, capped = _arenas("cap")
    _, as_is = _arenas("as is")
    assert said == "True"
    assert capped <= malloc_arenas.ARENAS
    assert as_is > malloc_arenas.ARENAS  # the threads did take arenas of their own


def test_the_limit_is_exported_for_the_processes_it_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(malloc_arenas.ENV, raising=False)
    assert malloc_arenas.cap_malloc_arenas() is True
    assert os.environ[malloc_arenas.ENV] == str(malloc_arenas.ARENAS)


def test_a_limit_the_user_set_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(malloc_arenas.ENV, "4")
    assert malloc_arenas.cap_malloc_arenas() is False
    assert os.environ[malloc_arenas.ENV] == "4"
