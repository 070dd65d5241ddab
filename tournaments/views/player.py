"""The player's phone: no account, recognised by the secret token of their join link."""
