"""Benchmarks that are library code: each module's `run(...)` times methods side by side and
writes its figures to results/."""
