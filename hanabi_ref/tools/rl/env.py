"""PettingZoo and Gymnasium environments over the engine [RL-aec, RL-gym, RL-seed,
RL-reward, RL-illegal].

Every observation is ``encode(encoding, make_view(state, seat))`` beside the seat's
plain-action mask, computed move by move by a :class:`~hanabi_ref.tools.rl.incremental.GameEncoder`
[RL-incremental]: the environments hand a seat its own view, never the state.  Moves go
through the engine (:func:`~hanabi_ref.engine.transition.apply`), rewards come from the
engine's :func:`~hanabi_ref.engine.state.score`, and a reset with seed S deals
``deck_from_seed(config, S)``, the deck every other command deals for S.

pettingzoo and gymnasium are needed (the ``rl`` extra); without them importing this module
raises one ``ImportError`` that names the extra [C-extras].
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from hanabi_ref.base.extras import missing_import

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ModuleNotFoundError as error:  # [C-extras] one line naming the extra, not a traceback
    raise missing_import("the RL environments (hanabi_ref.tools.rl.env)", error, "rl") from None

from hanabi_ref.engine.actions import Action, Hint, describe
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.dealing import check_seed, deck_from_seed, derive_seed
from hanabi_ref.formats.hanablive import card_name
from hanabi_ref.engine.legality import illegality
from hanabi_ref.tools.rl.actions import PlainActions
from hanabi_ref.tools.rl.incremental import GameEncoder
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.hat import HAT_SPACES, HatCode, decoded_hats
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import Event, GameState, score
from hanabi_ref.players.strategies import factory_for
from hanabi_ref.players.strategy import Strategy, StrategyError, observes
from hanabi_ref.engine.transition import apply_legal, initial_state
from hanabi_ref.engine.view import PlayerView, ViewMaker

__all__ = ["HanabiAECEnv", "HanabiGymEnv", "Observation", "ILLEGAL_ACTIONS", "RENDER_MODES"]

Observation = dict[str, npt.NDArray[Any]]
"""``{"observation": float32 (L,), "action_mask": int8 (A,)}``."""

ILLEGAL_ACTIONS = ("raise", "terminate")
"""[RL-illegal] what ``step`` does with an illegal action."""

RENDER_MODES = ("ansi",)
"""The render modes of both environments: ``ansi`` returns the board as text."""

SEED_SPAN = 2**64
"""[RL-seed] deck seeds drawn for an unseeded reset lie in 0 .. 2^64 - 1 (D-seed)."""


def build_config(
    players: int, preset: str, variant: str, hand_size: int | None, config: GameConfig | None
) -> GameConfig:
    """The configuration of an environment: ``config`` when given, else the engine's
    :func:`make_config` (which refuses an unknown preset or variant by name) [RL-aec]."""
    if config is not None:
        return config
    return make_config(players, preset, variant, hand_size=hand_size)


def check_choice(value: object, choices: tuple[str | None, ...], clause: str, what: str) -> None:
    """Refuse ``value`` unless it is one of ``choices``, naming it [RL-errors]."""
    if value not in choices:
        known = ", ".join(repr(choice) for choice in choices)
        raise RLError(clause, f"unknown {what} {value!r} (known: {known})")


def seed_of(seed: object) -> int:
    """A reset's seed as a Python int, refused unless in 0 .. 2^64 - 1 [RL-seed, D-seed]."""
    if isinstance(seed, np.integer):
        seed = int(seed)
    return check_seed(seed)


def drawn_seed(generator: np.random.Generator) -> int:
    """[RL-seed] a deck seed drawn from an environment's own generator."""
    return int(generator.integers(SEED_SPAN, dtype=np.uint64))


