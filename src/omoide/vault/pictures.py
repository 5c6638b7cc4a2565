"""A day's blocks and events -> a PNG timeline beside its page; a week's hours per activity -> a stacked-bar PNG.

Drawn like the profile's radar (omoide.profile.radar): a bare `Figure` on the Agg canvas (no
pyplot, no global backend switch), matplotlib imported only when a picture is drawn, the
fonts pinned to the DejaVu Sans matplotlib ships and the PNG's "Software" stamp dropped, so
the same input gives the same bytes and an unchanged picture is never rewritten. Files go
through omoide.core.files, so they are atomic and owner-only like the rest of the vault.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterable, Mapping, Sequence
from contextlib import contextmanager
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

import numpy as np
import pandas as pd

from omoide.core.files import write_bytes_if_changed
from omoide.memory.active_time import active_periods

if TYPE_CHECKING:
    from collections.abc import Iterator

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from omoide.memory.blocks import Block

PNG_METADATA: dict[str, str | None] = {"Software": None}
# Fixed per kind (omoide.memory.blocks.BLOCK_KINDS) so a kind reads the same on every day and week.
KIND_COLOURS = {
    "meeting": "#d62728",
    "coding": "#1f77b4",
    "reading": "#2ca02c",
    "messages": "#ff7f0e",
    "writing": "#9467bd",
    "browsing": "#17becf",
    "offline": "#8c564b",
}
# Week activities that are not block kinds take these in rank order (MAX_ACTIVITIES at most).
PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#b07aa1",
    "#76b7b2",
    "#edc948",
    "#ff9da7",
    "#9c755f",
    "#e15759",
)
ACTIVE_COLOUR = "#a6d96a"
APP_COLOUR = "#607d8b"
AWAY_COLOUR = "#bdbdbd"
OTHER_COLOUR = "#cccccc"
MAX_APPS = 8  # app rows on a day picture; the rest are left to the page's session list
MIN_BLOCK_H = 0.1  # six minutes: about four pixels on the day's axis
MAX_ACTIVITIES = 9  # named stacks on a week picture; the rest are summed as "other"
_RC = {"font.family": "DejaVu Sans", "font.size": 8.0, "hatch.linewidth": 0.6}
# The day picture's layout in inches: the rows' height grows with the apps shown.
_DAY_WIDTH_IN, _ROW_IN, _TOP_IN, _BOTTOM_IN = 10.0, 0.28, 0.3, 0.75
_LEFT, _AXIS_SHARE = 0.12, 0.86
_PX_PER_CHAR = 5.2  # DejaVu Sans at 7 pt, 100 dpi: the width a label character takes, about


def draw_day(path: Path, day: date, tz: str, blocks: Sequence[Block], events: pd.DataFrame) -> bool:
    """Day + time zone + its blocks + its events -> the day's PNG at path; whether its bytes changed."""
    return write_bytes_if_changed(day_png(day, tz, blocks, events), path)


def draw_week(
    path: Path, days: Sequence[date], per_day: Mapping[date, Sequence[tuple[str, float]]]
) -> bool:
    """Days + {day: [(activity, seconds)]} -> stacked hours per day PNG at path; whether its bytes changed."""
    return write_bytes_if_changed(week_png(days, per_day), path)


def day_png(day: date, tz: str, blocks: Sequence[Block], events: pd.DataFrame) -> bytes:
    """Day + time zone + blocks + events -> PNG bytes of the day picture."""
    return _png(day_figure(day, tz, blocks, events))


def week_png(days: Sequence[date], per_day: Mapping[date, Sequence[tuple[str, float]]]) -> bytes:
    """Days + {day: [(activity, seconds)]} -> PNG bytes of the week picture."""
    return _png(week_figure(days, per_day))


