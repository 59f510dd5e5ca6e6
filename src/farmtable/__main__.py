"""``python -m farmtable`` runs the command line."""

import sys

from farmtable.cli import main

sys.exit(main())
