"""``python -m anaconda_sim``: the ``anaconda-sim`` command."""

import sys

from .cli import main

sys.exit(main())
