"""``python -m majiang.botzone``: a Botzone Chinese-Standard-Mahjong program."""
import sys

from ._bot import main

sys.exit(main())
