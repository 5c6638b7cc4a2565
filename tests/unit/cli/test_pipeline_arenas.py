"""The commands that run the pipeline hold glibc's malloc to two arenas, and the processes they start inherit it."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from omoide.core.malloc_arenas import ARENAS, ENV

pytestmark = pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's malloc only")

_RUN = """
import os, subprocess, sys
from pathlib import Path
from omoide.cli.runtime import flow_modules
before = os.environ.get("MALLOC_ARENA_MAX")
flow_modules(Path(sys.argv[1]), "test")
child = subprocess.run([sys.executable, "-c", "import os; print(os.environ.get('MALLOC_ARENA_MAX'))"],
                       capture_output=True, text=True, check=True).stdout.strip()
print(before, child)
"""


def test_a_run_caps_arenas_for_itself_and_its_children(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != ENV}
    env["OMOIDE_HOME"] = str(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(tmp_path)], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["None", str(ARENAS)]
