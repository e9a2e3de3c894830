"""``python -m majiang.cli``: the ``majiang`` command line."""
import sys

from . import main

sys.exit(main())
