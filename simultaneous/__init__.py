"""Simultaneous events: one game played in several centres on the same server (issue 14).

An organiser (an arbiter of the organising club, or the administrator) makes an event: a prepared
game (its record is kept here and never shown), or a live one whose racks are drawn in the lead
centre as the game goes (the FFSc's Multiplex).  Clubs join as centres: each gets a tournament of
its own (its players, phones, projector, clock and arbiter) whose game is started from the event.
A centre reaches round N's rack only when its room draws round N; in a live event the record of
each centre's game grows as the lead centre places its tops (``tournaments.Game.growing``), so every
centre places the same top (§5).  The public page ranks every centre's players, updated as centres
close rounds, cached under a key naming each centre's state.
"""
