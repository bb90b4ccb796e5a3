"""CLI command modules; each defines `register(app)` and is found by `epigames.cli`."""
