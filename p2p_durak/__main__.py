"""`python -m p2p_durak`: the `durak` command, for a system where the script is not on PATH."""

import sys

from p2p_durak.cli.main import main

sys.exit(main())
