"""A word list the club can play with.  The table is named ``tournaments_lexiconlist``, as in
the ``tournaments`` app: migration ``lexicons.0001`` moves the model here without touching the table."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class LexiconList(models.Model):
    """A word list the club can play with: the shipped free list or a list the club uploaded."""

    name = models.CharField(_("nom"), max_length=80)
    sha256 = models.CharField(max_length=64, unique=True)
    word_count = models.PositiveIntegerField()
    #: Where the list's bytes are kept, never as this laptop's absolute path: ``shipped:<file>`` or
    #: an uploaded copy relative to MEDIA_ROOT; opened through ``lexicons.files.lexicon_file``.
    path = models.CharField(max_length=500)
    uploaded_at = models.DateTimeField(auto_now_add=True)
    #: The clubs that uploaded the list (``clubs``): only they play with it.  None: the shipped list,
    #: or one uploaded before clubs existed, for every club.
    clubs = models.ManyToManyField("clubs.Club", blank=True, related_name="+")

    class Meta:
        db_table = "tournaments_lexiconlist"

    def __str__(self) -> str:
        return f"{self.name} ({self.sha256[:8]})"
