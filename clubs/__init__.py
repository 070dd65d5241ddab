"""Clubs: who owns what on a server that hosts several clubs.

A club is the unit of ownership: its tournaments (and through them players, games, rounds, slips and
printouts), its merges and the word lists it uploaded.  People belong to clubs with a role: a club
arbiter does everything for the club's tournaments and invites others; a deputy enters paper slips
and corrections during a game, nothing else.  The site's administrator (a Django superuser) creates
clubs and invites their first arbiter.  The laptop default is one club, made by the migration, and
the one arbiter the first start makes (the administrator, who sees every club).

``access`` answers "may this person do this to that object" for the rooms above, which name how
their objects lead to a club; ``views`` are the club's page, the administrator's list of clubs and
the invitation a new arbiter opens to set their password.
"""
