"""The laptop's club: every server has one club from the start, and on a server upgraded from the
version without clubs every account becomes an arbiter of it (the administrator needs no role)."""

from django.db import migrations

FIRST_CLUB = "Mon club"


def first_club(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    Member = apps.get_model("clubs", "Member")
    User = apps.get_model("auth", "User")
    club = Club.objects.order_by("id").first() or Club.objects.create(name=FIRST_CLUB)
    for user in User.objects.filter(is_superuser=False):
        Member.objects.get_or_create(club=club, user=user, defaults={"role": "arbiter"})


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial")]

    operations = [migrations.RunPython(first_club, migrations.RunPython.noop)]
