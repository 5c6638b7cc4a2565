"""Module names -> modules that a dependency imports at load time but only runs on rare paths, loaded on first use.

Great Expectations imports SciPy's statistics, Altair and boto3 when it is imported (for
expectations and stores omoide never uses): ~1.5 s of every pipeline command. A deferred
module stands in `sys.modules` and runs its real code the first time anything of it is
read, so code that does use it still gets it whole.

Why not `importlib.util.LazyLoader`: under Python 3.11 the import system reads `__spec__`
of a module it finds in `sys.modules` (`from scipy import stats` does), and LazyLoader
loads on that read, so nothing would be deferred. Its loading is also not guarded against
two threads (before 3.12), which this is.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types

# Read by the import system and by `repr` without using the module: never a reason to load it.
_BOOKKEEPING = frozenset(
    {
        "__spec__",
        "__name__",
        "__loader__",
        "__path__",
        "__file__",
        "__package__",
        "__class__",
        "__dict__",
    }
)
_lock = threading.RLock()
_loading: dict[str, int] = {}  # module name -> the thread running its code


class _Deferred(types.ModuleType):
    """A module whose code has not run yet: the first read of an attribute runs it."""

    def __getattribute__(self, attr: str) -> object:
        """Attribute name -> its value, after the module's code has run (once, in one thread)."""
        name = super().__getattribute__("__name__")
        if attr in _BOOKKEEPING or _loading.get(name) == threading.get_ident():
            return super().__getattribute__(attr)
        with _lock:
            if type(self) is _Deferred:
                _load(self, name)
        return getattr(self, attr)


def _load(module: types.ModuleType, name: str) -> None:
    """Deferred module + its name -> its code run as an import would, bound to its parent package."""
    spec = module.__spec__
    assert spec is not None and spec.loader is not None
    _loading[name] = threading.get_ident()
    try:
        spec.loader.exec_module(module)
    finally:
        del _loading[name]
    module.__class__ = types.ModuleType
    parent, _, child = name.rpartition(".")
    if parent in sys.modules:
        setattr(sys.modules[parent], child, module)


def defer(*names: str) -> list[str]:
    """Module names -> those now deferred (a name already imported, or not installed, is left alone)."""
    deferred = []
    with _lock:
        for name in names:
            if name in sys.modules:
                continue
            try:
                spec = importlib.util.find_spec(name)
            except ImportError:  # its parent package is not installed
                continue
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            module.__class__ = _Deferred
            sys.modules[name] = module
            deferred.append(name)
    return deferred
