"""End-to-end tests: the real application driven in Debian's Chromium by Playwright."""
