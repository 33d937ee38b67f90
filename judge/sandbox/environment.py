"""The environment every run starts with."""
from __future__ import annotations

# Where a run finds its programs; the host's toolchain checks search the same directories.
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"
DEFAULT_ENV = {"PATH": SANDBOX_PATH, "HOME": "/tmp", "LANG": "C.UTF-8", "TMPDIR": "/tmp"}
