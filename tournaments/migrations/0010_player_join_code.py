"""Every player gets a join code: the column added empty, then each existing player given
a code of its own (the alphabet and length of this version, copied here: a later change of
``tournaments.models`` leaves this migration as it ran).  ``0011`` then makes it required and unique
(in a migration of its own: PostgreSQL alters no table with the updates still pending)."""

import secrets

from django.db import migrations, models

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
LENGTH = 8


def _fill(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    used = set(Player.objects.exclude(join_code=None).values_list("join_code", flat=True))
    batch = []
    for player in Player.objects.filter(join_code=None).only("pk").order_by("pk").iterator():
        code = None
        while code is None or code in used:
            code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        used.add(code)
        player.join_code = code
        batch.append(player)
        if len(batch) >= 1000:
            Player.objects.bulk_update(batch, ["join_code"])
            batch = []
    Player.objects.bulk_update(batch, ["join_code"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_game_growing"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="join_code",
            field=models.CharField(max_length=8, null=True, editable=False, verbose_name="code"),
        ),
        migrations.RunPython(_fill, migrations.RunPython.noop),
    ]
