"""-> the environment switches that keep every dependency from phoning home, applied wherever omoide starts.

Nothing may leave the machine except to the hosts the user configures. Prefect, Great
Expectations and the Hugging Face hub (which `tokenizers` can reach) each have their own
switch, and `DO_NOT_TRACK` is not enough for all of them; onnxruntime is also told in
code (`omoide.embed.minilm`). `tests/flows/test_no_network.py` runs the pipeline under
strace and fails on any connection or DNS lookup beyond loopback.
"""

from __future__ import annotations

import os

OFFLINE_ENV = {
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY": "false",
    "PREFECT_TELEMETRY_ENABLE_RESOURCE_METRICS": "false",
    "GX_ANALYTICS_ENABLED": "false",
    "HF_HUB_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "ORT_DISABLE_TELEMETRY": "1",
}


def go_offline() -> None:
    """-> every telemetry and download switch set in os.environ (forced, whatever was there)."""
    os.environ.update(OFFLINE_ENV)
