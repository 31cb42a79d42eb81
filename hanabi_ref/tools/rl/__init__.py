"""Reinforcement-learning face of the engine (spec/rl.md, clauses RL-*): observation
encoders over :class:`~hanabi_ref.engine.view.PlayerView` that are bit-identical to the peers'
(OpenSpiel's canonical tensor, the SAD fork's V0 belief), the plain action space with
legal-action masks.

numpy is needed (the ``rl`` extra; the environments also need pettingzoo and gymnasium,
training needs PyTorch, the ``train`` extra)."""