def day_figure(day: date, tz: str, blocks: Sequence[Block], events: pd.DataFrame) -> Figure:
    """Day + time zone + blocks + events -> the figure of the day on its local clock (23, 24 or 25 hours)."""
    zone = ZoneInfo(tz)
    # In UTC: arithmetic between datetimes of one zone ignores a DST change between them.
    since = datetime.combine(day, time(), zone).astimezone(UTC)
    until = datetime.combine(day + timedelta(days=1), time(), zone).astimezone(UTC)
    hours = (until - since).total_seconds() / 3600.0

    def at(ts: datetime | pd.Timestamp) -> float:
        return (pd.Timestamp(ts).timestamp() - since.timestamp()) / 3600.0

    def spans(intervals: Iterable[tuple[Any, Any]]) -> list[tuple[float, float]]:
        out = [(max(at(a), 0.0), min(at(b), hours)) for a, b in intervals]
        return [(a, b - a) for a, b in out if b > a]

    # Active periods and app time rest on window and AFK events alone; the rest is not read again.
    aw = events[events["event_type"].isin(("window", "afk"))] if "event_type" in events else events
    active = spans(active_periods(aw, since, until))
    away = spans(_away(aw))
    apps = _app_spans(aw, active, since, hours)
    # A block of an instant (a timed note line: "10:30 ran 8 km") still shows, MIN_BLOCK_H wide.
    widened = [(b.start, max(b.end, b.start + timedelta(hours=MIN_BLOCK_H))) for b in blocks]
    shown = [(b, spans([span])) for b, span in zip(blocks, widened, strict=True)]
    shown = [(b, s) for b, s in shown if s]
    rows = ["blocks", "at the computer", *(name for name, _ in apps)]
    height = _TOP_IN + _BOTTOM_IN + _ROW_IN * len(rows)
    with _pinned():
        fig = _figure(_DAY_WIDTH_IN, height)
        ax = fig.add_axes((_LEFT, _BOTTOM_IN / height, _AXIS_SHARE, _ROW_IN * len(rows) / height))
        _time_axis(ax, since, hours, zone)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_yticks(range(len(rows)), rows, fontsize=7)
        _blocks_row(ax, shown, hours)
        ax.broken_barh(active, (0.6, 0.8), facecolors=ACTIVE_COLOUR, linewidth=0)
        ax.broken_barh(
            away,
            (0.6, 0.8),
            facecolors=AWAY_COLOUR,
            hatch="////",
            edgecolors="#757575",
            linewidth=0,
        )
        for i, (_, sp) in enumerate(apps):
            # One neutral colour: the row's label names the app, and a hue would read as the
            # block kind the legend gives it (firefox's orange as messages).
            ax.broken_barh(sp, (i + 1.65, 0.7), facecolors=APP_COLOUR, linewidth=0)
        total = sum(w for _, w in active) * 3600.0
        title = f"{day:%a %d %b %Y}: {_hm(total)} at the computer"
        if hours != 24:
            title += f" ({hours:g} h: the clocks changed)"
        ax.set_title(title, fontsize=9, loc="left")
        if not (shown or active or away or apps):
            ax.text(
                hours / 2,
                (len(rows) - 1) / 2,
                "no activity recorded on this day",
                ha="center",
                va="center",
                fontsize=9,
                color="#555555",
            )
        order = list(KIND_COLOURS)
        kinds = sorted(
            {b.kind for b, _ in shown},
            key=lambda k: (order.index(k) if k in order else len(order), k),
        )
        _legend(
            ax,
            _ROW_IN * len(rows),
            [(k, KIND_COLOURS.get(k, OTHER_COLOUR), "") for k in kinds]
            + [("at the computer", ACTIVE_COLOUR, ""), ("away (AFK)", AWAY_COLOUR, "////")],
        )
    return fig


