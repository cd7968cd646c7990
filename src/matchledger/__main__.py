"""``python -m matchledger``: the command line."""

from matchledger.commands.cli import main

main()
