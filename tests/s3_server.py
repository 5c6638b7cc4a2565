"""A real S3-compatible server (moto in server mode) on loopback, for the object-storage tests."""

from __future__ import annotations

import functools
import threading
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import boto3
from moto.s3.responses import S3Response
from moto.server import ThreadedMotoServer

BUCKET = "memory"


@functools.cache
def _atomic_puts() -> None:
    """Make moto's PutObject one step, as S3's is.

    moto checks a conditional PUT's precondition (If-None-Match: *, If-Match) and then
    stores the object as two steps, and its server answers on many threads: two writers
    committing the same LanceDB version can both pass the check, and one commit is lost
    (seen as a lost append under load). S3 itself applies the condition atomically, which
    is what LanceDB's commit relies on; one lock around the whole request gives that.
    """
    put: Callable[[S3Response], Any] = S3Response.put_object
    lock = threading.Lock()

    @functools.wraps(put)
    def atomic(self: S3Response) -> Any:
        with lock:
            return put(self)

    S3Response.put_object = atomic  # type: ignore[method-assign]


@contextmanager
def s3_server() -> Iterator[dict[str, str]]:
    """-> the AWS_* variables of a fresh S3 server on 127.0.0.1 holding one empty bucket, BUCKET."""
    _atomic_puts()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    # moto keeps its buckets in process-wide memory: start from none, whatever ran before.
    urllib.request.urlopen(
        urllib.request.Request(f"http://{host}:{port}/moto-api/reset", method="POST"), timeout=30
    ).close()
    env = {
        "AWS_ENDPOINT_URL": f"http://{host}:{port}",
        "AWS_ACCESS_KEY_ID": "omoide-test",
        "AWS_SECRET_ACCESS_KEY": "omoide-test-secret",
        "AWS_DEFAULT_REGION": "us-east-1",
    }
    client(env).create_bucket(Bucket=BUCKET)
    try:
        yield env
    finally:
        server.stop()


def client(env: dict[str, str]) -> Any:
    """The server's AWS_* variables -> a boto3 S3 client for it."""
    return boto3.client(
        "s3",
        endpoint_url=env["AWS_ENDPOINT_URL"],
        aws_access_key_id=env["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=env["AWS_SECRET_ACCESS_KEY"],
        region_name=env["AWS_DEFAULT_REGION"],
    )


def keys(env: dict[str, str], prefix: str) -> list[str]:
    """The server's AWS_* variables + a key prefix -> every object key under it in BUCKET."""
    pages = client(env).get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix)
    return [o["Key"] for page in pages for o in page.get("Contents", [])]
