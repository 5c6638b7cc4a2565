"""Where the lake and LanceDB live: a local folder (default) or an object-store URI (`storage_uri`).

A local store is a `pathlib.Path`, exactly as before. An object store (`s3://bucket/prefix`,
`gs://…`, `abfs://…`: whatever pyarrow's `FileSystem.from_uri` reads) is a `Remote`: the URI
of one object or prefix, with the handful of `Path` methods the lake and the LanceDB code
call (`/`, `name`, `exists`, `is_dir`, `glob`, `stat`, `unlink`, `mkdir`). pyarrow has
filesystems but no path object over them, and these few methods are what lets the lake's
code stay one code path for both; a Remote holds only its URI (the filesystem is built once
per bucket and cached), so it pickles and hashes like a Path for Prefect and Dask.

Credentials and the endpoint come from the usual environment variables (`AWS_ACCESS_KEY_ID`,
`AWS_SECRET_ACCESS_KEY`, `AWS_DEFAULT_REGION`, `AWS_ENDPOINT_URL`), read by pyarrow and by
LanceDB's object store themselves. Writes to an object store are single PUTs of a finished
object, so a reader sees the old object or the new one, never half of one: the object
store's own atomicity stands in for a local temp file + rename.
"""

from __future__ import annotations

import fnmatch
import functools
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, cast
from urllib.parse import urlsplit

from omoide.core.errors import StoreUnavailableError
from omoide.core.files import write_parquet_atomic

if TYPE_CHECKING:
    import pyarrow as pa
    import pyarrow.fs as pafs


@dataclass(frozen=True)
class RemoteStat:
    """What the lake reads of a stored object: its size and modification time."""

    st_size: int
    st_mtime_ns: int


@dataclass(frozen=True, order=True)
class Remote:
    """An object or prefix in an object store, named by URI ("s3://bucket/prefix/lake")."""

    uri: str

    def __str__(self) -> str:
        return self.uri

    def __truediv__(self, part: str) -> Remote:
        return Remote(f"{self.uri.rstrip('/')}/{part}")

    @property
    def name(self) -> str:
        """-> the last part of the URI."""
        return self.uri.rstrip("/").rsplit("/", 1)[-1]

    @property
    def parent(self) -> Remote:
        """-> the URI one part up."""
        return Remote(self.uri.rstrip("/").rsplit("/", 1)[0])

    @property
    def fs(self) -> pafs.FileSystem:
        """-> the pyarrow filesystem of this URI's bucket (one per scheme and bucket)."""
        parts = urlsplit(self.uri)
        with reaching(self):
            return _filesystem(f"{parts.scheme}://{parts.netloc}", _endpoint())

    @property
    def path(self) -> str:
        """-> the path inside the filesystem ("bucket/prefix/lake"), as pyarrow names it."""
        parts = urlsplit(self.uri)
        return f"{parts.netloc}{parts.path}".rstrip("/")

    def _info(self) -> Any:
        """-> pyarrow's FileInfo for this URI."""
        with reaching(self):
            return self.fs.get_file_info(self.path)

    def exists(self) -> bool:
        """-> whether an object or a non-empty prefix has this name."""
        from pyarrow.fs import FileType

        return bool(self._info().type != FileType.NotFound)

    def is_dir(self) -> bool:
        """-> whether this is a prefix that holds objects."""
        from pyarrow.fs import FileType

        return bool(self._info().type == FileType.Directory)

    def stat(self) -> RemoteStat:
        """-> the object's size and modification time (nanoseconds)."""
        info = self._info()
        return RemoteStat(int(info.size or 0), int(info.mtime_ns or 0))

    def glob(self, pattern: str) -> list[Remote]:
        """A one-level name pattern ("*.parquet", "day=*") -> the children matching it, sorted."""
        from pyarrow.fs import FileSelector

        if "/" in pattern:
            raise ValueError(f"only one-level patterns on object storage, got {pattern!r}")
        with reaching(self):
            found = self.fs.get_file_info(FileSelector(self.path, allow_not_found=True))
        names = sorted(i.base_name for i in found if fnmatch.fnmatchcase(i.base_name, pattern))
        return [self / n for n in names]

    def files(self) -> list[Remote]:
        """-> every object under this prefix, at any depth, sorted."""
        from pyarrow.fs import FileSelector, FileType

        with reaching(self):
            found = self.fs.get_file_info(
                FileSelector(self.path, recursive=True, allow_not_found=True)
            )
        bucket = urlsplit(self.uri)
        return sorted(
            Remote(f"{bucket.scheme}://{i.path}") for i in found if i.type == FileType.File
        )

    def mkdir(self, parents: bool = True, exist_ok: bool = True, mode: int = 0o700) -> None:
        """Object stores have no folders: a prefix exists once an object is put under it."""

    def unlink(self, missing_ok: bool = False) -> None:
        """The object -> deleted."""
        if missing_ok and not self.exists():
            return
        with reaching(self):
            self.fs.delete_file(self.path)

    def read_bytes(self) -> bytes:
        """-> the object's bytes."""
        with reaching(self), self.fs.open_input_stream(self.path) as f:
            return bytes(f.read())

    def write_bytes(self, data: bytes) -> int:
        """Bytes -> the object, put whole (readers see the old object or the new one)."""
        with reaching(self), self.fs.open_output_stream(self.path) as f:
            f.write(data)
        return len(data)


