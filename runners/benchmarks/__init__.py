"""Benchmarks as library code: instances, timed runs side by side and results tables
(written to results/); the command line calls them in process."""
