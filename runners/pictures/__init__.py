"""Pictures and play: SVG drawings, galleries of every solution, playable pages, bench charts.

Modules: `svg` (drawing primitives), `packing`, `edge_matching`, `mind_lock` (drawings of each
family), `solutions` (the solutions drawn, and their classes), `gallery` (index pages and one SVG
per solution or class), `play` (self-contained HTML pages to play offline), `charts` (bench
plots with matplotlib, the optional extra `plots`).
"""
