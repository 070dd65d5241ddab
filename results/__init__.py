"""Results: the printed sheets (``sheets`` gathers their data, ``reports`` lays them out), the files a
game leaves (``exports``), the merge of several clubs' results of one game (``merges``), printouts
built by a task (``services``, ``tasks``), and the results pages.  Rankings themselves are read in the
live room (``tournaments.standings``): the phones and the projector show them during the evening."""
