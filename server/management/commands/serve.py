"""``manage.py serve``: the embedded default on the club's laptop.

Migrates, makes sure an arbiter account exists (printing its password the first time), collects the
static files, prints the addresses phones on the same network can open, and serves with waitress
(pure Python, runs on Windows and Linux) on every interface.
"""

from __future__ import annotations

import contextlib
import secrets
import signal
import sys
import threading
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from engine.lexicon import DEFAULT_NAME
from server.background import INTERVAL_SECONDS, start_chores
from server.backup import default_folder, start_saver
from server.language import system_language
from server.logs import log_to_file
from server.network import free_ports, lan_addresses, port_taken
from server.strangers import room_side
from server.strangers import start as start_strangers
from server.warmup import warm_up_rooms


def ensure_arbiter(username: str = "arbitre") -> str | None:
    """Create the arbiter account if missing; return its new password, or None if it existed."""
    if User.objects.filter(username=username).exists():
        return None
    password = secrets.token_urlsafe(9)
    User.objects.create_superuser(username, password=password)
    return password


def change_password_command(username: str) -> str:
    """The command that changes the arbiter's password, as it runs from the project's folder (this
    very interpreter: the project's ``.venv`` when started by run.py), quoted for the shell; an
    installed package's runs from anywhere (``python -m arbiter``)."""
    python = Path(sys.executable)
    if not settings.CHECKOUT:
        return f"{_quoted(str(python))} -m arbiter changepassword {username}"
    with contextlib.suppress(ValueError):
        python = python.relative_to(settings.BASE_DIR)
    return f"{_quoted(str(python))} manage.py changepassword {username}"


def _quoted(text: str) -> str:
    return f'"{text}"' if " " in text else text


#: Open connections waitress accepts: a few per phone of the biggest room the laptop is meant for.
#: Beyond it a newcomer makes room (server/waitress.py): the limit never locks a phone out.
CONNECTION_LIMIT = 1000
#: Open connections of one client address (on the club's Wi-Fi each phone has its own).  A browser
#: opens at most 6 per host, 12 when it keeps a second pool for requests without cookies; twice
#: that and more leaves room for a second browser and for connections a phone left behind when its
#: Wi-Fi dropped.  One more from the same address closes that address's oldest waiting connection.
CONNECTIONS_PER_ADDRESS = 32
#: A request's body, at most: the biggest upload the forms take is 20 MB (a word list: 16 MB; see the
#: README's "Limits"), which they refuse with a sentence; waitress answers 413 beyond this, before
#: buffering a gigabyte to disk.
MAX_REQUEST_BYTES = 40 * 1024 * 1024
#: Threads serving requests.  One process runs Python on one core at a time: every thread more adds
#: switching (each database call hands the interpreter to another thread), so that four threads answer
#: the phones' polls later than two (measured: docs/developer/benchmarks.md); one thread would leave
#: every phone waiting behind the arbiter's slowest page.
THREADS = 2


def laptop_server_options(port: int, threads: int) -> dict:
    """What the laptop's servers (the room's, the strangers') are given: every interface, the
    connection limits, the biggest body."""
    return {
        "host": "0.0.0.0",
        "port": port,
        "threads": threads,
        "connection_limit": CONNECTION_LIMIT,
        "connections_per_address": CONNECTIONS_PER_ADDRESS,
        "max_request_body_size": MAX_REQUEST_BYTES,
        "ident": "arbiter",
    }


