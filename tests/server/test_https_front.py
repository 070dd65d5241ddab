"""The federation's server on the Internet speaks HTTPS at nginx (``manage.py nginx_conf
--certificate FILE --certificate-key FILE --redirect 80``): the phones' port serves TLS only, and
plain HTTP answers every request with a redirect to HTTPS, but for the certificate authority's
challenges, served from certbot's folder so that the certificate renews through the running server.
Real nginx, a certificate made for the test; under CI=true never skipped."""

from __future__ import annotations

import getpass
import http.client
import os
import shutil
import signal
import ssl
import subprocess

import pytest

from server.proxy import Proxy
from tests.live_services import free_port, listening, wait_for
from tests.scale_front import NGINX, require_nginx


def _certificate(folder) -> tuple[str, str]:
    openssl = shutil.which("openssl")
    if openssl is None:
        if os.environ.get("CI") == "true":
            pytest.fail(
                "openssl is missing (apt-get install openssl): CI makes the test's certificate with it."
            )
        pytest.skip("openssl is missing")
    cert, key = folder / "fullchain.pem", folder / "privkey.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return str(cert), str(key)


def _get(connection: http.client.HTTPConnection, path: str) -> tuple[int, dict, bytes]:
    connection.request("GET", path)
    answer = connection.getresponse()
    return answer.status, dict(answer.headers), answer.read()


def test_nginx_speaks_https_and_sends_plain_http_there_but_for_certbot(tmp_path):
    require_nginx()
    cert, key = _certificate(tmp_path)
    static, acme = tmp_path / "static", tmp_path / "acme"
    static.mkdir()
    (static / "site.css").write_text("body { color: black }")
    (acme / ".well-known" / "acme-challenge").mkdir(parents=True)
    (acme / ".well-known" / "acme-challenge" / "token-1").write_text("token-1.thumbprint")
    port, plain = free_port(), free_port()
    front = Proxy(
        listen=f"127.0.0.1:{port}", app=f"127.0.0.1:{free_port()}", publisher=f"127.0.0.1:{free_port()}",
        run=tmp_path / "run", static=static, foreground=True, user=getpass.getuser(),
        certificate=cert, certificate_key=key, redirect=f"127.0.0.1:{plain}", acme_root=str(acme),
    )  # fmt: skip
    (tmp_path / "run").mkdir()
    conf = tmp_path / "nginx.conf"
    conf.write_text(front.conf())
    nginx = subprocess.Popen(
        [NGINX, "-c", str(conf), "-e", str(tmp_path / "run" / "start.log")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        assert wait_for(lambda: listening(port) and listening(plain), 20), (tmp_path / "run").iterdir()
        trusted = ssl.create_default_context(cafile=cert)
        secure = http.client.HTTPSConnection("127.0.0.1", port, context=trusted, timeout=10)
        status, _headers, body = _get(secure, "/static/site.css")
        assert status == 200 and body == b"body { color: black }"
        # The phones' port speaks nothing but TLS.
        status, _headers, _body = _get(http.client.HTTPConnection("127.0.0.1", port, timeout=10), "/login/")
        assert status == 400
        # Plain HTTP: sent to the same address on HTTPS, but for certbot's challenge.
        status, headers, _body = _get(
            http.client.HTTPConnection("127.0.0.1", plain, timeout=10), "/j/ab/?x=1"
        )
        assert status == 301 and headers["Location"] == "https://127.0.0.1/j/ab/?x=1"
        status, _headers, body = _get(
            http.client.HTTPConnection("127.0.0.1", plain, timeout=10), "/.well-known/acme-challenge/token-1"
        )
        assert status == 200 and body == b"token-1.thumbprint"
    finally:
        nginx.send_signal(signal.SIGTERM)
        nginx.wait(timeout=20)


def test_a_certificate_without_its_key_is_refused_in_words():
    from django.core.management import CommandError, call_command

    with pytest.raises(CommandError, match="--certificate and --certificate-key go together"):
        call_command("nginx_conf", "--certificate", "/etc/letsencrypt/live/x/fullchain.pem")
    with pytest.raises(CommandError, match="--redirect sends plain HTTP to HTTPS: it needs --certificate"):
        call_command("nginx_conf", "--redirect", "80")
