"""Simultaneous events: one game played in several centres on the same server.

An organiser (an arbiter of the organising club, or the administrator) makes an event: a prepared
game (its record is kept here and never shown), or a live one whose racks are drawn in the lead
centre as the game goes (the FFSc's Multiplex).  The organiser registers the centres, live on the
server or offline on a laptop (``Registration``), and may withdraw them; a club registered live joins
and gets a tournament of its own (its players, phones, projector, clock and arbiter) whose game is
started from the event, a club registered offline sends its laptop's results file.
A centre reaches round N's rack only when its room draws round N.  In a live event (the Multiplex,
``tournaments.follow``) every centre gets round N's rack as soon as the lead centre draws it and plays
it at the same time; among tied tops every centre places the lead's choice, told to a centre only once
its own round N has closed, so every centre places the same top (§5).  The public page ranks the
players of the centres up to date (``reads``), updated as centres close rounds, cached under a key
naming each centre's state.
"""
