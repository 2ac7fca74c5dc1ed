"""Bots and what serves them: specs, heuristic, tournament, model cards, JSON protocol, HTTP server, browser, play."""
