"""Every example in the README and docs/ as written (from the repository root): ```python and ```javascript ones run,
```bash commands parse (shithead's own parser, python -m modules' options, extras and pins, scripts), ```json ones
read as the state or protocol body they show.

Examples that talk to a server (they read ``SHITHEAD_URL``) run against one real ``shithead serve``; the
JavaScript ones run in Node (18+, for ``fetch``) where it is installed.

Each example's printed output is compared with the text kept in tests/docs_examples/ (one file an example, named
after its page, language and number there), after ``machine_free`` masks what the machine decides: timing columns
and the last digits of long floats. After a deliberate change of an example or of what it prints, record the texts
anew with ``SHITHEAD_RECORD_EXAMPLES=1 pytest tests/test_docs_examples.py -k example_runs`` and read the diff.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("README.md", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").glob("*.md")))
PRINTED = Path(__file__).resolve().parent / "docs_examples"
RECORD = os.environ.get("SHITHEAD_RECORD_EXAMPLES") == "1"
LONG_FLOAT = re.compile(r"-?\d+(?:\.\d+)?e[-+]?\d+|-?\d+\.\d{5,}")  # a float printed in full (a probability, a mean)


def machine_free(text: str) -> str:
    """``text`` with what another machine prints differently masked: each cell of a Markdown table column whose
    header is a timing (``ms/...``), and every long float to 4 decimals (onnxruntime's last digits vary by CPU)."""
    lines, timing = [], set()
    for line in text.splitlines(keepends=True):
        cells = line.split("|")
        if line.startswith("|") and any(cell.strip().startswith("ms/") for cell in cells):
            timing = {i for i, cell in enumerate(cells) if cell.strip().startswith("ms/")}
        elif line.startswith("|") and timing and not set(line.strip()) <= set("|-"):
            line = "|".join(" <time> " if i in timing else cell for i, cell in enumerate(cells))
        elif not line.startswith("|"):
            timing = set()
        lines.append(line)
    return LONG_FLOAT.sub(lambda found: f"{float(found.group()):.4f}", "".join(lines))


def examples(page: str, language: str = "python") -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", (ROOT / page).read_text(encoding="utf-8"), re.DOTALL)


def printed_name(page: str, language: str, index: int) -> str:
    """The file in tests/docs_examples/ that holds what the example prints."""
    return f"{page.replace('/', '-')}-{language}{index}.txt"


def test_environments_page_has_an_example_per_interface() -> None:
    found = examples("docs/environments.md")
    text = "\n".join(found)
    assert len(found) == 6
    for interface in ("shithead_v0.env(", "shithead_v0.parallel_env(", "gymnasium.make(", "MaskablePPO(",
                      "pyspiel.load_game(", "ShitheadVectorEnv(", "SelfPlayVectorEnv("):  # fmt: skip
        assert interface in text


CASES = [(page, language, i, code) for page in PAGES for language in ("python", "javascript")
         for i, code in enumerate(examples(page, language))]


@pytest.mark.parametrize(("page", "language", "index", "code"), CASES,
                         ids=[f"{page}#{language}{i}" for page, language, i, _ in CASES])
def test_example_runs(page: str, language: str, index: int, code: str, request: pytest.FixtureRequest) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if "SHITHEAD_URL" in code:
        env["SHITHEAD_URL"] = request.getfixturevalue("server")
    if language == "javascript":
        node = shutil.which("node")
        if node is None:
            pytest.skip("Node is not installed")
        command = [node, "--input-type=module", "-e", code]
    else:
        command = [sys.executable, "-W", "ignore::UserWarning", "-c", code]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page} {language} example {index}: {done.stderr[-3000:]}"
    printed = PRINTED / printed_name(page, language, index)
    if RECORD:
        printed.parent.mkdir(exist_ok=True)
        printed.write_text(machine_free(done.stdout), encoding="utf-8")
    assert printed.is_file(), f"no recorded output {printed.name}: record it (module doc)"
    assert machine_free(done.stdout) == printed.read_text(encoding="utf-8"), f"{page} {language} example {index}"


def test_every_recorded_output_belongs_to_an_example() -> None:
    """No recorded text outlives its example: when a page loses an example, its text goes too (record anew)."""
    recorded = {path.name for path in PRINTED.glob("*.txt")}
    stale = recorded - {printed_name(page, language, index) for page, language, index, _ in CASES}
    assert not stale, f"recorded outputs of no example in the pages: {sorted(stale)}"


def test_machine_free_masks_timings_and_long_floats_only() -> None:
    table = "| bot | ms/decision | rate |\n|---|---|---|\n| a | 0.042 | 0.5 |\n"
    masked = "| bot | ms/decision | rate |\n|---|---|---|\n| a | <time> | 0.5 |\n"
    assert machine_free(f"x 0.1234567\n{table}\nms/decision 3\n") == f"x 0.1235\n{masked}\nms/decision 3\n"
    assert machine_free("[0.25, 1e-07, 3.5e-05, 12]") == "[0.25, 0.0000, 0.0000, 12]"


