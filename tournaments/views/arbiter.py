from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from tournaments import selectors


@login_required
def home(request):
    return render(request, "tournaments/home.html", {"tournaments": selectors.tournament_list()})
