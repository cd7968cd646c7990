"""Lights, Camera, Action!: the studio as a picture (``picture``)."""
