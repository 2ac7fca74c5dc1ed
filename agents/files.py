"""Files other processes read while they are written: each one is on disk whole or not at all."""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and one rename, so that a reader (a worker polling it,
    a run resumed after a kill) never finds half of it; the parent directory is made if missing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        partial.write_text(text, encoding="utf-8")
        os.replace(partial, path)
    except BaseException:  # a failed write (a full disk, a kill) leaves the old file, and no litter beside it
        partial.unlink(missing_ok=True)
        raise
