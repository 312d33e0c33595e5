"""The player register and the import of the federation's Elo list."""
