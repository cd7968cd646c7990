"""Фотограф: the table, films and hands as a picture (``picture``)."""
