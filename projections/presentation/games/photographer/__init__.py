"""Фотограф: the table, films and hands as terminal text (``text``) and as a picture
(``picture``)."""
