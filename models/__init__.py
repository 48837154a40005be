"""Puzzle definitions (plain data), their geometry, and their encodings for solvers."""
