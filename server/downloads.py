"""A file sent to the browser, under a name made from what people typed (a tournament's or a club's
name): the ``Content-Disposition`` header must stay one header whatever the name holds (quotes, line
breaks, accents, slashes).  RFC 6266: a plain ASCII ``filename`` every browser reads, and, when the
name is more than that, the name itself in ``filename*`` (RFC 8187, UTF-8 percent-encoded)."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from django.http import HttpResponse

#: Longest name a header carries (browsers and file systems cut near 255 bytes).
NAME_LIMIT = 120
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def _shown(filename: str) -> str:
    """The name as given, without what a file name may not hold: control and format characters
    (line breaks, bidi overrides) dropped, other spaces made plain, path separators and quotes made
    dashes; not hidden (no leading dot), bounded with its extension kept."""
    kept = "".join(_char(c) for c in filename)
    kept = " ".join(kept.split()).strip(" .-")
    stem, dot, extension = kept.rpartition(".")
    if dot and len(extension) <= 10 and len(kept) > NAME_LIMIT:
        return stem[: NAME_LIMIT - len(extension) - 1].rstrip(" .-") + "." + extension
    return kept[:NAME_LIMIT]


def _char(c: str) -> str:
    category = unicodedata.category(c)[0]
    if category == "C":
        return ""
    if category == "Z":
        return " "
    return "-" if c in '/\\:*?"<>|;' else c


def ascii_name(filename: str, default: str = "fichier") -> str:
    """The name in letters, digits, ``.``, ``_`` and ``-`` only: "Coupe d'été.pdf" -> "Coupe-d-ete.pdf"."""
    shown = _shown(filename)
    stem, _dot, extension = shown.rpartition(".") if "." in shown else (shown, "", "")
    stem, extension = _ascii(stem)[:NAME_LIMIT] or default, _ascii(extension)[:10]
    return f"{stem}.{extension}" if extension else stem


def _ascii(text: str) -> str:
    spelled = text.replace("Œ", "OE").replace("œ", "oe").replace("Æ", "AE").replace("æ", "ae")
    plain = unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode()
    return _UNSAFE.sub("-", plain).strip(".-")


def content_disposition(filename: str, *, inline: bool = False) -> str:
    """The header's value: ``attachment; filename="…"`` and, if the name is not plain ASCII,
    ``filename*=UTF-8''…`` with it whole."""
    kind = "inline" if inline else "attachment"
    shown, plain = _shown(filename), ascii_name(filename)
    if not shown or shown == plain:
        return f'{kind}; filename="{plain}"'
    return f"{kind}; filename=\"{plain}\"; filename*=UTF-8''{quote(shown, safe='')}"


def download(filename: str, media_type: str, data: bytes, *, inline: bool = False) -> HttpResponse:
    """``data`` as a file named ``filename`` (shown in the browser when ``inline``)."""
    response = HttpResponse(data, content_type=media_type)
    response["Content-Disposition"] = content_disposition(filename, inline=inline)
    return response
