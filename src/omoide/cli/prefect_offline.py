"""`python -m omoide.cli.prefect_offline ARGS` -> `prefect ARGS` whose server never fetches from the internet.

Prefect's server answers `/collections/views/*` (asked by `prefect work-pool create`, `prefect
deploy` and the UI) by downloading JSON from raw.githubusercontent.com, falling back to the copy it
ships only when that fails; no setting turns the download off. `omoide server` runs Prefect
through this module, so those views come from the shipped copies alone, and so that its app
answers only requests addressed to itself (cli/host_guard.py: no Prefect setting checks `Host`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


async def local_collection_view(view: str) -> dict[str, Any]:
    """A collection view's name -> its copy shipped with Prefect (KeyError when there is none)."""
    import prefect.server.api.collections as collections

    path = Path(collections.__file__).parent / "collections_data" / "views" / f"{view}.json"
    if view not in collections.KNOWN_VIEWS or not path.is_file():
        raise KeyError(view)  # the endpoint answers 404
    return json.loads(path.read_text(encoding="utf-8"))


def install() -> None:
    """-> Prefect's server reading collection views from its shipped copies only, its app behind
    omoide's Host and Origin check."""
    import prefect.server.api.collections as collections
    import prefect.server.api.server as server

    from omoide.cli.host_guard import guard

    # The endpoint looks the function up in its module at each call: replacing it there suffices.
    collections.get_collection_view = local_collection_view
    # `prefect server start` imports create_app from its module when it starts serving.
    server.create_app = guard(server.create_app)


def main() -> None:
    """Command line -> Prefect's own CLI run with the offline collection views installed."""
    install()
    from prefect.cli import app

    app()


if __name__ == "__main__":
    main()
