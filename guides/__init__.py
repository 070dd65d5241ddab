"""The guides (docs/, built by MkDocs) served offline by the application under /aide/, and the
'Aide' link of every arbiter screen that opens the page about it in the interface's language."""
