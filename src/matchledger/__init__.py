"""matchledger: an event-sourced, tamper-evident match ledger for hosted games.

The layers are installed beneath this package: ``matchledger.ledger`` (the log),
``matchledger.engine`` (the rules), ``matchledger.projections`` (replay, read models and
the application API) and ``matchledger.commands`` (the command line).
"""
