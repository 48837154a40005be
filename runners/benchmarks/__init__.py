"""Benchmarks as library code: instances, timed runs and results tables (no command line here)."""
