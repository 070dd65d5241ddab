"""A word list the club can play with.  The table is named ``tournaments_lexiconlist``, as in
the ``tournaments`` app: migration ``lexicons.0001`` moves the model here without touching the table."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LexiconList(models.Model):
    """A word list the club can play with: the shipped free list or a list the club uploaded."""

    name = models.CharField(_("nom"), max_length=80)
    #: The sha256 of the list as stored (its normalized words, one per line): with ``letters``, the
    #: list's identity (the same words read for two letter sets are two lists).
    sha256 = models.CharField(max_length=64)
    #: The letter set the list is spelled in (``engine.lettersets``): its words are cut into that
    #: set's tiles, and only a tournament of that set plays with it.
    letters = models.CharField(_("jeu de lettres"), max_length=8, default="fr")
    word_count = models.PositiveIntegerField()
    #: Lines of the file sent holding no word the letter set can spell: counted, said on the form.
    unspellable = models.PositiveIntegerField(default=0)
    #: Where the list's bytes are kept, never as this laptop's absolute path: ``shipped:<file>`` or
    #: an uploaded copy relative to MEDIA_ROOT; opened through ``lexicons.files.lexicon_file``.
    path = models.CharField(max_length=500)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    #: The clubs that uploaded the list (``clubs``): only they play with it.  None: the shipped list,
    #: or one uploaded before clubs existed, for every club.
    clubs = models.ManyToManyField("clubs.Club", blank=True, related_name="+")

    class Meta:
        db_table = "tournaments_lexiconlist"
        constraints = [
            models.UniqueConstraint(fields=["sha256", "letters"], name="lexicon_sha256_letters"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.sha256[:8]})"

    @property
    def key(self) -> str:
        """The list's key in a process's memory and the engine's cache: its sha256, prefixed by its
        letter set when that is not French."""
        return self.sha256 if self.letters == "fr" else f"{self.letters}:{self.sha256}"
