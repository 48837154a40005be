"""`python -m puzzlesat.cli`: the command line."""

import sys

from . import main

sys.exit(main())
