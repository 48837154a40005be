"""Compiled move kernels of the puzzles solved by moves, one module a family.

A kernel writes the codes of the positions one move away from a position's code; the
breadth-first engine (runners/breadth_first.py) runs it, and the 'table' backend
(runners/backends/table.py) keeps what the engine finds. A family's table model
(`MovesFamily.table_model`) names its kernel and the arrays it reads. With numba installed the
kernels are compiled; without it they run as Python (runners/compiled.py).
"""