# ---------------------------------------------------------------- the shell commands
# Programs from elsewhere that a page tells the reader to run (Ray's cluster CLI, TensorBoard, curl against a
# running server): named, not checked.
OUTSIDE_PROGRAMS = {"curl", "ray", "tensorboard"}


def shell_commands(page: str) -> list[str]:
    """Each command of the page's ```bash blocks: comments off, backslash continuations joined."""
    commands = []
    for block in examples(page, "bash"):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                commands.append(shlex.join(words))
    return commands


SHELL = [(page, command) for page in PAGES for command in shell_commands(page)]


def _help_of(module: str) -> str:
    done = subprocess.run([sys.executable, "-m", module, "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, f"python -m {module} --help: {done.stderr[-2000:]}"
    return done.stdout


@pytest.mark.parametrize(("page", "command"), SHELL, ids=[f"{page}:{command[:60]}" for page, command in SHELL])
def test_shell_command_is_one_the_project_takes(page: str, command: str) -> None:
    """Every command the pages show parses as written: `shithead` ones through the real argument parser (their
    options, values and choices), `python -m` ones name a module whose --help lists each option used, installs name
    real extras and the pins of scripts/venv.sh, scripts exist; a `shithead train --config` command's config and
    overrides load. Running them is the examples' and the jobs' part."""
    import tomllib

    from shithead_env.cli import build_parser

    words = shlex.split(command)
    program, args = words[0], words[1:]
    if program == "shithead":
        try:
            parsed = build_parser().parse_args(args)
        except SystemExit as error:
            pytest.fail(f"{page}: `{command}` is refused by shithead's parser (exit {error.code})")
        if parsed.command == "train" and parsed.config:  # the config and its overrides load as written
            from train.config import ConfigError, load_config

            try:
                load_config(parsed.config, parsed.override or [])
            except ConfigError as error:
                pytest.fail(f"{page}: `{command}`: {error}")
    elif program == "python":
        assert args[0] == "-m", f"{page}: `{command}`: run modules with python -m"
        used = {word.split("=")[0] for word in args[2:] if word.startswith("--")}
        listed = _help_of(args[1])
        assert all(option in listed.split() or f"{option}," in listed for option in used), (page, command, listed)
    elif program == "pip":
        extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
        known = set(extras["optional-dependencies"])
        setup = (ROOT / "scripts" / "venv.sh").read_text(encoding="utf-8")
        for word in args[1:]:
            if word.startswith(".["):
                assert set(word[2:-1].split(",")) <= known, f"{page}: `{command}` names an extra not in pyproject"
            elif word != "-e" and "==" in word:
                assert f'"{word}"' in setup, f"{page}: `{command}`: {word} is not the pin scripts/venv.sh installs"
    elif program == "bash":
        assert (ROOT / args[0]).is_file(), f"{page}: `{command}`: no {args[0]}"
    else:
        assert program in OUTSIDE_PROGRAMS, f"{page}: `{command}`: a program the docs test does not know"


# ---------------------------------------------------------------- the JSON examples
# What each ```json example of a page is, read as written: a state Game.from_dict takes, or a body of the protocol
# its schema accepts (a view also as Knowledge.from_view reads it, the check every bot's input passes).
JSON_KINDS = {
    ("docs/state.md", 0): "state",
    ("docs/protocol.md", 0): "view",
    ("docs/protocol.md", 1): "response",
    ("docs/protocol.md", 2): "error",
    ("docs/protocol.md", 3): "game_create",
    ("docs/protocol.md", 4): "game_state",
}
JSON_CASES = [(page, i, text) for page in PAGES for i, text in enumerate(examples(page, "json"))]


def test_every_json_example_has_a_reader() -> None:
    assert {(page, i) for page, i, _ in JSON_CASES} == set(JSON_KINDS)


@pytest.mark.parametrize(("page", "index", "text"), JSON_CASES, ids=[f"{p}#json{i}" for p, i, _ in JSON_CASES])
def test_json_example_reads_as_written(page: str, index: int, text: str) -> None:
    import json

    from shithead_env import Game, Knowledge

    body = json.loads(text)
    kind = JSON_KINDS[(page, index)]
    if kind == "state":
        Game.from_dict(body)
        return
    pytest.importorskip("fastjsonschema")
    from agents.protocol.handler import check_schema
    from agents.protocol.spec import load_schema

    shown = body.get("view") if kind == "game_state" else None
    if shown is not None and shown.pop("...", None) is not None:  # an elided view: the fields it shows are a view's
        assert set(shown) <= set(load_schema("view")["properties"]), f"{page}: {set(shown)}"
        body["view"] = Game.new(shown["rules"], shown["num_players"], seed=0).view(shown["seat"])
    check_schema(kind, body, "invalid_view")
    if kind == "view":
        Knowledge.from_view(body)
