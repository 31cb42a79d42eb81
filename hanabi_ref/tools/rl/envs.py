"""The environments as the ecosystem expects to find them [RL-factories].

* PettingZoo's factories, as its own games have them: :func:`raw_env` (the AEC
  environment itself), :func:`env` (wrapped as PettingZoo wraps its classic games: actions
  outside the space refused, the call order enforced) and :func:`parallel_env` (the
  parallel API over the same game: every live agent hands in an action each step, and
  only the one of the agent to move is played).
* Gymnasium's registry: importing this module registers ``hanabi_ref/Hanabi-v0``
  (:class:`~hanabi_ref.tools.rl.env.HanabiGymEnv`), so that ``gymnasium.make`` finds it;
  ``gymnasium.make("hanabi_ref.tools.rl.envs:hanabi_ref/Hanabi-v0")`` imports it first.

Every keyword argument goes to the environment (``players``, ``preset``, ``encoding``,
``illegal_action``, ...).  pettingzoo and gymnasium come with the ``rl`` extra; without
them importing this module raises one ``ImportError`` that names the extra [C-extras].
"""

from __future__ import annotations

from typing import Any

from hanabi_ref.base.extras import missing_import
from hanabi_ref.tools.rl.env import HanabiAECEnv, HanabiGymEnv, Observation

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import wrappers
except ModuleNotFoundError as error:  # [C-extras]
    raise missing_import("the RL environments (hanabi_ref.tools.rl.envs)", error, "rl") from None

GYM_ID = "hanabi_ref/Hanabi-v0"
"""[RL-factories] the Gymnasium id of :class:`HanabiGymEnv`."""


def raw_env(**kwargs: Any) -> HanabiAECEnv:
    """[RL-factories] the PettingZoo AEC environment, unwrapped."""
    return HanabiAECEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """[RL-factories] the AEC environment wrapped as PettingZoo wraps its classic games:
    an action outside the action space is refused (``AssertOutOfBoundsWrapper``) and
    calls out of order are errors (``OrderEnforcingWrapper``)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))


class HanabiParallelEnv(ParallelEnv):  # type: ignore[misc]
    """[RL-factories] the parallel API over one AEC game.  Hanabi is played in turns, so
    each step plays the action of the agent to move (``infos[agent]["to_move"]``; the
    other agents' masks are all zeros and their actions are ignored), and every agent
    receives the step's reward.  When the game ends every agent is terminated and
    :attr:`agents` empties."""

    def __init__(self, **kwargs: Any) -> None:
        self.aec = raw_env(**kwargs)
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.metadata = {**self.aec.metadata, "name": "hanabi_ref_parallel_v0", "is_parallelizable": True}
        self.render_mode = self.aec.render_mode

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.aec.action_space(agent)

    def _infos(self) -> dict[str, dict[str, Any]]:
        mover = self.aec.agent_selection
        return {agent: {**self.aec.infos[agent], "to_move": agent == mover} for agent in self.agents}

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = list(self.aec.agents)
        return {agent: self.aec.observe(agent) for agent in self.agents}, self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Observation], dict[str, float], dict[str, bool],
                                                      dict[str, bool], dict[str, dict[str, Any]]]:
        mover = self.aec.agent_selection
        if mover not in actions:
            raise KeyError(f"RL-factories: no action for {mover}, the agent to move")
        self.aec.step(actions[mover])
        agents = self.agents
        observations = {agent: self.aec.observe(agent) for agent in agents}
        rewards = {agent: float(self.aec.rewards[agent]) for agent in agents}
        terminations = {agent: bool(self.aec.terminations[agent]) for agent in agents}
        truncations = {agent: bool(self.aec.truncations[agent]) for agent in agents}
        infos = self._infos()
        if all(terminations.values()) or all(truncations.values()):
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()


def parallel_env(**kwargs: Any) -> HanabiParallelEnv:
    """[RL-factories] the parallel API over the game (:class:`HanabiParallelEnv`)."""
    return HanabiParallelEnv(**kwargs)


def register() -> None:
    """[RL-factories] register :data:`GYM_ID` with Gymnasium (once)."""
    if GYM_ID not in gymnasium.registry:
        gymnasium.register(id=GYM_ID, entry_point="hanabi_ref.tools.rl.env:HanabiGymEnv")


register()

__all__ = ["GYM_ID", "HanabiGymEnv", "HanabiParallelEnv", "env", "parallel_env", "raw_env", "register"]
