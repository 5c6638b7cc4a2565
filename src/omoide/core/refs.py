"""Refs that survive a move: `path#anchor` written relative to the home, `~/…` for the user's other files.

Everything omoide writes (lake rows, memory rows, vault pages, quarantine, day marks) names a
file by a ref made here (`to_ref`), and everything that opens the file behind a ref finds it
here (`resolve_ref`). A file inside OMOIDE_HOME is written relative to it; one elsewhere in
the user's home folder as `~/…`, so a browser's history is found at the same place under the
next machine's home folder; any other file keeps its absolute path, having nothing to be
relative to. An absolute ref, as homes made before refs moved wrote them, still resolves. A
ref that names no file (an aw-server URL) is left as it is.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

USER_HOME = "~/"
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def _roots(home: Path) -> list[tuple[str, str]]:
    """OMOIDE_HOME -> (prefix of an absolute path, what it is written as), the home first.

    The home comes first: it usually lies inside the user's home folder, and its files are
    written relative to it. Each folder is tried as given and resolved (a symlinked /tmp).
    """
    found: list[tuple[str, str]] = []
    user = Path(os.path.expanduser("~"))
    for root, written in ((home, ""), (user, USER_HOME)):
        if not root.is_absolute():
            continue  # no home folder to expand `~` to
        for folder in dict.fromkeys((root, root.resolve())):
            if folder.parent != folder:  # a filesystem root would take every path
                found.append((os.path.join(str(folder), ""), written))
    return found


def _relative(ref: str, roots: list[tuple[str, str]]) -> str:
    """A ref + the roots of `_roots` -> written under the first root that holds it, with `/` between parts."""
    for prefix, written in roots:
        if ref.startswith(prefix):
            return written + ref[len(prefix) :].replace(os.sep, "/")
    return ref


def to_ref(ref: str | os.PathLike[str], home: Path) -> str:
    """A file or `path#anchor` (absolute, or already a ref) -> relative to the home, `~/…`, or as it was."""
    return _relative(os.fspath(ref), _roots(home))


def to_refs(refs: pd.Series, home: Path) -> pd.Series:
    """A column of refs (nulls kept) -> each written by `to_ref` (a categorical one per category)."""
    roots = _roots(home)
    return refs.map(lambda r: _relative(r, roots) if isinstance(r, str) else r)


def resolve_ref(ref: str, home: Path) -> Path | None:
    """A ref (relative to the home, `~/…`, or absolute) -> the file it names, its anchor dropped; None for a URL."""
    if _URL.match(ref):
        return None
    path = ref.rpartition("#")[0] if "#" in ref else ref
    if path.startswith(USER_HOME):
        return Path(os.path.expanduser("~")) / path[len(USER_HOME) :]
    named = Path(path)
    return named if named.is_absolute() else home / named
