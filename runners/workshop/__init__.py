"""The workshop: `puzzlesat serve`, a local web application over the Python API.

The catalog and the puzzle files of one folder as pages; a puzzle drawn, counted (in a worker
process, with progress, a stop and a checkpoint to resume from), its solutions browsed as
pictures; an editor of packing puzzles that writes the TOML files the command line reads.
The web framework (Starlette, served by uvicorn) is the optional extra `serve`.
"""
