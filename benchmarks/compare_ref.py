"""Run one benchmark script on an earlier commit and on the working tree, alternately, in the same run.

Speed figures only compare when measured under the same load, so a change's
"no slower" is measured like this rather than against a figure from another
day. The earlier commit is checked out into a temporary git worktree, and each
round runs the script there (its own version of the script and the package)
and then here, printing both outputs one after the other.

    python benchmarks/compare_ref.py 453cb7b -- benchmarks/bench_engine.py --seconds 3
    python benchmarks/compare_ref.py HEAD~5 --rounds 3 -- benchmarks/bench_env.py
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_in(tree: Path, script: list[str]) -> str:
    """The script's output, run from ``tree`` with ``tree``'s package first on the path."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    result = subprocess.run([sys.executable, *script], cwd=tree, env=env, capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"{' '.join(script)} failed in {tree} (exit {result.returncode}):\n{result.stderr.strip()}")
    return result.stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ref", help="the earlier commit (any git revision)")
    parser.add_argument("--rounds", type=int, default=2, help="times each side runs, alternately")
    parser.epilog = "then -- SCRIPT [ARGS]: the benchmark, a path relative to the repository"
    argv = sys.argv[1:]
    if "--" not in argv or argv.index("--") == len(argv) - 1:
        parser.error("give the benchmark after --, e.g. -- benchmarks/bench_engine.py")
    split = argv.index("--")
    args, script = parser.parse_args(argv[:split]), argv[split + 1 :]
    commit = subprocess.run(["git", "rev-parse", "--short", args.ref], cwd=ROOT, capture_output=True, text=True)
    if commit.returncode:
        raise SystemExit(f"{args.ref}: not a revision of this repository")
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "ref"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), args.ref], cwd=ROOT, check=True)
        try:
            for round_no in range(1, args.rounds + 1):
                for label, where in ((f"{commit.stdout.strip()} (ref)", tree), ("working tree", ROOT)):
                    print(f"== round {round_no}, {label}", flush=True)
                    print(run_in(where, script), flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
