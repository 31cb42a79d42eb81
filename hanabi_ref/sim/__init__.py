"""Simulation at scale: statistics of many seeded games."""
