"""``python -m majiang``: the ``majiang`` command line."""
import sys

from .cli import main

sys.exit(main())
