"""A picture module needing a library that is not installed."""

import matchledger_no_such_drawing_library  # noqa: F401
