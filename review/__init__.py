"""Review: a game stepped through round by round after the evening — the board before, the rack, the
slip as sent and as graded, the top and the words it formed, the ten best placements with the
player's own move marked — with the player's percentage per round and a chart of their running
total against the tops'; the arbiter's review adds the room: who found the top, the moves most
played, the solos.  The training room (``training``) shows its rounds the same way."""
