"""Exact solving of open Hanabi: which decks can reach the maximum score when every player
sees every card (spec/solver.md)."""