def week_figure(
    days: Sequence[date], per_day: Mapping[date, Sequence[tuple[str, float]]]
) -> Figure:
    """Days + {day: [(activity, seconds)]} -> the figure of one stacked bar of hours per day."""
    totals: dict[str, float] = {}
    for d in days:
        for name, secs in per_day.get(d, ()):
            totals[name] = totals.get(name, 0.0) + max(float(secs), 0.0)
    ranked = [n for n, s in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])) if s > 0]
    named, rest = ranked[:MAX_ACTIVITIES], set(ranked[MAX_ACTIVITIES:])
    stacks = [*named, "other"] if rest else named
    # A block kind keeps its colour; any other activity takes the palette's by its rank.
    others = iter(PALETTE)
    colours = {n: KIND_COLOURS.get(n) or next(others) for n in named}
    with _pinned():
        fig = _figure(7.0, 3.2)
        ax = fig.add_axes((0.08, 0.16, 0.62, 0.74))
        x = list(range(len(days)))
        base = [0.0] * len(days)
        for name in stacks:
            hrs = [_hours(per_day.get(d, ()), {name} if name != "other" else rest) for d in days]
            colour = OTHER_COLOUR if name == "other" and rest else colours[name]
            ax.bar(x, hrs, bottom=base, width=0.7, color=colour, label=name, linewidth=0)
            base = [b + h for b, h in zip(base, hrs, strict=True)]
        ax.set_xticks(x, [f"{d:%a}\n{d:%d %b}" for d in days], fontsize=7)
        ax.set_xlim(-0.6, max(len(days), 1) - 0.4)
        ax.set_ylim(0, max([*base, 1.0]) * 1.08)
        ax.set_ylabel("hours", fontsize=8)
        ax.tick_params(axis="y", labelsize=7)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        span = f"{days[0]:%d %b} – {days[-1]:%d %b %Y}" if days else "no days"
        ax.set_title(
            f"Hours per day, {span}: {_hm(sum(base) * 3600)} in all", fontsize=9, loc="left"
        )
        if not stacks:
            ax.text(
                (len(days) - 1) / 2 if days else 0,
                0.5,
                "no activity recorded this week",
                ha="center",
                va="center",
                fontsize=9,
                color="#555555",
            )
        else:
            handles, labels = ax.get_legend_handles_labels()
            ax.legend(
                handles[::-1],
                labels[::-1],
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                fontsize=7,
                frameon=False,
            )
    return fig


@contextmanager
def _pinned() -> Iterator[None]:
    """-> a context with omoide's fonts and sizes, whatever the user's matplotlibrc says."""
    # Imported here: matplotlib takes about a second to import, and only a picture needs it.
    import matplotlib as mpl

    with mpl.rc_context(_RC), warnings.catch_warnings():
        # A name in a script DejaVu Sans lacks (CJK) draws as boxes; the warning says nothing new.
        warnings.filterwarnings("ignore", message="Glyph .* missing", category=UserWarning)
        yield


def _figure(width: float, height: float) -> Figure:
    """Size in inches -> a bare figure on its own Agg canvas (no pyplot, no global backend)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100)
    FigureCanvasAgg(fig)
    return fig


def _png(fig: Figure) -> bytes:
    """Figure -> PNG bytes without the version stamp, so equal figures give equal bytes."""
    buf = io.BytesIO()
    with _pinned():
        fig.savefig(buf, format="png", metadata=PNG_METADATA)
    return buf.getvalue()


def _blocks_row(
    ax: Axes, shown: Sequence[tuple[Block, list[tuple[float, float]]]], hours: float
) -> None:
    """Axes + blocks with their spans (hours from midnight) -> the top row: one bar per block in its kind's colour, labelled where it fits."""
    if not shown:
        return
    bars = [sp[0] for _, sp in shown]
    colours = [KIND_COLOURS.get(b.kind, OTHER_COLOUR) for b, _ in shown]
    # One collection for all blocks: a call per block costs more than drawing it.
    ax.broken_barh(bars, (-0.4, 0.8), facecolors=colours, edgecolors="white", linewidth=0.5)
    for block, ((x, w),) in shown:
        text = _fit(block, w * _px_per_hour(hours))
        if text:
            ax.text(x + w / 2, 0, text, ha="center", va="center", fontsize=7, color="white")


