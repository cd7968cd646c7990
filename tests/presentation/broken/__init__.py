"""A presentation whose picture module cannot be imported (it needs a module nobody installed)."""
