"""A home -> what in it other accounts of the machine can reach, and the same tightened to its owner.

Every omoide command writes with the umask PRIVATE_UMASK (folders 0700, files 0600), and so do
the servers and runs it starts. What was made before, by hand, or by a program that sets its
own modes is found here: `omoide doctor` names it, `omoide doctor --fix` tightens it.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

PRIVATE_UMASK = 0o077
OTHERS = 0o077  # the group's and everyone's bits


@dataclass(frozen=True)
class Exposed:
    """What others can reach in a home: how many entries, and the first few of them."""

    count: int
    first: tuple[Path, ...]


def _entries(home: Path) -> list[tuple[Path, int]]:
    """Home -> (path, mode) of it and of every folder and file below it; links are not followed."""
    found: list[tuple[Path, int]] = []
    try:
        found.append((home, home.lstat().st_mode))
    except OSError:
        return found
    for root, dirs, files in os.walk(home, onerror=lambda _: None):
        for name in (*dirs, *files):
            path = Path(root, name)
            try:
                found.append((path, path.lstat().st_mode))
            except OSError:
                continue  # gone meanwhile
    return found


def exposed(home: Path, shown: int = 5) -> Exposed:
    """Home -> how many of its folders and files others can read, write or enter, and the first `shown`."""
    if os.name == "nt":
        return Exposed(0, ())  # modes mean nothing there: a profile folder's ACL is the owner's
    open_to_others = [p for p, mode in _entries(home) if not stat.S_ISLNK(mode) and mode & OTHERS]
    return Exposed(len(open_to_others), tuple(open_to_others[:shown]))


def tighten(home: Path) -> int:
    """Home -> every folder and file in it made the owner's only (group and other bits cleared); how many changed."""
    changed = 0
    if os.name == "nt":
        return changed
    for path, mode in _entries(home):
        if stat.S_ISLNK(mode) or not mode & OTHERS:
            continue
        try:
            os.chmod(path, stat.S_IMODE(mode) & ~OTHERS)
        except OSError:
            continue  # another account's file in the home: named again by the next doctor
        changed += 1
    return changed
