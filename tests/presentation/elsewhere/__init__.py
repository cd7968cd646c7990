"""A presentation kept outside matchledger's own folders, as a game installed from
elsewhere keeps its own: the toy game's, when a test's declaration names it."""
