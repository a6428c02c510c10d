"""`python -m catalogctl`."""

from catalogctl.cli import main

main()
