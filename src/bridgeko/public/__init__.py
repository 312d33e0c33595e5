"""Public read-only pages of an edition (no login): teams, draw, bracket, schedule."""
