"""The engine layer: rules, worked cases, game state and JSON, errors, events, render, determinize."""
