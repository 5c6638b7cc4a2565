"""omoide: a local-first digital twin built from your own activity traces."""

from __future__ import annotations

from omoide.core.deferred_imports import defer

__version__ = "0.1.0"

# `import lancedb` loads the REST client of Lance namespaces (~0.8 s, of every command and of a
# fresh recall) for connections omoide never makes; it loads on first use if one ever is.
defer("lance_namespace_urllib3_client")
