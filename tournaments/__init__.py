"""The tournament's setup and the rules' steps of its games: tournaments and their players
(registration, join codes given, a spreadsheet's CSV), games started, ended and abandoned, each
round's rack drawn, its top searched, the clock started, the round closed and its slips graded, the
top placed, and the rankings (``standings``).  What the room sees and does while a game runs is the
``live`` room's, above this one."""
