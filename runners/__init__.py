"""Solver backends, the reference solvers, and the command line."""
