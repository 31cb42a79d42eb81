"""Bots for the isolation tests (spec/isolation.md): scripted answers and hostile strategies."""
