"""No network, proven at the system-call level: the whole pipeline connects to nothing beyond loopback.

Blocking Python sockets cannot see a native library (onnxruntime, a DNS resolver) reaching
out, so the run is traced with strace, which sees every connect/sendto of every process
the command starts (Prefect's server included). strace was chosen over a network
namespace because it names what was attempted (address, port) instead of only making it
fail, and it needs no privileges beyond tracing one's own children, which CI has.
"""

from __future__ import annotations

import functools
import ipaddress
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from omoide.cli.recall_route import endpoint_file
from omoide.sample import write_sample

DAY = "2026-11-20"
_INET = re.compile(r'sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)')
_INET6 = re.compile(r'sin6_port=htons\((\d+)\).*?inet_pton\(AF_INET6, "([^"]+)"')


@functools.cache
def _seccomp() -> list[str]:
    """-> strace's seccomp-bpf option where this strace and kernel support it, else nothing."""
    probe = ["strace", "-f", "--seccomp-bpf", "-qq", "-o", os.devnull, "true"]
    return ["--seccomp-bpf"] if subprocess.run(probe, capture_output=True).returncode == 0 else []


def strace(trace: Path) -> list[str]:
    """Output file -> the strace command line that records every connect and send to it."""
    # seccomp-bpf stops a process only at the traced calls instead of at every system call:
    # the same calls are recorded, and a traced backfill takes 32 s instead of 107 s here.
    return [
        *("strace", "-f", *_seccomp(), "-qq"),
        *("-e", "trace=connect,sendto,sendmsg,sendmmsg", "-o", str(trace)),
    ]


def offending(trace: str) -> list[str]:
    """strace output -> the calls that reach beyond loopback, or ask a DNS server anything."""
    bad = []
    for line in trace.splitlines():
        for port, address in [*_INET.findall(line), *_INET6.findall(line)]:
            ip = ipaddress.ip_address(address)
            ip = getattr(ip, "ipv4_mapped", None) or ip
            if not ip.is_loopback or int(port) == 53:
                bad.append(line.strip())
    return bad


def test_the_parser_sees_what_it_must() -> None:
    trace = "\n".join(
        [
            '12 connect(5, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("20.42.65.92")}, 16) = -1',
            '12 sendto(6, "q", 1, 0, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}, 16) = 1',
            '13 connect(7, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0}, 28) = 0',
            '14 connect(8, {sa_family=AF_INET, sin_port=htons(4200), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
            '15 connect(9, {sa_family=AF_UNIX, sun_path="/run/x"}, 110) = 0',
        ]
    )
    assert len(offending(trace)) == 3


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
@pytest.mark.parametrize("options", [(), ("--dask",)], ids=["in-process", "dask"])
def test_a_backfill_connects_to_nothing_beyond_loopback(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    """The backfill as is, and on a local Dask cluster (its scheduler, workers and nannies)."""
    home = tmp_path / "home"
    write_sample(home, days=1)
    trace = tmp_path / "trace"
    # A fresh home as a user has it: Prefect's home and results under OMOIDE_HOME.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "OMOIDE_"))}
    env["OMOIDE_HOME"] = str(home)
    run = subprocess.run(
        [
            *strace(trace),
            sys.executable,
            "-c",
            "from omoide.cli.app import main; main()",
            "backfill",
            "--start",
            DAY,
            "--end",
            DAY,
            *options,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    text = trace.read_text(errors="replace")
    assert "connect(" in text  # the trace saw the run's own loopback traffic (Prefect's API)
    assert offending(text) == []


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_the_recall_endpoint_and_a_command_it_answers_connect_to_nothing_beyond_loopback(
    home_with_memories: Path, tmp_path: Path
) -> None:
    """What `omoide server` runs to answer `omoide recall`, traced from its start, and a recall through it."""
    served_trace, command_trace = tmp_path / "endpoint.trace", tmp_path / "command.trace"
    env = {**os.environ, "OMOIDE_HOME": str(home_with_memories)}
    endpoint = subprocess.Popen(
        [*strace(served_trace), sys.executable, "-m", "omoide.cli.recall_endpoint"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # strace does not pass a SIGTERM on: the group gets it
    )
    try:
        assert endpoint.stdout is not None and "recall endpoint" in endpoint.stdout.readline()
        port = endpoint_file(home_with_memories).read_text().split('"port": ')[1].split(",")[0]
        recall = [sys.executable, "-c", "from omoide.cli.app import main; main()", "recall"]
        run = subprocess.run(
            [*strace(command_trace), *recall, "sourdough", "--json"],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
    finally:
        os.killpg(endpoint.pid, signal.SIGTERM)
        try:
            endpoint.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(endpoint.pid, signal.SIGKILL)
            endpoint.wait()
    assert run.returncode == 0 and "sourdough" in run.stdout, run.stderr[-2000:]
    asked = command_trace.read_text(errors="replace")
    assert f"sin_port=htons({port})" in asked  # it was answered through the endpoint
    assert offending(asked + served_trace.read_text(errors="replace")) == []
