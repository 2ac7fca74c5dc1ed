"""The import graph of the project: no circle, and no arrow up the layers engine -> envs -> agents -> train -> CLI.

Every import counts, module-level or inside a function; only imports under
``if TYPE_CHECKING:`` (annotations, never run) are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shithead_env", "agents", "train")
LAYERS = ("engine", "envs", "agents", "train", "cli")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def layer(module: str) -> str:
    """The layer a module belongs to; the subcommands of the ``shithead`` command are the CLI."""
    top, _, rest = module.partition(".")
    if module in ("shithead_env.cli", "shithead_env.demo") or rest.startswith("cli") or "cli_" in rest:
        return "cli"
    if top == "shithead_env":
        return "envs" if rest == "" or rest.startswith(("envs", "shithead_v0")) else "engine"
    return top


def _type_checking_only(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports(module: str) -> set[str]:
    """The project modules ``module`` imports (a package's ``from p import sub`` counts as ``p.sub``)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if _type_checking_only(node):
            continue
        stack.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}".rstrip(".")
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {name for name in found if name in MODULES and name != module}


GRAPH = {module: imports(module) for module in MODULES}


def test_the_graph_sees_the_engine() -> None:
    assert "shithead_env.knowledge" in GRAPH["shithead_env.game"]
    assert layer("shithead_env.game") == "engine" and layer("agents.cli_play") == "cli"


def test_no_import_circle() -> None:
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import circle: " + " -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        for target in sorted(GRAPH[module]):
            visit(target, [*path, module])
        done.add(module)

    for module in sorted(GRAPH):
        visit(module, [])


def test_no_arrow_up_the_layers() -> None:
    upward = [
        f"{module} ({layer(module)}) imports {target} ({layer(target)})"
        for module, targets in sorted(GRAPH.items())
        for target in sorted(targets)
        if LAYERS.index(layer(target)) > LAYERS.index(layer(module))
    ]
    assert not upward, "\n".join(upward)


def named_in_strings(module: str) -> set[str]:
    """The project modules ``module`` names in a string (``"train.policy_bot:PolicyBot"``, an import by name)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    names = {node.value.partition(":")[0] for node in ast.walk(tree)
             if isinstance(node, ast.Constant) and isinstance(node.value, str)}  # fmt: skip
    return {name for name in names if "." in name and name in MODULES and name != module}  # not a bare extra's name


def test_no_module_named_up_the_layers() -> None:
    """A kind registered by name is an import all the same: ``agents`` names no ``train`` module (those register
    through the ``shithead.bot_kinds`` entry point)."""
    upward = [
        f"{module} ({layer(module)}) names {target} ({layer(target)})"
        for module in sorted(MODULES)
        for target in sorted(named_in_strings(module))
        if LAYERS.index(layer(target)) > LAYERS.index(layer(module))
    ]
    assert not upward, "\n".join(upward)
    assert "agents.heuristic" in named_in_strings("agents.base")  # the scan reads the registry's own lines
