"""Lights, Camera, Action!: the studio as terminal text (``text``) and as a picture
(``picture``)."""
