"""Accounts and per-edition roles; the one permission helper used by every mutating view."""
