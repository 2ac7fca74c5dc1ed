"""The ``shithead`` command's demo and its error handling."""

from __future__ import annotations

import pytest

from shithead_env.cli import main


def test_demo_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--rules", "pub", "--players", "3", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "pile (" in out and "to act: P" in out
    assert out.strip().splitlines()[-1].startswith(("finished after", "truncated after"))


def test_demo_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    main(["demo", "--seed", "11", "--quiet"])
    first = capsys.readouterr().out
    main(["demo", "--seed", "11", "--quiet"])
    assert capsys.readouterr().out == first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--rules", "no_such_table"], "unknown rules preset 'no_such_table'"),
        (["demo", "--players", "9"], "allow 2-5 players, got 9"),
        (["demo", "--rules", "missing.yaml"], "cannot read rules file"),
    ],
)
def test_bad_input_is_one_clear_line(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
