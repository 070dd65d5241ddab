from django.core.management.base import BaseCommand

from guides import build


class Command(BaseCommand):
    help = "Build the guides (docs/) into the folder served under /aide/, unless built from the same sources."

    def add_arguments(self, parser):
        parser.add_argument("--force", action="store_true", help="build even if the sources have not changed")

    def handle(self, *args, force=False, **options):
        target = build.site_dir()
        if not force and build.is_current(target):
            self.stdout.write(f"Guides already built: {target}")
            return
        build.build(target)
        self.stdout.write(f"Guides built: {target}")
