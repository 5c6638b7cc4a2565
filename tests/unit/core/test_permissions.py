"""What other accounts can reach in a home is found, named and tightened; the owner's own modes are kept."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from omoide.core.permissions import exposed, tighten


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_a_readable_home_is_named_and_tightened(omoide_home: Path) -> None:
    (omoide_home / "lake").mkdir(mode=0o755)
    note = omoide_home / "lake" / "events.parquet"
    note.write_bytes(b"x")
    note.chmod(0o644)
    script = omoide_home / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o750)
    os.chmod(omoide_home, 0o755)
    found = exposed(omoide_home)
    assert found.count == 4 and found.first[0] == omoide_home
    assert tighten(omoide_home) == 4
    assert exposed(omoide_home).count == 0
    assert (_mode(omoide_home), _mode(omoide_home / "lake")) == (0o755 & 0o700, 0o700)
    assert (_mode(note), _mode(script)) == (0o600, 0o700)  # the owner's bits stay as they were


def test_a_link_is_neither_followed_nor_changed(omoide_home: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("not the home's")
    outside.chmod(0o644)
    os.chmod(omoide_home, 0o700)
    (omoide_home / "link").symlink_to(outside)
    (omoide_home / "loop").symlink_to(omoide_home / "loop")
    assert exposed(omoide_home).count == 0
    assert tighten(omoide_home) == 0
    assert _mode(outside) == 0o644
