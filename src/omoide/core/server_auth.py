"""OMOIDE_HOME -> the secret its loopback servers ask for, and the hosts and origins they answer.

A server on 127.0.0.1 is reachable from every web page the person opens: a page's script can
send it requests (CORS only hides the answers), and a page whose name is rebound to 127.0.0.1 is
not even cross-origin. So Prefect's server asks for an auth string kept in the home (readable by
the owner alone), and both it and the recall endpoint answer only requests addressed to
themselves by name (`Host`) from no page or their own (`Origin`).
"""

from __future__ import annotations

import os
import secrets
import time
from pathlib import Path

from omoide.core.files import private_dir

AUTH_FILE = "prefect-auth"  # under OMOIDE_HOME/state
USER = "omoide"  # Prefect's auth string is "user:password"; the UI's login takes it whole
LOOPBACK_NAMES = ("127.0.0.1", "localhost")
_READ_TRIES = 50  # another process may be between creating the file and its rename


def auth_path(home: Path) -> Path:
    """OMOIDE_HOME -> the file holding its Prefect server's auth string."""
    return home / "state" / AUTH_FILE


def auth_string(home: Path) -> str:
    """OMOIDE_HOME -> its Prefect auth string ("omoide:<random>"), made once (0600) on first use."""
    path = auth_path(home)
    for _ in range(_READ_TRIES):
        try:
            text = path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            _create(path)
            continue
        if text.startswith(f"{USER}:") and len(text) > len(USER) + 16:
            return text
        # Damaged or emptied by hand: a new secret (the next server start uses it).
        path.unlink(missing_ok=True)
        time.sleep(0.01)
    raise OSError(f"cannot read or create {path}")


def _create(path: Path) -> None:
    """Path -> a new secret there unless another process made one first (link, never overwrite)."""
    private_dir(path.parent)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, f"{USER}:{secrets.token_urlsafe(32)}\n".encode("ascii"))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # atomic and fails when it exists: two first starts agree on one secret
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)


def allowed_hosts(port: int) -> frozenset[str]:
    """Port -> the Host header values a loopback server on it answers."""
    return frozenset(f"{name}:{port}" for name in LOOPBACK_NAMES)


def own_origins(port: int) -> tuple[str, ...]:
    """Port -> the origins of the pages it serves itself (Prefect's UI)."""
    return tuple(f"http://{name}:{port}" for name in LOOPBACK_NAMES)


def refusal(port: int, host: str | None, origin: str | None) -> str | None:
    """Port + a request's Host and Origin -> why it is refused, or None when it is the server's own."""
    if host is None or host.lower() not in allowed_hosts(port):
        return "unknown host"
    if origin is not None and origin.lower() not in own_origins(port):
        return "foreign origin"
    return None
