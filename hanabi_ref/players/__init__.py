"""The players: the strategy API, the runner that lets strategies play a game, and the strategies.
"""
