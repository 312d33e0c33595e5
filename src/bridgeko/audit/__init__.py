"""The audit log: one entry per write, written by the service that made it."""
