"""Join links and their QR codes: a player's card is the whole sign-in of their phone."""

from __future__ import annotations

from dataclasses import dataclass

import qrcode
import qrcode.image.svg

from engine.categories import category_label
from server.language import interface_language
from tournaments.models import Player, Tournament


def join_path(player: Player) -> str:
    """The player's personal link (the route ``live:player_page``)."""
    return f"/j/{player.token}/"


def qr_svg(url: str) -> str:
    """The link as an inline SVG QR code (no image library needed)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage)
    return image.to_string(encoding="unicode")


@dataclass(frozen=True)
class PlayerCard:
    player: Player
    url: str

    @property
    def qr(self) -> str:
        """The link's QR code, drawn when a page shows it: the table cards do, the tournament page
        (a link per player, 2,000 players and more) does not."""
        return qr_svg(self.url)

    @property
    def category(self) -> str:
        """The player's category named in the interface's language."""
        return category_label(self.player.category, interface_language())


def player_cards(tournament: Tournament, base_url: str) -> list[PlayerCard]:
    """Each player with the absolute join link (and its QR code on demand), by table number."""
    base = base_url.rstrip("/")
    return [
        PlayerCard(player, base + join_path(player))
        for player in tournament.players.order_by("table_number", "id")
    ]
