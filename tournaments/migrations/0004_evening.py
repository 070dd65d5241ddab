# The evening as it really goes: typed racks and their rejections, abandoned games, the organising
# club, each slip's history, and corrections logged by round and player so that undoing walks back.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0003_models_to_their_rooms'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='pending_rejections',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='round',
            name='rejection_reasons',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='round',
            name='typed',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='submission',
            name='history',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='submissionchange',
            name='player',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.player'),
        ),
        migrations.AddField(
            model_name='submissionchange',
            name='round',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.CASCADE, related_name='changes', to='tournaments.round'),
        ),
        migrations.AddField(
            model_name='submissionchange',
            name='undoes',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='undone_by', to='tournaments.submissionchange'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='club',
            field=models.CharField(blank=True, max_length=120, verbose_name='club organisateur'),
        ),
        migrations.AlterField(
            model_name='game',
            name='status',
            field=models.CharField(choices=[('playing', 'en cours'), ('ended', 'terminée'), ('abandoned', 'abandonnée')], default='playing', max_length=10),
        ),
        migrations.AlterField(
            model_name='submissionchange',
            name='after',
            field=models.JSONField(null=True),
        ),
        migrations.AlterField(
            model_name='submissionchange',
            name='submission',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='changes', to='tournaments.submission'),
        ),
    ]
