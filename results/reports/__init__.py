"""The printed results (ranking, game sheet, players' score cards): reportlab renderers fed with plain data.

``data`` holds what a sheet shows; ``render`` turns it into ``(filename, mimetype, bytes)``. Nothing in
this package imports Django or reads the database: the caller gathers the data first.
"""
