"""Thin views: parse a form, call one service, return the page or, for htmx, the partial."""
