"""The boards of a segment: computer-dealt sets made from a committed seed (R12.7, I8), or the
deals played loaded from a PBN file; their double-dummy analysis; hand records; secrecy (I15)."""
