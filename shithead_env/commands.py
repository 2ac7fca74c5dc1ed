"""How to run the project's programs from the user's shell, for the hints a command prints."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def runnable(command: str) -> str:
    """``command`` (``shithead ...``, ``python ...``) as the user's shell can run it, for a hint to print: the program
    of the environment running now, by its path, unless that is already what ``PATH`` finds (a ``.venv`` not
    activated, or the system's Python beside the project's)."""
    program, _, rest = command.partition(" ")
    here = Path(sys.executable) if program == "python" else Path(sys.executable).parent / program
    found = shutil.which(program)
    if (found is not None and os.path.abspath(found) == os.path.abspath(here)) or not here.exists():
        return command
    path = os.path.abspath(here)
    inside = os.path.commonpath([path, os.getcwd()]) == os.getcwd()
    return " ".join(filter(None, [os.path.relpath(path) if inside else path, rest]))
