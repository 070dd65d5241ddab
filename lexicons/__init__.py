"""Word lists: the shipped free list and the lists a club uploads (``LexiconList``), and the engine's
graph of each, loaded once per process (``loaded``)."""
