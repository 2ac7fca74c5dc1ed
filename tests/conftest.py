"""Fixtures for the whole suite; shared helper functions live in tests/helpers.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

# Helpers assert too (finish_swap, random_positions): give their failures pytest's detailed messages.
pytest.register_assert_rewrite("tests.helpers")


# ---------------------------------------------------------------- the HTTP server


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """Base URL of one real ``shithead serve`` process (built-ins, shipped models, a fast ismcts) per test worker."""
    from agents.serve import running_server

    with running_server("agents/pretrained", {"ismcts8": "ismcts:sims=8"}) as url:
        yield url
