"""-> glibc's malloc held to two arenas in the processes that run the pipeline, so a long backfill's memory stops creeping.

A backfill's threads (Prefect's task runner, onnxruntime, Arrow) each get a glibc arena of
their own, up to eight per core. Memory freed in one arena is not reused by another, so a
long run's resident size grew by ~4 MB a day though nothing live grew (memray). Two arenas:
a 150-day backfill peaked at 1,438 MB against 1,815 MB, in the same time (docs/benchmarks.md).
Recall is left as it is: with two arenas it took ~10 % longer (threads wait on the arena locks).

There is no kept library for `mallopt`, hence ctypes. The environment variable carries the
same limit to the processes a run starts (Prefect's server, Dask workers, `serve`'s runs); a limit the
user set themselves is left as it is.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import platform

ARENAS = 2
ENV = "MALLOC_ARENA_MAX"
_M_ARENA_MAX = -8  # from glibc's malloc.h


def cap_malloc_arenas(arenas: int = ARENAS) -> bool:
    """Arena count -> whether glibc's limit was set for this process and its children (False: not glibc, or a limit is already in the environment)."""
    if ENV in os.environ or platform.libc_ver()[0] != "glibc":
        return False
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    if ctypes.CDLL(name).mallopt(_M_ARENA_MAX, arenas) != 1:  # mallopt returns 1 on success
        return False
    os.environ[ENV] = str(arenas)
    return True
