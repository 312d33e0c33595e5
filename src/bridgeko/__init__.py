"""bridgeko: software that runs a contract-bridge teams knockout competition."""

__version__ = "0.1.0"
