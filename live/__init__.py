"""The live room: a game under way as the people in the room see it and act on it.  The players'
phones (their page, their status polled or pushed, their slips on a lean path, the slips they tried
while the server did not answer, join codes typed on ``/moi/``), the arbiter's screen of the game
(its slips panel, paper slips and corrections, the lists of the missing and the ranking), the
projector, and the results each phone is sent at a round's close.  The tournament's setup and the
rules' steps of a game (registration, games, draws, tops, the close and the grading) are the
``tournaments`` room's, below this one."""
