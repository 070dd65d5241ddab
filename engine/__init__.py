"""The duplicate Scrabble engine: a pure-Python library (no Django, no Celery).

Modules: ``alphabet`` (tiles as ints, the ``LetterSet`` value and the French
set), ``lettersets`` (the Spanish, Catalan and English sets), ``board`` (tiles
and premiums), ``notation`` (text in and out; ``tiletext`` for the tiles of
several characters, ``[CH]``), ``lexicon`` (word graph), ``scoring`` (one
move placed and scored), ``movegen`` (the top search), ``draw`` (bag and
racks), ``choice`` (which tied top goes on the board), ``record`` (game
records), ``grading`` (players' slips), ``ranking`` (results of games and
tournaments), ``variants`` (the original games: joker, explosive, seven among
eight).
"""
