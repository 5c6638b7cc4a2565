"""`omoide recall` / `omoide ask` -> asked first of the home's running recall endpoint; None when none answers.

A fresh process pays about a second to import LanceDB and load the embedding model before it
can search; `omoide server` keeps both loaded and answers on a loopback port
(`omoide.cli.recall_endpoint`). This side runs before the command imports anything heavy:
standard library only (http.client, json), so a command that finds no endpoint has lost a
file read and, at worst, a refused connection. Anything unexpected — no file, a dead or
foreign port, a wrong token, another configuration, a timeout — is None: the command then
answers in its own process, with the same output.
"""

from __future__ import annotations

import http.client
import json
import os
from pathlib import Path
from typing import Any

from omoide.core.errors import OmoideError
from omoide.core.home import home_from_env

ENDPOINT_FILE = "recall-endpoint.json"  # under OMOIDE_HOME/state while `omoide server` runs
PATH = "/v1/answer"
# Loopback connects at once or is refused; a port nobody serves must not cost a second.
CONNECT_TIMEOUT_S = 0.5
# A warm recall takes tens of milliseconds; a long wait means a stuck endpoint, and the
# command is better off answering itself.
ANSWER_TIMEOUT_S = 10.0


def endpoint_file(home: Path) -> Path:
    """OMOIDE_HOME -> the private file naming the running endpoint's port and token."""
    return home / "state" / ENDPOINT_FILE


def configuration() -> dict[str, str]:
    """Environment -> the OMOIDE_* variables that shape an answer (OMOIDE_HOME is compared resolved, apart)."""
    return {k: v for k, v in os.environ.items() if k.startswith("OMOIDE_") and k != "OMOIDE_HOME"}


def _record(home: Path) -> tuple[int, str] | None:
    """OMOIDE_HOME -> the port and token its endpoint file names, or None without a readable one."""
    try:
        record = json.loads(endpoint_file(home).read_text(encoding="utf-8"))
        return int(record["port"]), str(record["token"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def running_endpoint(home: Path) -> int | None:
    """OMOIDE_HOME -> the port of the endpoint its file names when something listens there, else None."""
    import socket

    named = _record(home)
    if named is None:
        return None
    try:
        with socket.create_connection(("127.0.0.1", named[0]), timeout=CONNECT_TIMEOUT_S):
            return named[0]
    except OSError:
        return None


def answered(command: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """Command ("recall", "ask") + its parameters -> the endpoint's {"result", "timezone"}, or None (answer here).

    A domain error the endpoint met (no memories yet, a bad --since) is raised as it would
    be in this process.
    """
    home = home_from_env()
    named = _record(home)
    if named is None:
        return None
    port, token = named
    request = {"command": command, "params": params, "home": str(home), "env": configuration()}
    found = _post(port, token, json.dumps(request).encode())
    if found is None or not isinstance(found, dict):
        return None
    if "error" in found:
        raise OmoideError(str(found["error"]))
    return found if "result" in found and "timezone" in found else None


def _post(port: int, token: str, body: bytes) -> Any:
    """Loopback port + token + a JSON body -> the endpoint's parsed answer, or None on any failure."""
    # Only ever 127.0.0.1, whatever the file says; http.client reads no proxy settings.
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CONNECT_TIMEOUT_S)
    try:
        connection.connect()
        connection.sock.settimeout(ANSWER_TIMEOUT_S)
        connection.request(
            "POST",
            PATH,
            body=body,
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        response = connection.getresponse()
        payload = response.read()
        if response.status != 200:
            return None
        return json.loads(payload)
    except (OSError, http.client.HTTPException, ValueError):
        return None
    finally:
        connection.close()