def observation_space(observation_size: int, actions: int) -> spaces.Dict:
    """[RL-aec, RL-gym] the observation of one seat: its encoded view and its mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (observation_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (actions,), np.int8),
    })


class Table:
    """What both environments share [RL-aec, RL-gym]: the configuration, the encoding,
    the plain action space, the game in progress and whether an illegal action ended it.

    The game is read by the environments only through :meth:`observe` (views),
    :meth:`score` and whose turn it is."""

    def __init__(
        self, config: GameConfig, encoding: str, illegal_action: str, render_mode: str | None, clause: str,
        actions: str = "plain", hat_options: dict[str, Any] | None = None,
    ) -> None:
        self.config = config
        self.encoding = encoding
        self.observation_size = layout(encoding, config).size  # refuses a name by RL-encodings
        check_choice(illegal_action, ILLEGAL_ACTIONS, "RL-illegal", "illegal_action")
        check_choice(render_mode, (None, *RENDER_MODES), clause, "render_mode")
        check_choice(actions, ("plain", *HAT_SPACES), "RL-hat-spaces", "action space")
        self.illegal_action = illegal_action
        self.actions = PlainActions(config)
        self.hat = None if actions == "plain" else HatCode(config, actions, **(hat_options or {}))
        """[RL-hat-spaces] the hat code of a hat action space (None: the plain space)"""
        self.action_count = self.actions.size if self.hat is None else self.hat.size
        if self.hat is not None:
            self.observation_size += self.hat.alphabet
        self.received: dict[int, int] = {}
        """[RL-hat-observations] the last hat each seat received since its own last move"""
        self.dealt: GameState | None = None
        self.scored: tuple[GameState | None, int] = (None, 0)
        self.legal: tuple[GameState | None, int, bytes] = (None, -1, b"")
        """the state, seat and plain mask of the last observation (RL-mask), which decides
        the legality of the action taken after it"""
        self.forfeited = False
        self.views = ViewMaker(config)
        """the seats' views, each seat's objects its own, the memo of the last state kept here [ISO-views, ISO-memo]"""
        self.encoder = GameEncoder(encoding, config)
        """[RL-incremental] the encoding of the views, move by move"""
        self.observed = ViewMaker(config, sealed=False)
        """the views the table encodes itself (no strategy holds them: ISO-views' copies are not needed)"""

    @property
    def state(self) -> GameState:
        """The game in progress; refused before the first reset [RL-seed]."""
        if self.dealt is None:
            raise RLError("RL-seed", "no game has been dealt: call reset() first")
        return self.dealt

    @property
    def over(self) -> bool:
        """Whether the episode has ended: the game is over, or an illegal action ended it."""
        return self.state.terminal or self.forfeited

    def deal(self, seed: int) -> None:
        """[RL-seed] a new game dealt from ``deck_from_seed(config, seed)``."""
        self.dealt = initial_state(self.config, deck_from_seed(self.config, seed))
        self.forfeited = False
        self.received = {}

    def score(self) -> int:
        """The engine's score of the game so far [RL-reward, 2.16-3] (asked several times
        a step: kept for the state it was computed for)."""
        state = self.state
        if self.scored[0] is not state:
            self.scored = (state, score(state))
        return self.scored[1]

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` sees now [2.17-view]."""
        return self.views.views(self.state, (seat,))[0]

    def observe(self, seat: int) -> Observation:
        """[RL-aec, RL-gym] fresh arrays: ``seat``'s encoded view and its mask (all zero
        once the episode has ended)."""
        state = self.state
        view = self.observed.views(state, (seat,))[0]
        if self.hat is None:
            legal = self.actions.keyed_bytes(view, state.touch_keys)
            self.legal = (state, seat, legal)
            mask, vector = np.frombuffer(bytearray(legal), np.int8), self.encoder.encode(view)
        else:
            mask = self.hat.mask(view)
            vector = np.concatenate([self.encoder.encode(view), self.hat.hat_vector(self.received.get(seat))])
        if self.forfeited:
            mask[:] = 0
        return {"observation": vector, "action_mask": mask}

    def decode(self, index: object, seat: int) -> Action | None:
        """The action of plain index ``index`` for ``seat`` if it is legal now [RL-illegal].

        An illegal action raises :class:`RLError` naming it and the engine's reason, or
        under ``illegal_action="terminate"`` gives None; an index outside the plain space
        is refused whatever the mode [RL-plain].  Nothing changes either way."""
        if self.hat is None:
            action = self.actions.action(cast(int, index), seat)  # refuses a non-index [RL-plain]
            state, observer, legal = self.legal
            if state is self.dealt and observer == seat and legal[cast(int, index)]:
                return action  # [RL-mask] legal by the mask this seat was given for this state
        else:
            action = self.hat.action(cast(int, index), self.view(seat))  # [RL-hat-spaces]
        problem = illegality(self.state, action)
        if problem is None:
            return action
        if self.illegal_action == "terminate":
            return None
        clause, reason = problem
        raise RLError("RL-illegal", f"seat {seat}: action {int(cast(int, index))} ({describe(action)}) is illegal: "
                      f"{clause}: {reason}")

    def play(self, action: Action) -> Event:
        """Apply ``action``, found legal by :meth:`decode` or by the caller; the public
        event it made [2.16-2].  In a hat space a
        reveal sends the hat sum: each receiver decodes its own hat from its own view
        before the reveal [RL-hat-decode], and the actor's received hat is spent."""
        actor = self.state.current_player
        self.received.pop(actor, None)
        if self.hat is not None and isinstance(action, Hint):
            views = [self.view(seat) for seat in range(self.config.players)]
            self.received.update(decoded_hats(self.hat, views, actor, action))
        self.dealt = apply_legal(self.state, action)  # legal: decode or the partner's check said so
        return self.dealt.history[-1]

    def forfeit(self) -> None:
        """[RL-illegal] end the episode after an illegal action (terminate mode)."""
        self.forfeited = True

    def render(self, seat: int) -> str:
        """The board as ``seat`` sees it, as text: turn, fireworks, tokens, hands, last
        move, score [RL-aec, RL-gym]."""
        view = self.view(seat)
        fireworks = " ".join(f"{suit.abbreviation}{top}" for suit, top in zip(self.config.suits, view.fireworks))
        over = " (over)" if self.over else ""
        return "\n".join([
            f"turn {view.turns}, seat {view.current_player} to act, seen by seat {seat}{over}",
            f"fireworks {fireworks}",
            f"hints {view.clue_tokens}/{self.config.max_hints}, errors {view.strikes}, stack {view.deck_size}, "
            f"score {self.score()}",
            *(f"seat {j}: {self.hand_text(cards)}" for j, cards in enumerate(view.cards)),
            "last " + (self.event_text(view.history[-1]) if view.history else "-"),
        ])

    def hand_text(self, cards: tuple[Identity | None, ...]) -> str:
        """A hand as card names, ``??`` for a card the seat cannot see."""
        return " ".join("??" if card is None else card_name(self.config, card) for card in cards)

    def event_text(self, event: Event) -> str:
        """One public event as text, e.g. ``seat 0: play 1 (R1, success)``."""
        text = f"seat {event.player}: {describe(event.action)}"
        if event.card is None:
            return text
        outcome = "" if event.success is None else (", success" if event.success else ", error")
        return f"{text} ({card_name(self.config, Identity(event.card))}{outcome})"


class HanabiAECEnv(AECEnv):  # type: ignore[misc]
    """[RL-aec] the PettingZoo AEC environment: agents ``player_0`` … act in turn, each
    observing ``{"observation", "action_mask"}`` from its own view.

    Rewards [RL-reward]: every step gives every agent the change of the engine's score
    (so under ``hle`` a game lost to errors gives back what it scored).  Illegal actions
    [RL-illegal]: ``illegal_action="terminate"`` (default) ends the episode, every agent
    receiving minus the score so far (so each agent's return is 0) and
    ``infos[agent]["illegal_action"] = True``; ``"raise"`` raises :class:`RLError` and
    changes nothing.
    Seeds [RL-seed]: ``reset(seed=S)`` deals ``deck_from_seed(config, S)`` and reseeds the
    environment's generator from S; ``reset()`` draws S from that generator.
    ``infos[agent]`` holds ``score``, ``turn`` and ``illegal_action``.

    Action spaces [RL-hat-spaces]: ``actions="plain"`` (default, RL-plain), or a hat space
    of the RL notes, ``"recommendation"`` or ``"information"``, with ``hat_options`` (the
    keyword arguments of :class:`~hanabi_ref.tools.rl.hat.HatCode`: ``embedding``, ``offset``,
    ``seed``, ``offset_function``, ``recommender``); then the observation is the encoding
    followed by the one-hot of the last hat the seat received since its own last move
    [RL-hat-observations], and the mask is RL-hat-mask."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "hanabi_ref_v0",
                                "is_parallelizable": False}

    def __init__(
        self,
        players: int = 2,
        preset: str = "hle",
        variant: str = "No Variant",
        encoding: str = "canonical",
        hand_size: int | None = None,
        config: GameConfig | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        actions: str = "plain",
        hat_options: dict[str, Any] | None = None,
    ) -> None:
        super().__init__()
        config = build_config(players, preset, variant, hand_size, config)
        self.table = Table(config, encoding, illegal_action, render_mode, "RL-aec", actions, hat_options)
        self.render_mode = render_mode
        self.possible_agents: list[str] = [f"player_{seat}" for seat in range(config.players)]
        self.seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size, count = self.table.observation_size, self.table.action_count
        self.observation_spaces = {agent: observation_space(size, count) for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(count) for agent in self.possible_agents}
        self.drawn = np.random.default_rng()
        self.reseed: int | None = None
        """[RL-seed] the seed of the last seeded reset, until the generator is next needed"""
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Dict:
        """[RL-aec] the (cached) observation space of ``agent``."""
        space: spaces.Dict = self.observation_spaces[agent]
        return space

    def action_space(self, agent: str) -> spaces.Discrete:
        """[RL-aec] the (cached) plain action space of ``agent`` [RL-plain]."""
        space: spaces.Discrete = self.action_spaces[agent]
        return space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """[RL-seed] deal a new game and give the turn to its first seat (``options`` is ignored)."""
        self.table.deal(self.next_seed(seed))
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = self.fresh_infos(illegal=False)
        self.agent_selection = self.possible_agents[self.table.state.current_player]

    @property
    def generator(self) -> np.random.Generator:
        """[RL-seed] the environment's own generator: seeded from S by ``reset(seed=S)``
        (made when it is first needed after that reset: a seeded reset after every game
        then costs no generator)."""
        if self.reseed is not None:
            self.drawn, self.reseed = np.random.default_rng(self.reseed), None
        return self.drawn

    def next_seed(self, seed: int | None) -> int:
        """[RL-seed] ``seed`` (reseeding the generator from it), or one drawn from the generator."""
        if seed is None:
            return drawn_seed(self.generator)
        self.reseed = deck_seed = seed_of(seed)
        return deck_seed

    def fresh_infos(self, illegal: bool) -> dict[str, dict[str, Any]]:
        """A new info dict per agent: score, turn and whether an illegal action ended the game."""
        turn, now = self.table.state.turns, self.table.score()
        return {agent: {"score": now, "turn": turn, "illegal_action": illegal} for agent in self.agents}

    def observe(self, agent: str) -> Observation:
        """[RL-aec] ``agent``'s encoded view and mask."""
        return self.table.observe(self.seats[agent])

    def step(self, action: int | np.integer[Any] | None) -> None:
        """[RL-aec, RL-reward, RL-illegal] the selected agent acts (a finished agent is
        stepped with None and removed)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = self.table.decode(action, self.seats[agent])  # raises before anything changes
        self._cumulative_rewards[agent] = 0.0
        before = self.table.score()
        if move is None:
            self.table.forfeit()
            reward = -before
        else:
            self.table.play(move)
            reward = self.table.score() - before
        self.finish_step(float(reward), illegal=move is None)

    def finish_step(self, reward: float, illegal: bool) -> None:
        """Hand every agent ``reward``, end the episode if it is over, pass the turn."""
        self.rewards = {agent: reward for agent in self.agents}
        self._accumulate_rewards()
        over = self.table.over
        self.terminations = {agent: over for agent in self.agents}
        self.infos = self.fresh_infos(illegal)
        self.agent_selection = self.possible_agents[self.table.state.current_player]

    def render(self) -> str | None:
        """The board as the selected agent sees it (``render_mode="ansi"``), else None with a warning."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: HanabiAECEnv(render_mode='ansi')")
            return None
        return self.table.render(self.seats[self.agent_selection])

    def close(self) -> None:
        """Nothing to release."""


class HanabiGymEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """[RL-gym] the Gymnasium environment for one agent.

    ``seat=None`` (self-play): the agent acts for whichever seat is to act and observes
    that seat's view.  ``seat=k, others=NAME``: the agent plays seat k, our strategy NAME
    plays every other seat from its own view (seeded from the episode seed S with
    ``derive_seed(S, j + 1)`` for seat j, and observing every event, as ``play_game``
    does).  Every shipped strategy plays beside any agent: the convention strategies
    (info, hat, recommendation, ...) leave their convention when the agent's moves show it
    is not kept (S-foreign) and never raise on them.  A partner that fails for its own
    reasons (a bug, an illegal move) ends the episode as truncated, with
    ``info["partner_error"]`` naming the seat and the failure [RL-gym-partner]; the next
    ``step`` then needs a ``reset``.

    Rewards [RL-reward]: a step returns the engine's score when it returns minus the
    score when the previous step returned (0 at the deal), so the others' moves count
    and an episode's rewards add up to its final score.  Illegal actions [RL-illegal]:
    ``"terminate"`` (default): the episode ends with reward minus what was given so far (a
    return of 0) and ``info["illegal_action"] = True``; ``"raise"`` raises :class:`RLError`
    and changes nothing.  Seeds
    [RL-seed]: ``reset(seed=S)`` deals ``deck_from_seed(config, S)``; ``reset()`` draws S
    from ``self.np_random``.  ``info`` holds ``score``, ``turn``, ``seat`` (the observing
    seat), ``illegal_action`` and ``partner_error`` (None, or the partner's failure).  ``actions`` and ``hat_options``: as in
    :class:`HanabiAECEnv` [RL-hat-spaces]."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}

    def __init__(
        self,
        players: int = 2,
        preset: str = "hle",
        variant: str = "No Variant",
        encoding: str = "canonical",
        hand_size: int | None = None,
        config: GameConfig | None = None,
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        seat: int | None = None,
        others: str | None = None,
        actions: str = "plain",
        hat_options: dict[str, Any] | None = None,
    ) -> None:
        config = build_config(players, preset, variant, hand_size, config)
        self.table = Table(config, encoding, illegal_action, render_mode, "RL-gym", actions, hat_options)
        self.render_mode = render_mode
        self.seat = self.checked_seat(seat, others)
        self.factory = None if others is None else factory_for(others)  # refuses an unknown name
        self.observation_space = observation_space(self.table.observation_size, self.table.action_count)
        self.action_space = spaces.Discrete(self.table.action_count)
        self.strategies = self.seat_strategies(0)  # a strategy refusing this game refuses it now
        self.given = 0
        self.partner_error: str | None = None

    def checked_seat(self, seat: int | None, others: str | None) -> int | None:
        """[RL-gym] ``seat`` and ``others`` come together, the seat one of the game's."""
        if (seat is None) != (others is None):
            raise RLError("RL-gym", f"seat and others go together (seat={seat!r}, others={others!r}): "
                          "give both to play one seat beside a strategy, neither for self-play")
        players = self.table.config.players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise RLError("RL-gym", f"seat {seat!r} is not a seat of a {players}-player game (0 to {players - 1})")
        return seat

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """[RL-seed] deal a new game; with ``seat`` set, the others play up to its turn
        (``options`` is ignored)."""
        super().reset(seed=seed)
        deck_seed = drawn_seed(self.np_random) if seed is None else seed_of(seed)
        self.table.deal(deck_seed)
        self.given = 0
        self.partner_error = None
        self.strategies = self.seat_strategies(deck_seed)
        self.play_others()
        return self.table.observe(self.observer()), self.info(illegal=False)

    def seat_strategies(self, deck_seed: int) -> dict[int, Strategy]:
        """The other seats' strategies, seat j seeded with ``derive_seed(S, j + 1)`` as in play_game."""
        if self.factory is None:
            return {}
        factory, config = self.factory, self.table.config
        return {j: factory(config, j, derive_seed(deck_seed, j + 1)) for j in range(config.players) if j != self.seat}

    def observer(self) -> int:
        """The seat whose view the agent receives: its own, or the seat to act in self-play."""
        return self.table.state.current_player if self.seat is None else self.seat

    def step(self, action: int | np.integer[Any]) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """[RL-gym, RL-reward, RL-illegal] the agent's move, then the others' up to its next turn."""
        if self.table.over or self.partner_error is not None:
            raise RLError("RL-gym", "the episode is over: call reset()")
        move = self.table.decode(action, self.table.state.current_player)  # raises before anything changes
        if move is None:
            self.table.forfeit()
        else:
            self.play(move)
            self.play_others()
        reward = float(self.reward())
        truncated = self.partner_error is not None and not self.table.over
        return self.table.observe(self.observer()), reward, self.table.over, truncated, self.info(illegal=move is None)

    def reward(self) -> int:
        """[RL-reward] the score now minus what was given so far (minus all of it after a forfeit)."""
        now = 0 if self.table.forfeited else self.table.score()
        reward, self.given = now - self.given, now
        return reward

    def play(self, action: Action) -> None:
        """Apply ``action`` and let every observing strategy see the event from its own view
        (a partner failing there ends the episode: :meth:`partner_failed`)."""
        event = self.table.play(action)
        watching = [(j, s) for j, s in self.strategies.items() if observes(s)]
        views = self.table.views.views(self.table.state, [j for j, _ in watching])
        for (seat, strategy), view in zip(watching, views):
            try:
                strategy.observe(view, event)
            except Exception as error:  # [RL-gym-partner] the partner's own failure, whatever it is
                self.partner_failed(seat, "observing", error)
                return

    def play_others(self) -> None:
        """The strategies play until the agent's seat is to act, the game ends or a
        partner fails [RL-gym-partner]."""
        while (self.seat is not None and not self.table.over and self.partner_error is None
               and self.table.state.current_player != self.seat):
            seat = self.table.state.current_player
            try:
                action = self.strategies[seat].act(self.table.view(seat))
                problem = illegality(self.table.state, action)
            except Exception as error:  # [RL-gym-partner] the partner's own failure, whatever it is
                self.partner_failed(seat, "choosing its move", error)
                return
            if problem is not None:
                turn = self.table.state.turns
                illegal = StrategyError(f"turn {turn}: {describe(action)} is illegal: {problem[0]}: {problem[1]}")
                self.partner_failed(seat, "choosing its move", illegal)
                return
            self.play(action)

    def partner_failed(self, seat: int, doing: str, error: BaseException) -> None:
        """[RL-gym-partner] end the episode (truncated) with the failure in ``info``."""
        self.partner_error = f"seat {seat} failed {doing}: {type(error).__name__}: {error}"

    def info(self, illegal: bool) -> dict[str, Any]:
        """A fresh info dict: score, turn, observing seat, whether an illegal action ended the episode."""
        state = self.table.state
        return {"score": self.table.score(), "turn": state.turns, "seat": self.observer(), "illegal_action": illegal,
                "partner_error": self.partner_error}

    def render(self) -> str | None:
        """The board as the observing seat sees it (``render_mode="ansi"``), else None with a warning."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: HanabiGymEnv(render_mode='ansi')")
            return None
        return self.table.render(self.observer())

    def close(self) -> None:
        """Nothing to release."""
