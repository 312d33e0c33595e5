"""Editions: one year's competition, its regulations (a TOML text) and its previous edition."""