def _app_spans(
    events: pd.DataFrame, active: Sequence[tuple[float, float]], since: datetime, hours: float
) -> list[tuple[str, list[tuple[float, float]]]]:
    """Events + not-AFK spans (hours from midnight) -> [(window app, its spans inside them)] most time first, at most MAX_APPS."""
    if "event_type" not in events.columns or not active:
        return []
    win = events[(events["event_type"] == "window") & events["app"].notna()]
    start = ((win["ts"] - pd.Timestamp(since)).dt.total_seconds() / 3600.0).to_numpy(float)
    end = start + win["duration_s"].to_numpy(float) / 3600.0
    apps = win["app"].to_numpy(str)
    found: dict[str, list[tuple[float, float]]] = {}
    # Window time counts where the person was at the computer, as active_time cuts it; its
    # 5 s flooding is left out, below a pixel (about 100 s) on this axis.
    for a, w in active:
        lo, hi = np.maximum(start, max(a, 0.0)), np.minimum(end, min(a + w, hours))
        for i in np.flatnonzero(hi > lo):
            found.setdefault(str(apps[i]), []).append((float(lo[i]), float(hi[i] - lo[i])))
    ranked = sorted(found.items(), key=lambda kv: (-sum(w for _, w in kv[1]), kv[0]))
    return [(name, sorted(sp)) for name, sp in ranked[:MAX_APPS] if name]


def _away(events: pd.DataFrame) -> list[tuple[pd.Timestamp, pd.Timestamp]]:
    """Events -> the AFK watcher's away spans (UTC), as recorded."""
    if "event_type" not in events.columns:
        return []
    afk = events[(events["event_type"] == "afk") & (events["title"] == "afk")]
    ends = afk["ts"] + pd.to_timedelta(afk["duration_s"], unit="s")
    return list(zip(afk["ts"], ends, strict=True))


def _time_axis(ax: Axes, since: datetime, hours: float, zone: ZoneInfo) -> None:
    """Axes + local-day bounds -> x from 0 to the day's length in hours, ticked at the local clock's 3-hour marks."""
    ticks, labels = [], []
    for h in range(int(hours)):
        local = (since + timedelta(hours=h)).astimezone(zone)
        if local.minute == 0 and local.hour % 3 == 0:
            ticks.append(float(h))
            labels.append(f"{local:%H}:00")
    ticks.append(hours)
    labels.append("24:00")
    ax.set_xlim(0, hours)
    ax.set_xticks(ticks, labels, fontsize=7)
    ax.grid(axis="x", color="#e0e0e0", linewidth=0.6)
    ax.set_axisbelow(True)
    for side in ("top", "right", "left"):
        ax.spines[side].set_visible(False)
    ax.tick_params(axis="y", length=0)


def _legend(ax: Axes, axis_in: float, items: Sequence[tuple[str, str, str]]) -> None:
    """Axes + its height in inches + (name, colour, hatch) items -> one legend row under the tick labels."""
    from matplotlib.patches import Patch

    handles = [
        Patch(facecolor=c, hatch=h, edgecolor="#757575" if h else c, label=n) for n, c, h in items
    ]
    ax.legend(
        handles=handles,
        loc="upper left",
        bbox_to_anchor=(0.0, -0.25 / axis_in),
        ncol=len(handles),
        fontsize=7,
        frameon=False,
        handlelength=1.4,
        columnspacing=1.2,
    )


def _fit(block: Block, width_px: float) -> str:
    """Block + its bar's width in pixels -> its label, its topic, or nothing: what fits, never a cut word."""
    for text in (block.label, block.topic or ""):
        if text and len(text) * _PX_PER_CHAR + 6 <= width_px:
            return text
    return ""


def _px_per_hour(hours: float) -> float:
    """Day length in hours -> pixels an hour takes on the day picture's axis."""
    return _AXIS_SHARE * _DAY_WIDTH_IN * 100 / hours


def _hours(pairs: Iterable[tuple[str, float]], names: set[str]) -> float:
    """[(activity, seconds)] + the names to count -> their hours."""
    return sum(max(float(s), 0.0) for n, s in pairs if n in names) / 3600.0


def _hm(seconds: float) -> str:
    """Seconds -> "7 h 05 min" (or "42 min")."""
    mins = round(seconds / 60)
    return f"{mins // 60} h {mins % 60:02d} min" if mins >= 60 else f"{mins} min"
