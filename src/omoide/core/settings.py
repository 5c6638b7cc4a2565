"""Settings: one pydantic-settings class, read at call time from env and OMOIDE_HOME/omoide.toml."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)

from omoide.core.config_file import toml_source
from omoide.core.days import zone
from omoide.core.errors import ConfigError
from omoide.core.home import home_from_env
from omoide.core.kinds import CHAT_EXPORT_KINDS, OWN_SPEAKER
from omoide.core.location import StorePath, store_root

SourceKind = Literal[
    "chrome",
    "firefox",
    "safari",
    "activitywatch",
    "notes",
    "chat",
    "line",
    "chatgpt",
    "claude",
    "discord",
    "whatsapp",
    "telegram",
    "slack",
]


def _unset(value: object) -> bool:
    """Field value -> whether it is unset (left out of dumps, so older cache keys stay valid)."""
    return value is None


class SourceConfig(BaseModel):
    """One `[[sources]]` table of omoide.toml."""

    kind: SourceKind
    path: Path | None = None
    url: str | None = None
    name: str = ""
    # Chat exports (CHAT_EXPORT_KINDS) and ActivityWatch, filled from the top level by Settings:
    # the zone of the local times a LINE export (or an AW timestamp without offset) writes (a
    # table may set its own, e.g. for an export made while travelling) and, chat exports
    # only, the user's name, which tells their own messages.
    timezone: str | None = Field(None, exclude_if=_unset)
    user_name: str | None = Field(None, exclude_if=_unset)

    @field_validator("timezone")
    @classmethod
    def _known_source_zone(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                zone(v)
            except ConfigError as exc:
                raise ValueError(str(exc)) from exc
        return v

    @model_validator(mode="after")
    def _needs_location(self) -> SourceConfig:
        if self.path is None and self.url is None:
            raise ValueError(f"source {self.kind!r} needs a 'path' (or 'url' for activitywatch)")
        if self.url is not None and self.kind != "activitywatch":
            raise ValueError(f"'url' is only for activitywatch sources, not {self.kind!r}")
        return self


LLMBackend = Literal["auto", "ollama", "none"]
EmbedBackend = Literal["embedded", "ollama"]
DEFAULT_OLLAMA_HOST = "http://127.0.0.1:11434"


class LLMSettings(BaseModel):
    """`[llm]`: which model writes summaries and facts (`none` = the embedded extractive digest)."""

    backend: LLMBackend = "auto"
    host: str = DEFAULT_OLLAMA_HOST
    model: str = "llama3.2:3b"
    timeout_s: float = 120.0
    retries: int = 3
    # Map chunks are cut to this many tokens so a small local model's context holds them.
    chunk_tokens: int = 1500
    # Chat requests in flight at once across every worker and process of the Prefect server:
    # Ollama queues requests beyond its parallel slots, and a queued request spends its own
    # timeout waiting, so a shared host is asked only as much as it can answer.
    max_concurrent: int = Field(2, ge=1)
    # The Prefect global concurrency limit that holds those slots; created on first use.
    concurrency_limit: str = Field("ollama", min_length=1)


class EmbedSettings(BaseModel):
    """`[embed]`: which model turns memories into vectors; switching it re-embeds everything."""

    # No `auto`: a vector space that flips with Ollama's availability would mix silently.
    backend: EmbedBackend = "embedded"
    model: str = "all-MiniLM-L6-v2-int8"
    host: str | None = None  # Ollama host for `backend = "ollama"`; defaults to llm.host
    batch_size: int = 64


class RecallSettings(BaseModel):
    """`[recall]`: ranking knobs of `omoide recall`."""

    decay_lambda: float = Field(0.05, ge=0)
    k: int = Field(10, ge=1)
    token_budget: int = Field(2000, ge=1)


class Settings(BaseSettings):
    """Everything omoide is configured by; see README 'Configuration'."""

    model_config = SettingsConfigDict(
        env_prefix="OMOIDE_", env_nested_delimiter="__", extra="ignore"
    )

    home: Path = Field(default_factory=home_from_env)
    vault_dir: Path | None = None
    # Where the lake and LanceDB live: OMOIDE_HOME itself by default, another folder, or an
    # object store ("s3://bucket/prefix"; credentials and endpoint from the AWS_* variables).
    # The vault, quarantine, caches and Prefect's state stay in OMOIDE_HOME.
    storage_uri: str | None = None
    timezone: str = "UTC"
    # Your name as your chat logs write the speaker: tells your own words from others'.
    user_name: str = ""
    # People you mention by name (chat partners count already), so the profile tells a
    # friend from a project or place.
    people: list[str] = Field(default_factory=list)
    sources: list[SourceConfig] = Field(default_factory=list)
    excluded_domains: list[str] = Field(default_factory=list)
    session_gap_s: float = 300.0
    min_dwell_s: float = 10.0
    llm: LLMSettings = Field(default_factory=LLMSettings)
    embed: EmbedSettings = Field(default_factory=EmbedSettings)
    recall: RecallSettings = Field(default_factory=RecallSettings)
    # A second writer (a scheduled run overlapping a manual one) waits this long for the first.
    lock_timeout_s: float = Field(600.0, ge=0)
    # Days a backfill works on side by side (collect to summarize; LanceDB writes stay one at a
    # time). 1 by default: with the embedded models, embedding already keeps every core busy.
    backfill_workers: int = Field(1, ge=1, le=16)
    # `omoide backfill --dask`: collect to summarize of many days on a Dask cluster, a local one
    # of `dask_workers` processes (one thread each) unless `dask_scheduler` names a running one.
    dask: bool = False
    dask_scheduler: str | None = None
    dask_workers: int = Field(2, ge=1, le=64)
    # A run given no day (the 02:00 schedule, `omoide run`) also runs the days missed since the
    # newest completed one (a laptop asleep at 02:00), at most this many with yesterday; an
    # older gap is named with the `omoide backfill` command that fills it.
    catch_up_days: int = Field(14, ge=1, le=366)
    # LanceDB keeps every write's version; after a backfill and each weekly reflection, those
    # older than this many days are deleted. At least 1: a reader (the MCP server, a recall)
    # may be reading a version of the last minutes, and deleting it under it fails the read.
    keep_versions_days: int = Field(7, ge=1)
    # The language `omoide ask` answers in: "auto" takes the question's (Japanese for a question
    # with kana or kanji, English otherwise); "en" or "ja" always that one.
    answer_language: Literal["auto", "en", "ja"] = "auto"

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, v: str) -> str:
        try:
            zone(v)
        except ConfigError as exc:
            raise ValueError(str(exc)) from exc
        return v

    @model_validator(mode="after")
    def _resolve_paths(self) -> Settings:
        # Relative paths in omoide.toml are relative to OMOIDE_HOME, so a home folder
        # (like the bundled sample) can be moved as a whole.
        self.home = self.home.expanduser().resolve()
        self.vault_dir = (self.home / (self.vault_dir or "vault")).resolve()
        for s in self.sources:
            if s.path is not None:
                s.path = (self.home / s.path.expanduser()).resolve()
            if not s.name:
                same = [o for o in self.sources if o.kind == s.kind]
                s.name = s.kind if len(same) == 1 else f"{s.kind}-{same.index(s) + 1}"
            if s.kind in CHAT_EXPORT_KINDS:
                s.timezone = s.timezone or self.timezone
                s.user_name = self.user_name
            elif s.kind == "activitywatch":  # its times without an offset are local times
                s.timezone = s.timezone or self.timezone
        names = [s.name for s in self.sources]
        if len(set(names)) != len(names):
            raise ValueError(f"source names must be unique, got {names}")
        return self

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Priority: explicit arguments > OMOIDE_* env > OMOIDE_HOME/omoide.toml > defaults.

        omoide.toml is read strictly (a syntax error or an unknown key is a ConfigError naming
        it); an OMOIDE_* variable that names no setting is left alone (`omoide doctor` lists it).
        """
        explicit = getattr(init_settings, "init_kwargs", {}).get("home")
        home = Path(explicit).expanduser().resolve() if explicit else home_from_env()
        toml = home / "omoide.toml"
        return (init_settings, env_settings, toml_source(settings_cls, toml))

    @property
    def me(self) -> tuple[str, ...]:
        """-> the speaker names of the user's own chat messages ("me" when user_name is unset)."""
        return (self.user_name.strip() or OWN_SPEAKER,)

    @property
    def storage_root(self) -> StorePath:
        return store_root(self.storage_uri, self.home)

    @property
    def lake_dir(self) -> StorePath:
        return self.storage_root / "lake"

    @property
    def quarantine_dir(self) -> Path:
        return self.home / "quarantine"

    @property
    def prefect_home(self) -> Path:
        return self.home / "prefect"

    @property
    def lancedb_dir(self) -> StorePath:
        return self.storage_root / "lancedb"

    @property
    def cache_dir(self) -> Path:
        return self.home / "cache"

    @property
    def state_dir(self) -> Path:
        return self.home / "state"

    @property
    def day_marks_dir(self) -> Path:
        return self.state_dir / "days"

    @property
    def written_dirs(self) -> list[Path]:
        """-> the folders omoide writes files into (where a killed write can leave a temp file)."""
        vault = self.vault_dir or self.home / "vault"
        lake = [self.lake_dir] if isinstance(self.lake_dir, Path) else []
        return [
            *lake,
            self.quarantine_dir,
            self.cache_dir,
            self.day_marks_dir,
            vault / "memory",
            vault / "bank",
        ]


def get_settings(**overrides: object) -> Settings:
    """Env + omoide.toml (+ explicit overrides) -> Settings; call it, never cache it at import."""
    return Settings(**overrides)  # type: ignore[arg-type]
