"""`python -m referee ...`: the referee on the command line (see `referee.cli`)."""

from referee.cli import main

raise SystemExit(main())
