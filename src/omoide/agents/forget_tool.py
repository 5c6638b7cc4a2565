"""The agent's `forget`: a dry run answered in-process; a confirmed one runs `omoide forget --yes` itself.

The MCP server never loads Prefect, and a forget re-makes the touched days through the
backfill flow, so a confirmed forget is the very command a person would type, in a child
process; its receipt (JSON) is the answer.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from omoide.core.days import parse_day
from omoide.core.errors import OmoideError
from omoide.core.settings import Settings
from omoide.forget.cascade import preview
from omoide.forget.select import Selector

OPTIONS = ("day", "since", "until", "source", "domain", "url", "entity", "memory", "match")
FORGET_TIMEOUT_S = 3600


def forget_answer(
    settings: Settings, chosen: dict[str, str | None], confirm: bool
) -> dict[str, Any]:
    """Settings + selector options (+ confirm) -> what would go (dry run), or the receipt of the forget."""
    given = {k: v for k, v in chosen.items() if v not in (None, "")}
    unknown = set(given) - set(OPTIONS)
    if unknown:
        raise OmoideError(f"unknown forget option(s): {', '.join(sorted(unknown))}")
    day = given.get("day")
    if day and (given.get("since") or given.get("until")):
        raise OmoideError("give either day, or since/until")
    since, until = given.get("since") or day, given.get("until") or day
    selector = Selector(
        since=parse_day(since) if since else None,
        until=parse_day(until) if until else None,
        **{k: given.get(k) for k in ("source", "domain", "url", "entity", "memory", "match")},
    )
    if not confirm:
        _, plan = preview(settings, selector)
        return {"dry_run": True, **plan, "to_forget": "call forget again with confirm=true"}
    args = [arg for k, v in given.items() for arg in (f"--{k}", v)]
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from omoide.cli.app import main; main()",
            "forget",
            *args,
            "--yes",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=FORGET_TIMEOUT_S,
    )
    lines = done.stdout.strip().splitlines()
    if not lines:
        raise OmoideError(f"omoide forget failed: {' '.join(done.stderr.split())[-600:]}")
    receipt = json.loads(lines[-1])
    if done.returncode != 0:
        receipt["error"] = " ".join(done.stderr.split())[-600:]
    return receipt
