"""The log: event types, the codec whose bytes are stored and hashed, the stores, and
the hash chain."""
