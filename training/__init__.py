"""Training alone: a finished game of the club, a prepared game file or a new random game,
timed or not, in topping or not, every slip graded by the same FISF rules.  The state is the player's
own (a signed cookie): training writes nothing to the database and takes no lock of the live room."""
