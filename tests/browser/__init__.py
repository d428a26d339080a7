"""Helpers for driving the referee app in headless Chromium (pytest + Playwright)."""
