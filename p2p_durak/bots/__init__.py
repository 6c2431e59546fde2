"""Bots: players that choose actions from the engine's legal actions (no network, no UI)."""