class Command(BaseCommand):
    help = "Run the application on this laptop for the club's network."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--threads", type=int, default=THREADS)
        parser.add_argument("--no-serve", action="store_true", help="prepare everything, do not serve")
        parser.add_argument(
            "--strangers-port",
            type=int,
            default=None,
            help="port of the process serving public pages and training (default: the next; 0: none)",
        )
        parser.add_argument(
            "--chores-seconds",
            type=float,
            default=INTERVAL_SECONDS,
            help="how often waiting results are sent",
        )
        parser.add_argument(
            "--backup-dir",
            default=None,
            help="folder of the evening's copies (a USB key); default ARBITER_BACKUP_DIR or var/backups",
        )
        parser.add_argument("--resume", default=None, help="continue the evening of this copy (or folder)")
        parser.add_argument("--replace", action="store_true", help="with --resume: replace this evening")

    def handle(self, *args, **options):
        """Ctrl+C stops the server, at any moment, with one sentence and no traceback:
        everything is kept in the database, and a round left running closes at the next start.  The
        terminal shows what the arbiter must know; the details go to the log file (``server.logs``)."""
        self.log = log_to_file("arbiter")
        translation.activate(system_language())  # the terminal's lines in the laptop's language
        ctrl_c_taken_back()
        try:
            serving = self._serve(**options)
        except KeyboardInterrupt:  # before serving (migrating, collecting the static files)
            serving = True
        if serving:
            self.stdout.write("\n" + _("Arrêté. Tout est gardé dans %(path)s.") % {"path": settings.VAR_DIR})
            self.stdout.flush()

    def _ports_free(self, port: int, strangers_port: int | None) -> None:
        ports = [port] + ([] if strangers_port == 0 else [strangers_port or port + 1])
        taken = next((p for p in ports if port_taken(p)), None)
        if taken is None:
            return
        self.stderr.write(
            _(
                "Le port %(port)s est déjà pris : l'application tourne peut-être déjà dans une autre "
                "fenêtre (fermez-la d'abord), ou un autre programme l'utilise. Sinon, lancez : "
                "python3 run.py --port %(other)s"
            )
            % {"port": taken, "other": free_ports(max(ports))}
        )
        raise SystemExit(1)

    def _word_list_note(self) -> None:
        """At the first start (rules §6): the shipped list is not the ODS the clubs play, and the
        first step is to load the club's own list."""
        self.stdout.write(
            "  "
            + _(
                "Dictionnaire : la liste livrée (« %(name)s ») n'est pas l'ODS : QI, WOK, OK, ZEF, KI, "
                "BLOG y sont refusés et les tops diffèrent de ceux des clubs."
            )
            % {"name": DEFAULT_NAME}
        )
        self.stdout.write(
            "  "
            + _(
                "Premier pas : envoyez la liste ODS de votre club en créant votre premier tournoi "
                "(« Nouveau tournoi », champ « liste de mots à envoyer »)."
            )
        )

    def _resume(self, path: str | None, *, replace: bool) -> None:
        """``--resume PATH``, or the copy the first page of this fresh installation checked (taken
        once: refused now, say the key was pulled out, the server starts on its own database)."""
        from server.management.commands.resume import resume_or_refuse
        from server.restore import UPLOADED, pending_resume

        if path:
            resume_or_refuse(path, replace=replace, write=self.stdout.write)
            return
        pending = pending_resume(settings.VAR_DIR)
        if pending is None:
            return
        copy, media = pending
        try:
            resume_or_refuse(str(copy), replace=False, write=self.stdout.write, media=media)
        except CommandError as error:
            self.stderr.write(str(error))
            return
        if copy == Path(settings.VAR_DIR) / UPLOADED:
            copy.unlink(missing_ok=True)

    def _serve(
        self,
        *,
        port: int,
        threads: int,
        no_serve: bool,
        chores_seconds: float,
        backup_dir: str | None,
        **options,
    ) -> bool:
        """Prepare, then serve until Ctrl+C (waitress ends its loop on it); False with ``--no-serve``.
        A port another program holds is said before anything is prepared, with one to use instead."""
        if not no_serve:
            self._ports_free(port, options.get("strangers_port"))
        self._resume(options.get("resume"), replace=options.get("replace", False))
        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        warm_up_rooms()
        password = ensure_arbiter()
        self.stdout.write("")
        self.stdout.write(_("Arbitre duplicate : l'application est prête."))
        for address in lan_addresses():
            url = f"http://{address}:{port}/"
            self.stdout.write("  " + _("Ouvrir : %(url)s   (téléphones sur le même Wi-Fi)") % {"url": url})
        self.stdout.write("  " + _("Sur ce portable : %(url)s") % {"url": f"http://127.0.0.1:{port}/"})
        if password:
            self.stdout.write(
                "  "
                + _("Compte arbitre : identifiant « %(username)s », mot de passe « %(password)s »")
                % {"username": "arbitre", "password": password}
            )
            self._word_list_note()
        else:
            self.stdout.write(
                "  "
                + _("Compte arbitre : « %(username)s » (mot de passe déjà donné). Pour le changer :")
                % {"username": "arbitre"}
            )
            if settings.CHECKOUT:
                self.stdout.write(f"    cd {_quoted(str(settings.BASE_DIR))}")
            self.stdout.write(f"    {change_password_command('arbitre')}")
        self.stdout.write("  " + _("Données : %(path)s") % {"path": settings.VAR_DIR})
        self.stdout.write("  " + _("Journal : %(path)s") % {"path": self.log})
        database = settings.DATABASES["default"]
        backups = Path(backup_dir).expanduser() if backup_dir else default_folder()
        if database["ENGINE"] == "django.db.backends.sqlite3":
            self.stdout.write("  " + _("Copies de la soirée : %(path)s") % {"path": backups})
        self.stdout.flush()
        if no_serve:
            return False
        from django.core.servers.basehttp import get_internal_wsgi_application

        from server import arrival

        # settings.WSGI_APPLICATION: the site's (arbiter.wsgi), the phones' slips on their lean path.
        application = get_internal_wsgi_application()
        # Strangers' pages (a simultaneous's public page, training) in a process of their own, at a
        # lower priority, on the next port: the room's phones never share an interpreter with them.
        strangers_port = options.get("strangers_port")
        strangers = None
        if strangers_port != 0:
            strangers = start_strangers(strangers_port or port + 1, port, threads)
            application = room_side(application, strangers)
        # Results waiting for a federation's server are sent when the connection comes back.
        start_chores(chores_seconds)
        # The evening copied as it goes to the arbiter's folder, by a thread of its own.
        saver = None
        if database["ENGINE"] == "django.db.backends.sqlite3":
            saver = start_saver(Path(database["NAME"]), backups, media_root=Path(settings.MEDIA_ROOT))
        # Every phone keeps its connection open between polls: waitress's default limit (100) would
        # leave the others of a 300-player room waiting.  Requests are stamped on arrival: a slip
        # queued for a thread in the last second is not late.  Slow and idle clients are dropped
        # after short timeouts, and no address holds more than its share (server/waitress.py).
        server = arrival.create_server(application, **laptop_server_options(port, threads))
        try:
            server.run()
        finally:
            if strangers is not None:
                strangers.stop()
            if saver is not None:
                saver.finish()  # the last change of the evening in the copy too
        return True


def ctrl_c_taken_back() -> None:
    """Ctrl+C (SIGINT) stops this server even when it was started by a job that ignores it: a shell
    without job control starts its background jobs (``nohup … &``) with SIGINT ignored, Python then
    leaves it ignored, and so would every process the server starts.  The server's own stop is its
    own: the default handler (``KeyboardInterrupt``) is put back."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
