"""The clubs in Django's admin: the administrator renames a club (the laptop's "Mon club")."""

from django.contrib import admin

from clubs.models import Club, Member


class MemberInline(admin.TabularInline):
    model = Member
    extra = 0


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "created_at"]
    search_fields = ["name"]
    inlines = [MemberInline]
