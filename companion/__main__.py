"""`python -m companion` runs the same command line as `companion`."""

from companion.cli import main

raise SystemExit(main())