StorePath = Path | Remote


@contextmanager
def reaching(where: Remote) -> Iterator[None]:
    """A request to an object store -> its failure as a StoreUnavailableError naming the URI."""
    try:
        yield
    except OSError as exc:
        raise StoreUnavailableError(f"object store {where}: {exc}") from exc


def is_remote(uri: str | None) -> bool:
    """A `storage_uri` setting -> whether it names an object store rather than a local folder."""
    scheme = urlsplit(str(uri or "")).scheme
    # One letter is a Windows drive ("C:\\omoide"), not an object store.
    return len(scheme) > 1 and scheme != "file"


def store_root(uri: str | None, home: Path) -> StorePath:
    """`storage_uri` (None, a path relative to home or absolute, file://…, an object-store URI) + home -> the store's root."""
    if not uri:
        return home
    if is_remote(uri):
        return Remote(uri.rstrip("/"))
    local = urlsplit(uri).path if uri.startswith("file://") else uri
    return (home / Path(local).expanduser()).resolve()


def lancedb_options(path: StorePath) -> dict[str, str]:
    """A LanceDB folder -> the storage options LanceDB's object store needs for it.

    LanceDB reads the AWS variables itself; it refuses a plain-HTTP endpoint (a loopback
    MinIO or test server) unless told it is allowed, which pyarrow accepts without asking.
    """
    if not isinstance(path, Remote):
        return {}
    return {"allow_http": "true"} if _endpoint().startswith("http://") else {}


def _endpoint() -> str:
    """-> the S3 endpoint the environment names ("" for AWS itself)."""
    return os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL", "")


@functools.cache
def _filesystem(bucket_uri: str, endpoint: str) -> pafs.FileSystem:
    """ "s3://bucket" + the endpoint in force -> pyarrow's filesystem (credentials from the environment).

    pyarrow reads the endpoint from the environment itself; it is an argument so that a
    changed endpoint gets a new filesystem instead of the cached one.
    """
    from pyarrow.fs import FileSystem

    fs, _ = FileSystem.from_uri(bucket_uri)
    return fs


def write_parquet(table: pa.Table, path: StorePath) -> StorePath:
    """Arrow table -> parquet at a store path: a local temp file + rename, or one whole PUT."""
    if not isinstance(path, Remote):
        return write_parquet_atomic(table, path)
    import pyarrow as pa
    import pyarrow.parquet as pq

    # Serialised in memory first, so a failure while encoding never reaches the store.
    buf = pa.BufferOutputStream()
    pq.write_table(table, buf, compression="zstd")
    path.write_bytes(buf.getvalue().to_pybytes())
    return path


def read_parquet(
    path: StorePath,
    schema: pa.Schema | None = None,
    columns: list[str] | None = None,
    filters: list[tuple[str, str, Any]] | None = None,
) -> pa.Table:
    """Parquet at a store path (+ the schema to read it in, the columns and the rows wanted) -> Arrow table."""
    import pyarrow.parquet as pq

    if not isinstance(path, Remote):
        return pq.read_table(path, schema=schema, columns=columns, filters=filters)
    with reaching(path):
        return pq.read_table(
            path.path, schema=schema, columns=columns, filters=filters, filesystem=path.fs
        )


def size_under(folder: StorePath) -> int:
    """A folder or prefix -> the bytes of every file under it."""
    return sum(f.stat().st_size for f in files_under(folder))


def files_under(folder: StorePath) -> list[StorePath]:
    """A folder or prefix -> every file under it, sorted ([] when there is none)."""
    if isinstance(folder, Remote):
        return list(folder.files())
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.is_dir() else []


def relative_name(path: StorePath, root: StorePath) -> str:
    """A file + a folder above it -> the file's name inside the folder, with "/" separators."""
    if isinstance(path, Remote) and isinstance(root, Remote):
        return path.uri.removeprefix(root.uri.rstrip("/") + "/")
    if isinstance(path, Path) and isinstance(root, Path):
        return path.relative_to(root).as_posix()
    raise ValueError(f"{path} and {root} are not in the same store")


def open_read(path: StorePath) -> BinaryIO:
    """A file -> opened for reading bytes."""
    if isinstance(path, Remote):
        return cast(BinaryIO, path.fs.open_input_stream(path.path))
    return path.open("rb")


def upload_folder(source: Path, target: StorePath) -> None:
    """A local folder -> its files copied under target, keeping their names (target a Remote)."""
    import pyarrow.fs as pafs

    if not isinstance(target, Remote):
        raise ValueError(f"{target} is a local folder: move it instead")
    pafs.copy_files(
        str(source),
        target.path,
        source_filesystem=pafs.LocalFileSystem(),
        destination_filesystem=target.fs,
    )
