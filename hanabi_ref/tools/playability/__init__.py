"""Playability of deck orders: the thesis' §3 (spec/playability.md)."""
