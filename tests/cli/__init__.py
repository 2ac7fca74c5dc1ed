"""The ``shithead`` command line: help, errors, version, demo."""
