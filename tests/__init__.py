"""The test suite; its folders mirror the project's layers (engine, envs, agents, train, cli).

A package so test modules import the shared helpers as ``tests.helpers`` (the repository root is on
``sys.path`` through pytest's ``pythonpath`` setting in pyproject.toml).
"""
