# Data of 0004: every correction logged so far names its round and player; every slip its history.

from django.db import migrations


def changes_by_round_and_player(apps, schema_editor):
    """Every correction logged so far names its round and player (it named its slip only)."""
    Change = apps.get_model("tournaments", "SubmissionChange")
    for change in Change.objects.select_related("submission"):
        change.round_id, change.player_id = change.submission.round_id, change.submission.player_id
        change.save(update_fields=["round", "player"])


def slips_history(apps, schema_editor):
    """A slip stored before keeps its last sending as its history."""
    Submission = apps.get_model("tournaments", "Submission")
    for sub in Submission.objects.filter(history=[]).iterator():
        text = " ".join([sub.ref or "-", sub.word, *([str(sub.claimed)] if sub.claimed is not None else [])])
        sub.history = [{"slip": text, "at": sub.received_at.isoformat()}]
        sub.save(update_fields=["history"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0004_evening'),
    ]

    operations = [
        migrations.RunPython(changes_by_round_and_player, migrations.RunPython.noop),
        migrations.RunPython(slips_history, migrations.RunPython.noop),
    ]
