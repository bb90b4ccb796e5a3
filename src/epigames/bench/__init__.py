"""Benchmarks run by `epigames bench NAME`: each module defines `run(console, **options)`.

Every benchmark prints ratios against a baseline measured in the same run.
"""
