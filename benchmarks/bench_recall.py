"""Recall p50/p95 at 10k and 100k memories vs a bare LanceDB vector query, and ingest rates: one JSON object."""

import json

from omoide.bench.recall import run_benchmark

if __name__ == "__main__":
    print(json.dumps(run_benchmark(), indent=2))
