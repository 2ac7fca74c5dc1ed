"""The npm package's generated spec and fixtures (js/) are current: an encoding, schema or rules change that
the JavaScript side does not mirror fails here (regenerate with ``python -m agents.js_fixtures --write``, then
``npm test`` in js/ says whether the package still agrees)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import numpy as np
import pytest

from agents import js_fixtures
from shithead_env import encoding
from shithead_env.encodings import v2

TOLERANCE = 1e-5


def differences(old: Any, new: Any, where: str = "") -> list[str]:
    """Where two fixture trees differ: exactly, except probabilities (within ``TOLERANCE``: another ONNX
    Runtime build may round the last bits of a logit otherwise)."""
    if isinstance(old, dict) and isinstance(new, dict):
        if set(old) != set(new):
            return [f"{where}: keys {sorted(set(old) ^ set(new))}"]
        return [d for key in old for d in differences(old[key], new[key], f"{where}.{key}")]
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return [f"{where}: {len(old)} items, now {len(new)}"]
        return [d for i, (a, b) in enumerate(zip(old, new, strict=True)) for d in differences(a, b, f"{where}[{i}]")]
    if where.endswith(".probability"):
        return [] if abs(old - new) <= TOLERANCE else [f"{where}: {old} now {new}"]
    return [] if type(old) is type(new) and old == new else [f"{where}: {old!r} now {new!r}"]


@pytest.fixture(scope="module")
def committed() -> dict[str, Any]:
    return json.loads(gzip.decompress(js_fixtures.FIXTURES_PATH.read_bytes()))


def test_spec_module_is_current() -> None:
    assert js_fixtures.SPEC_PATH.read_text(encoding="utf-8") == js_fixtures.spec_module(), (
        "js/src/spec.js is stale: run python -m agents.js_fixtures --write, then npm test in js/"
    )


def test_fixtures_are_current(committed: dict[str, Any]) -> None:
    found = differences(committed, json.loads(json.dumps(js_fixtures.fixtures())))
    stale = "js/test/fixtures.json.gz is stale (python -m agents.js_fixtures --write): "
    assert not found, stale + "; ".join(found[:5])


def test_fixtures_cover_every_preset_at_two_four_and_the_largest_table(committed: dict[str, Any]) -> None:
    tables = {(t["rules"], t["players"]) for t in committed["tables"]}
    assert tables == set(js_fixtures.tables())
    assert ("online_classic", 10) in tables and ("pub", 4) in tables and ("dead_last", 5) in tables
    assert {d["encoding"] for t in committed["tables"] for d in t["decisions"]} == {1, 2}
    assert len(js_fixtures.FIXTURES_PATH.read_bytes()) < 1_000_000


def test_a_changed_encoding_cell_makes_the_fixtures_stale(committed: dict[str, Any],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    encode = v2._encode_v2

    def changed(k: Any) -> np.ndarray:
        observation = encode(k).copy()
        observation[v2.OFFSETS_V2["direction"]] *= 0.5
        return observation

    monkeypatch.setitem(encoding._ENCODERS, 2, changed)
    found = differences(committed, json.loads(json.dumps(js_fixtures.fixtures())))
    assert any(".observations.2" in d for d in found)
