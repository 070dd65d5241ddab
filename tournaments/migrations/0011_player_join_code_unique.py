import tournaments.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_player_join_code"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="join_code",
            field=models.CharField(
                default=tournaments.models.new_join_code,
                editable=False,
                max_length=8,
                unique=True,
                verbose_name="code",
            ),
        ),
    ]
