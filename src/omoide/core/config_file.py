"""omoide.toml read strictly: a syntax error or an unknown key becomes one line naming the file, line or key."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from difflib import get_close_matches
from pathlib import Path
from typing import Any, get_args, get_origin

from pydantic import BaseModel
from pydantic_settings import BaseSettings, TomlConfigSettingsSource

from omoide.core.errors import ConfigError

ENV_PREFIX = "OMOIDE_"
_AT = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")
# tomllib's words for what is almost always an unclosed quote.
_UNCLOSED = ("Illegal character '\\n'", "Unterminated string")


def toml_source(settings_cls: type[BaseSettings], toml: Path) -> TomlConfigSettingsSource:
    """Settings class + omoide.toml -> its settings source; ConfigError naming the file on a syntax error or unknown key."""
    try:
        source = TomlConfigSettingsSource(settings_cls, toml_file=toml)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(syntax_message(toml, exc)) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{toml} is not UTF-8 text (byte {exc.start}): save it as UTF-8") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read {toml}: {exc.strerror or exc}") from exc
    unknown = unknown_keys(source.toml_data, settings_cls)
    if unknown:
        raise ConfigError(unknown_message(unknown, toml, list(settings_cls.model_fields)))
    return source


def syntax_message(toml: Path, exc: tomllib.TOMLDecodeError) -> str:
    """File + tomllib's error -> 'invalid TOML in FILE at line L, column C: what' (a hint for an unclosed quote)."""
    text = str(exc)
    found = _AT.search(text)
    what = _AT.sub("", text)
    if found is None:
        where = ""
    elif found.group(1):
        where = f" at line {found.group(1)}, column {found.group(2)}"
    else:
        where = f" at its end (line {_line_count(toml)})"
    hint = " (a quote left open?)" if what.startswith(_UNCLOSED) else ""
    return f"invalid TOML in {toml}{where}: {what}{hint}"


def _line_count(toml: Path) -> int:
    """File -> how many lines it has (the line an error 'at end of document' is on)."""
    try:
        return max(1, len(toml.read_bytes().splitlines()))
    except OSError:
        return 1


def unknown_keys(
    data: Mapping[str, Any], model: type[BaseModel], table: str = ""
) -> list[tuple[str, str, list[str]]]:
    """A TOML document (or table) + the model it configures -> (table, key, known keys) for each key the model lacks.

    Top-level names match whatever their case, as pydantic-settings reads them; names in a
    table match exactly, as pydantic reads a nested model.
    """
    fields = model.model_fields
    top = issubclass(model, BaseSettings)
    by_name = {(n.lower() if top else n): n for n in fields}
    found: list[tuple[str, str, list[str]]] = []
    for key, value in data.items():
        name = by_name.get(key.lower() if top else key)
        if name is None:
            found.append((table, key, list(fields)))
            continue
        inner, many = _table_model(fields[name].annotation)
        if inner is None:
            continue
        if not many and isinstance(value, Mapping):
            found += unknown_keys(value, inner, f"[{name}]")
        elif many and isinstance(value, list):
            for i, item in enumerate(value, 1):
                if isinstance(item, Mapping):
                    found += unknown_keys(item, inner, f"[[{name}]] table {i}")
    return found


def _table_model(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """A field's type -> the model a TOML table of it holds, and whether it is an array of tables."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation, False
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        if isinstance(item, type) and issubclass(item, BaseModel):
            return item, True
    return None, False


def unknown_message(
    unknown: list[tuple[str, str, list[str]]], toml: Path, top_level: list[str]
) -> str:
    """(table, key, known keys) of each unknown key + the file + the top-level keys -> one line naming each, with the closest valid key."""
    parts = []
    for table, key, known in unknown:
        where = f"{table} of {toml}" if table else str(toml)
        close = get_close_matches(key.lower() if not table else key, known, n=1)
        if close:
            hint = f"did you mean '{close[0]}'?"
        elif table and key in top_level:
            # TOML puts every key after a [table] header into that table.
            hint = f"'{key}' is a top-level setting: move it above the first [table] header"
        else:
            hint = "known: " + ", ".join(known)
        parts.append(f"unknown setting '{key}' in {where} ({hint})")
    return "; ".join(parts)


def unknown_env(environ: Mapping[str, str], model: type[BaseSettings]) -> list[str]:
    """Environment + Settings -> 'OMOIDE_X (did you mean OMOIDE_Y?)' for each OMOIDE_* variable that sets nothing."""
    fields = model.model_fields
    found = []
    for var in sorted(environ):
        if not var.upper().startswith(ENV_PREFIX):
            continue
        head, _, rest = var[len(ENV_PREFIX) :].lower().partition("__")
        known = [f"{ENV_PREFIX}{n.upper()}" for n in fields]
        if head in fields:
            inner, many = _table_model(fields[head].annotation)
            if not rest or inner is None or many:
                continue
            if rest in inner.model_fields:
                continue
            known = [f"{ENV_PREFIX}{head.upper()}__{n.upper()}" for n in inner.model_fields]
        close = get_close_matches(var.upper(), known, n=1)
        found.append(f"{var}" + (f" (did you mean {close[0]}?)" if close else ""))
    return found
