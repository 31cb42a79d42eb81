"""The kernel: Definition 2.9's configuration, cards, actions, the state, legality, Algorithm 2.16's
transition, player views, the conditions on a move, decks, the history, the board as text and the
variant rules.
"""
