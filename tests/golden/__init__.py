"""Golden files: per-seed digests of `epigames play --json` transcripts and tournament rows.

See `tests/golden/make.py` (how they are computed and regenerated) and
`tests/games/test_golden.py` (the test that checks them).
"""
