"""The ``shithead`` command's demo and its error handling."""

from __future__ import annotations

import pytest

from shithead_env.cli import main


def test_demo_is_short_by_default_and_verbose_tells_everything(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--rules", "pub", "--players", "3", "--seed", "4"]) == 0
    short = capsys.readouterr().out
    assert short.startswith("powers: pub: 2 on anything, resets;")
    assert "pile (" in short and "to act: P" in short and "more events (--verbose shows them all)" in short
    assert short.strip().splitlines()[-1].startswith(("finished after", "truncated after"))
    assert len(short.splitlines()) < 60
    assert main(["demo", "--rules", "pub", "--players", "3", "--seed", "4", "--verbose"]) == 0
    verbose = capsys.readouterr().out
    assert len(verbose.splitlines()) > 10 * len(short.splitlines())
    assert " plays " in verbose and " draws " in verbose and "game over: " in verbose
    assert verbose.strip().splitlines()[-1] == short.strip().splitlines()[-1]


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
