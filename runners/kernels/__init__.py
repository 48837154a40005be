"""The move kernels' arrays of the puzzles solved by moves, one module a family.

A kernel gives the codes of the positions one move away from a position's code; the kernels and
the breadth-first engine's loops are C (runners/csrc/moves.c, the module puzzlesat._moves, built
when puzzlesat is installed). The engine (runners/breadth_first.py) drives them, and the 'table'
backend (runners/backends/table.py) keeps what the engine finds. A family's table model
(`MovesFamily.table_model`) names its kernel by number and gives the arrays made here.
"""
