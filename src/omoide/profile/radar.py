"""Big Five radar chart as PNG bytes: one outline per source, never an average of them.

Drawn on a bare `Figure` with the Agg canvas (no pyplot, no global backend switch). PNG
metadata is pinned (no "Software" version stamp), so the same scores give the same bytes and
the vault leaves the file alone when nothing changed.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

import numpy as np

from omoide.profile.bigfive import TRAITS

# Fixed colours per source so a chart reads the same from week to week.
COLOURS = {"quiz": "#1f77b4", "llm": "#d62728", "offline": "#7f7f7f"}
FALLBACK = "#2ca02c"
PNG_METADATA: dict[str, str | None] = {"Software": None}


def radar_png(series: Mapping[str, Mapping[str, float]], current: str | None = None) -> bytes:
    """{source: {trait: score}} (+ the current source, drawn bold) -> PNG bytes."""
    # Imported here: matplotlib takes over a second to import, and only a profile draws.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    angles = np.linspace(0.0, 2.0 * np.pi, len(TRAITS), endpoint=False)
    closed = np.append(angles, angles[0])
    fig = Figure(figsize=(5.0, 5.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(projection="polar")
    ax.set_theta_offset(np.pi / 2)
    ax.set_theta_direction(-1)
    ax.set_ylim(0.0, 1.0)
    ax.set_yticks([0.25, 0.5, 0.75, 1.0])
    ax.set_yticklabels(["0.25", "0.5", "0.75", "1"], fontsize=7)
    ax.set_xticks(angles)
    ax.set_xticklabels([t.capitalize() for t in TRAITS], fontsize=9)
    for name in sorted(series):
        values = [float(series[name][t]) for t in TRAITS]
        values.append(values[0])
        colour = COLOURS.get(name, FALLBACK)
        bold = name == current
        label = f"{name} (current)" if bold else name
        ax.plot(closed, values, color=colour, linewidth=2.4 if bold else 1.2, label=label)
        ax.fill(closed, values, color=colour, alpha=0.18 if bold else 0.06)
    if series:
        ax.legend(loc="upper right", bbox_to_anchor=(1.3, 1.15), fontsize=8, frameon=False)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata=PNG_METADATA, bbox_inches="tight", pad_inches=0.15)
    return buf.getvalue()
