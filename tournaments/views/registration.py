"""The arbiter's laptop before the games: tournaments, players and their join cards, a game started.
Thin views: parse a form, call one service, return the page."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from clubs import access
from clubs.access import members_only
from clubs.models import Role
from lexicons.loaded import lexicon_default_row
from lexicons.services import lexicon_preferred
from server.network import public_base
from server.restore import on_the_laptop
from server.writes import ServiceError
from tournaments import cards, selectors, services
from tournaments.access import for_arbiter
from tournaments.forms import (
    GameStartForm,
    PlayerEditForm,
    PlayerForm,
    PlayersCsvForm,
    TournamentForm,
    TournamentSettingsForm,
)
from tournaments.models import Player, Tournament


@members_only(Role.DEPUTY)
def home(request):
    """The club's tournaments; for a deputy, the club's games under way (where slips are entered)."""
    arbiter_of = list(access.clubs(request.user, Role.ARBITER))
    context = {
        "tournaments": selectors.tournament_list().filter(owner__in=arbiter_of).select_related("owner"),
        "several_clubs": len(arbiter_of) > 1,
        "games": selectors.games_under_way(access.clubs(request.user, Role.DEPUTY)),
        "may_create": bool(arbiter_of),
        # Resuming an evening from a copy replaces the installation's: its administrator's, on the laptop.
        "may_resume": access.is_admin(request.user) and on_the_laptop(),
    }
    return render(request, "tournaments/tournament_list.html", context)


@members_only(Role.ARBITER)
def tournament_create(request):
    clubs = list(access.clubs(request.user, Role.ARBITER))
    # The club's own list (its ODS) when it has one: the shipped list is not the ODS (§6).
    default = lexicon_preferred(clubs) or lexicon_default_row()
    own = next(iter(access.club_ids(request.user, Role.ARBITER)), None)
    form = TournamentForm(
        request.POST or None, request.FILES or None, default_lexicon=default, clubs=clubs, own_club=own
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.tournament_create_with_list(
                created_by=request.user,
                lexicon=form.cleaned_data["lexicon"],
                list_file=form.cleaned_data["lexicon_file"],
                **{"owner": clubs[0], **form.tournament_fields()},
            )
        except ServiceError as error:
            form.add_error("lexicon_file", error.text())
        else:
            if form.cleaned_data["lexicon_file"] and tournament.lexicon.unspellable:
                # Lines the set cannot spell are left out, never silently: the arbiter is told how many.
                count = tournament.lexicon.unspellable
                said = ngettext(
                    "%(count)s ligne de la liste ne s'écrit pas avec ce jeu de lettres : elle est écartée.",
                    "%(count)s lignes de la liste ne s'écrivent pas avec ce jeu de lettres : "
                    "elles sont écartées.",
                    count,
                )
                messages.warning(request, said % {"count": count})
            return redirect("tournaments:tournament_detail", pk=tournament.pk)
    return render(request, "tournaments/tournament_form.html", {"form": form})


def _tournament_page(request, tournament: Tournament, **forms):
    services.rounds_close_overdue(tournament_id=tournament.pk)  # nobody's screen closed them
    base, loopback = public_base(request)
    context = {
        "tournament": tournament,
        "cards": cards.player_cards(tournament, base),
        "games": selectors.tournament_games(tournament),
        "loopback": loopback,
        "player_form": forms.get("player_form") or PlayerForm(),
        "csv_form": forms.get("csv_form") or PlayersCsvForm(),
        "game_form": forms.get("game_form") or GameStartForm(),
    }
    return render(request, "tournaments/tournament_detail.html", context)


def _tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("lexicon"), pk=pk)


@for_arbiter("tournament")
def tournament_detail(request, pk: int):
    return _tournament_page(request, _tournament(pk))


@for_arbiter("tournament")
def tournament_cards(request, pk: int):
    tournament = _tournament(pk)
    base, loopback = public_base(request)
    context = {
        "tournament": tournament,
        "cards": cards.player_cards(tournament, base),
        "loopback": loopback,
    }
    return render(request, "tournaments/tournament_cards.html", context)


@for_arbiter("tournament")
@require_POST
def player_add(request, pk: int):
    """One player, at any time: a late player counts zero for the rounds already played (§3.4)."""
    tournament = _tournament(pk)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            player = services.player_register(tournament=tournament, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.text())
        else:
            messages.success(
                request,
                _("%(name)s ajouté(e) à la table %(table)s.")
                % {"name": player.name, "table": player.table_number},
            )
            return redirect("tournaments:tournament_detail", pk=pk)
    return _tournament_page(request, tournament, player_form=form)


@for_arbiter("tournament")
@require_POST
def players_import(request, pk: int):
    tournament = _tournament(pk)
    form = PlayersCsvForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            added = services.players_import_csv(tournament=tournament, data=form.cleaned_data["file"])
        except ServiceError as error:
            form.refuse(error)
        else:
            count = len(added)
            text = ngettext("%(count)s joueur importé.", "%(count)s joueurs importés.", count)
            messages.success(request, text % {"count": count})
            return redirect("tournaments:tournament_detail", pk=pk)
    return _tournament_page(request, tournament, csv_form=form)


@for_arbiter("tournament")
@require_POST
def game_start(request, pk: int):
    tournament = _tournament(pk)
    form = GameStartForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            game = services.game_start(
                tournament=tournament,
                prepared=form.cleaned_data["prepared"],
                typed=form.typed(),
                variant=form.chosen_variant(),
            )
        except ServiceError as error:
            form.add_error("prepared", error.text())
        else:
            return redirect("live:game_detail", pk=game.pk)
    return _tournament_page(request, tournament, game_form=form)


@for_arbiter("tournament")
def tournament_settings(request, pk: int):
    """The settings changed after the tournament was made: a mistake at registration."""
    tournament = _tournament(pk)
    locked = services.tournament_locked(tournament)
    form = TournamentSettingsForm(
        request.POST or None,
        instance=tournament,
        default_lexicon=tournament.lexicon,
        locked=locked,
        clubs=[tournament.owner],
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.tournament_update(tournament=tournament, **form.settings_fields())
        except ServiceError as error:
            form.add_error(None, error.text())
        else:
            messages.success(request, _("Réglages enregistrés : les classements en tiennent compte."))
            return redirect("tournaments:tournament_detail", pk=pk)
    context = {"form": form, "tournament": tournament, "editing": True}
    return render(request, "tournaments/tournament_form.html", context)


def _player(pk: int) -> Player:
    return get_object_or_404(Player.objects.select_related("tournament"), pk=pk)


@for_arbiter("player")
def player_edit(request, pk: int):
    """A player's details corrected: the sheets and the phone follow, the slips stay theirs."""
    player = _player(pk)
    form = PlayerEditForm(request.POST or None, instance=player)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_update(player=player, **form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, error.text())
        else:
            messages.success(request, _("%(name)s : fiche enregistrée.") % {"name": player.name})
            return redirect("tournaments:tournament_detail", pk=player.tournament_id)
    context = {"form": form, "player": player, "tournament": player.tournament}
    return render(request, "tournaments/player_form.html", context)


@for_arbiter("player")
@require_POST
def player_remove(request, pk: int):
    """A player registered by mistake, removed while they have no slip; the button asks first (a
    page saying who, with the confirming button), so a slip of the mouse removes nobody."""
    player = _player(pk)
    if request.POST.get("confirmed") != "1":
        context = {"player": player, "tournament": player.tournament}
        return render(request, "tournaments/player_remove.html", context)
    try:
        services.player_remove(player=player)
    except ServiceError as error:
        messages.error(request, error.text())
    else:
        messages.success(request, _("%(name)s retiré(e) du tournoi.") % {"name": player.name})
    return redirect("tournaments:tournament_detail", pk=player.tournament_id)
