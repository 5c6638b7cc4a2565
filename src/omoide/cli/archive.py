"""`omoide export` and `omoide import`: a home to one portable archive and back, or a fine-tuning set."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from omoide.core.days import parse_day
from omoide.core.errors import OmoideError

out = Console()


class ExportFormat(StrEnum):
    """What `omoide export` writes."""

    archive = "archive"
    chat_jsonl = "chat-jsonl"


def export_command(
    out_file: Annotated[Path, typer.Option("--out", help="The file to write.")],
    format: Annotated[
        ExportFormat,
        typer.Option(
            help="archive: the whole home as one zip; chat-jsonl: your own notes and chat "
            "turns as a chat-messages fine-tuning set."
        ),
    ] = ExportFormat.archive,
    since: Annotated[str | None, typer.Option(help="chat-jsonl: from this day on.")] = None,
    until: Annotated[str | None, typer.Option(help="chat-jsonl: up to this day.")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print what was written as JSON.")
    ] = False,
) -> None:
    """Write this home to one portable archive (or your own writing as chat-messages JSONL)."""
    from omoide.cli.runtime import writing
    from omoide.core.files import write_text_atomic
    from omoide.core.settings import get_settings

    settings = get_settings()
    out_file = out_file.expanduser().resolve()
    if format is ExportFormat.chat_jsonl:
        from omoide.archive.chat_jsonl import chat_jsonl_lines

        first = parse_day(since) if since else None
        last = parse_day(until) if until else None
        lines = list(chat_jsonl_lines(settings, first, last))
        write_text_atomic("".join(lines), out_file)
        report = {"out": str(out_file), "format": format.value, "examples": len(lines)}
    else:
        if since or until:
            raise OmoideError("--since/--until are for --format chat-jsonl; an archive holds all")
        from omoide.archive.export import export_home

        # The writer lock keeps a backfill from changing the home halfway through the copy.
        with writing(settings, "omoide export"):
            manifest = export_home(settings, out_file)
        report = {
            "out": str(out_file),
            "format": format.value,
            "bytes": out_file.stat().st_size,
            "embed_model": manifest["embed_model"],
            "counts": manifest["counts"],
        }
    _show(report, as_json)


def import_command(
    archive: Annotated[Path, typer.Argument(help="An archive written by `omoide export`.")],
    as_json: Annotated[
        bool, typer.Option("--json", help="Print what was restored as JSON.")
    ] = False,
) -> None:
    """Fill an empty home (OMOIDE_HOME) from an `omoide export` archive; re-embeds if the model differs."""
    import zipfile

    from omoide.archive.restore import import_home, read_manifest, restore_config
    from omoide.cli.runtime import writing
    from omoide.core.settings import get_settings
    from omoide.embed import get_embedder
    from omoide.embed.cache import CachedEmbedder

    archive = archive.expanduser().resolve()
    home = get_settings().home
    try:
        zf = zipfile.ZipFile(archive)
    except (OSError, zipfile.BadZipFile) as exc:
        raise OmoideError(f"{archive}: cannot be read as an omoide archive ({exc})") from None
    with zf:
        manifest = read_manifest(zf, archive)
        with writing(get_settings(), "omoide import"):
            placed = restore_config(zf, manifest, archive, home)
            settings = get_settings()  # the archive's omoide.toml, when the home had none
            try:
                embedder = CachedEmbedder(
                    get_embedder(settings.embed, settings.llm.host), settings.cache_dir
                )
                counts = import_home(settings, zf, manifest, archive, embedder)
            except BaseException:
                if placed:
                    (home / "omoide.toml").unlink(missing_ok=True)
                raise
    report = {
        "home": str(home),
        "config_restored": placed,
        "embed_model": manifest["embed_model"],
        "counts": counts,
    }
    _show(report, as_json)


def _show(report: dict[str, object], as_json: bool) -> None:
    """Report -> printed as JSON or as a few lines."""
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
        return
    for key, value in report.items():
        out.print(f"{key}: {value}", highlight=False, soft_wrap=True)
