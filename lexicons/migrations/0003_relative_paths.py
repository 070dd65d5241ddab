# The word lists' paths kept relative, so a copy resumed on another laptop or an installation moved
# to another folder finds its lists (lexicons/files.py): the shipped list by its file's name
# ("shipped:<file>"), an uploaded list relative to MEDIA_ROOT ("lexicons/<sha256>.txt"), whether it
# lay under this installation's MEDIA_ROOT or, on a copy from another laptop, under that one's.
# The rules are written out here, fixed with the migration (a later change of lexicons/files.py leaves
# it as it ran).

from pathlib import Path, PurePosixPath

from django.conf import settings
from django.db import migrations

SHIPPED = "shipped:"


def _shipped_folder() -> Path:
    from engine.lexicon import DEFAULT_PATH

    return DEFAULT_PATH.parent


def _relative(path: str, sha256: str) -> str:
    named = Path(path)
    if not named.is_absolute():
        return path
    if named.parent == _shipped_folder() or named.parent.parts[-3:] == ("engine", "lexicon", "data"):
        return SHIPPED + named.name
    if named.name == f"{sha256}.txt" and named.parent.name == "lexicons":
        return f"lexicons/{sha256}.txt"
    try:
        return named.relative_to(Path(settings.MEDIA_ROOT)).as_posix()
    except ValueError:
        return path


def _absolute(path: str) -> str:
    if path.startswith(SHIPPED):
        return str(_shipped_folder() / path[len(SHIPPED) :])
    if Path(path).is_absolute():
        return path
    return str(Path(settings.MEDIA_ROOT) / PurePosixPath(path))


def _convert(apps, convert) -> None:
    LexiconList = apps.get_model("lexicons", "LexiconList")
    for row in LexiconList.objects.only("pk", "path", "sha256"):
        path = convert(row)
        if path != row.path:
            LexiconList.objects.filter(pk=row.pk).update(path=path)


def forwards(apps, schema_editor):
    _convert(apps, lambda row: _relative(row.path, row.sha256))


def backwards(apps, schema_editor):
    _convert(apps, lambda row: _absolute(row.path))


class Migration(migrations.Migration):
    dependencies = [("lexicons", "0002_lexiconlist_clubs")]
    operations = [migrations.RunPython(forwards, backwards)]
