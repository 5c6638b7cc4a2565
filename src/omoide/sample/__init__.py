"""The bundled sample: a fictional person's days in the real source formats (`write_sample`) and its script (`write_script`)."""

from __future__ import annotations

from omoide.sample.content import content
from omoide.sample.generate import write_sample
from omoide.sample.script import sample_script, write_script

__all__ = ["content", "sample_script", "write_sample", "write_script"]
