"""The bundled sample: a fictional person's week written in the real source formats (`write_sample`)."""

from __future__ import annotations

from omoide.sample.content import content
from omoide.sample.generate import write_sample

__all__ = ["content", "write_sample"]
