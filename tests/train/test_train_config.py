"""The training config: every shipped config loads; bad keys and values are refused by name."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from train.config import CONFIG_DIR, ConfigError, TrainConfig, config_markdown, load_config, parse_override

SHIPPED = sorted(p.stem for p in CONFIG_DIR.glob("*.yaml"))


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cfg.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_three_configs_are_shipped() -> None:
    assert {"quick", "vs_heuristic", "selfplay"} <= set(SHIPPED)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_config_loads(name: str) -> None:
    config = load_config(name)
    assert config.name == name
    assert config.total_timesteps > 0


def test_every_field_is_documented() -> None:
    for f in dataclasses.fields(TrainConfig):
        assert f.metadata.get("doc"), f"field {f.name} has no documentation"
    table = config_markdown()
    for f in dataclasses.fields(TrainConfig):
        assert f"`{f.name}`" in table


def test_training_page_carries_the_generated_settings_table() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "training.md").read_text(encoding="utf-8")
    assert config_markdown() in page, "docs/training.md is stale: paste the table `python -m train.config` prints"


def test_every_shipped_config_is_in_the_training_page() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "training.md").read_text(encoding="utf-8")
    missing = [name for name in SHIPPED if f"| `{name}` |" not in page]
    assert not missing, f"docs/training.md's config table lacks {missing}"


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("learning_rat: 0.001\n", "learning_rat"),  # unknown key
        ("n_envs: four\n", "n_envs"),  # wrong type
        ("n_envs: 2.5\n", "n_envs"),  # float for an int
        ("league: 1\n", "league"),  # int for a bool
        ("gamma: 1.5\n", "gamma"),  # above the maximum
        ("n_steps: 1\n", "n_steps"),  # below the minimum
        ("rules: no_such_preset\n", "rules"),  # unknown preset
        ("vec_env: threads\n", "vec_env"),  # unknown choice
        ("snapshot_scheme: elo\n", "snapshot_scheme"),
        ("opponents: {no_such_bot: 1}\n", "opponents"),  # unknown bot
        ("opponents: {'ismcts:simz=3': 1}\n", "opponents"),  # unknown bot option
        ("opponents: {'ismcts:sims=many': 1}\n", "opponents"),  # bad bot option value
        ("opponents: {random: -1}\n", "opponents"),
        ("eval_opponents: [heuristic, nobody]\n", "eval_opponents"),
        ("net_arch: [64, 0]\n", "net_arch"),
        ("num_players: 9\n", "num_players"),  # dead_last seats 2-5
        ("best_by: heuristic\neval_opponents: [random]\n", "best_by"),
        ("n_envs: 3\nn_steps: 100\nbatch_size: 64\nvec_env: dummy\n", "batch_size"),
        ("[1, 2]\n", "mapping"),
        ("tables: {poker: [2]}\n", "tables: 'poker' is not one of"),
        ("tables: {pub: [5]}\n", r"tables\['pub'\]"),  # pub seats 2-4
        ("tables: {pub: []}\n", r"tables\['pub'\]: \[\] must be a non-empty list"),
        ("tables: {pub: [2, 2]}\n", "distinct player counts"),
        ("tables: {pub: [2, 3, 4]}\nn_envs: 4\nworkers: 1\n", "n_envs: 4 must be a multiple of the 3 tables"),
        ("tables: {pub: 3}\n", "tables"),  # a count, not a list
        ("device: tpu\n", "device"),
        ("max_seconds: -1\n", "max_seconds"),
        ("init_from: no/such/checkpoint.zip\n", "init_from: 'no/such/checkpoint.zip' is not a file"),
        ("init_sharpen: 8\n", "init_sharpen: it scales init_from's action head"),
        ("init_sharpen: 0\n", "init_sharpen: 0.0 must be above 0"),
        ("backend: rllib\ninit_sharpen: 2\nn_envs: 2\n", "init_sharpen: only the sb3 backend"),
        ("backend: rllib\ntables: {pub: [2]}\nn_envs: 2\n", "tables: only the sb3 backend"),
    ],
)
def test_bad_config_is_refused_by_name(tmp_path: Path, text: str, named: str) -> None:
    with pytest.raises(ConfigError, match=named):
        load_config(write(tmp_path, text))


def test_bad_override_is_refused_by_name() -> None:
    with pytest.raises(ConfigError, match="ent_coeff"):
        load_config("quick", ["ent_coeff=0.1"])
    with pytest.raises(ConfigError, match="total_timesteps"):
        load_config("quick", ["total_timesteps=-5"])
    with pytest.raises(ConfigError, match="key=value"):
        load_config("quick", ["total_timesteps"])


def test_overrides_are_read_as_yaml() -> None:
    config = load_config("quick", ["n_envs=4", "net_arch=[32, 32]", "opponents={heuristic: 1}", "league=true"])
    assert config.n_envs == 4 and config.net_arch == [32, 32] and config.league is True
    assert config.opponents == {"heuristic": 1.0}
    assert parse_override("best_by=") == ("best_by", "")


def test_tables_replace_rules_and_players_in_environment_order() -> None:
    config = load_config(None, ["tables={pub: [2, 4], harrogate: [6]}", "n_envs=6", "workers=1"])
    assert config.table_list() == [("pub", 2), ("pub", 4), ("harrogate", 6)]
    assert load_config(None, ["rules=pub", "num_players=3"]).table_list() == [("pub", 3)]


def test_the_generalist_config_covers_every_preset_up_to_six_players() -> None:
    from shithead_env import PRESETS, load_rules

    config = load_config("generalist")
    expected = {(p, n) for p in PRESETS for n in range(2, 7) if load_rules(p).min_players <= n
                <= load_rules(p).max_players}
    assert set(config.table_list()) == expected and len(expected) == 21
    assert config.n_envs % 21 == 0 and config.init_from


def test_unknown_config_name_lists_the_known_ones() -> None:
    with pytest.raises(ConfigError, match="quick"):
        load_config("no_such_config")


def test_resolved_config_round_trips(tmp_path: Path) -> None:
    config = load_config("selfplay", ["seed=3"])
    config.save(tmp_path / "config.yaml")
    again = load_config(tmp_path / "config.yaml")
    assert again == config
