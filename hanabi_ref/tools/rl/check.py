"""The encoders checked against OpenSpiel, state by state [RL-check].

Games are played by our engine and, move for move, by OpenSpiel (dealt our deck through
the adapter of PE-openspiel); at every decision state and at the terminal state, every
seat's vector of ours must equal OpenSpiel's ``observation_tensor`` bit for bit: both
the from-scratch vector (:func:`~hanabi_ref.tools.rl.encoders.encode`) and the one the
environments give, computed move by move [RL-incremental].  The
configurations cycle through the four ``hle`` player counts and configurations drawn at
random from every parameter OpenSpiel accepts (colours, ranks, hand size, tokens).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np

from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.tools.peers.choosers import DriverChooser
from hanabi_ref.tools.peers.hle_rules import hle_counts
from hanabi_ref.tools.peers.openspiel import OpenSpielEngine
from hanabi_ref.tools.rl.encoders import encode
from hanabi_ref.tools.rl.incremental import GameEncoder
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.engine.cards import Identity, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import initial_state
from hanabi_ref.engine.transition import apply as apply_action
from hanabi_ref.engine.view import make_view

OPENSPIEL_TYPES = {"canonical": "card_knowledge", "minimal": "minimal"}
"""[RL-canonical, RL-minimal] OpenSpiel's observation_type of each encoding it has."""


class Difference(NamedTuple):
    """The first state where ours and OpenSpiel's vectors differ."""

    encoding: str
    config: GameConfig
    seed: int
    turn: int
    seat: int
    where: str

    def describe(self) -> str:
        c = self.config
        return (f"{self.encoding}: {c.players} players, {c.suit_count}x{c.values} cards, hand {c.hand_size}, "
                f"tokens {c.max_hints}/{c.max_errors}, deck seed {self.seed}, turn {self.turn}, seat {self.seat}: "
                f"{self.where}")


class Report(NamedTuple):
    states: int
    """(state, seat) pairs compared, per encoding"""
    games: int
    configs: int
    coverage: Counter[str]
    difference: Difference | None


def drawn_config(rng: random.Random) -> GameConfig:
    """A configuration OpenSpiel accepts, every parameter drawn from its whole range:
    2-5 players, 1-5 colours and ranks, hand sizes up to 8 that fit the deck, 0-10
    information tokens, 1-5 life tokens or none (N + 1 for OpenSpiel)."""
    while True:
        players, colours, ranks = rng.randint(2, 5), rng.randint(1, 5), rng.randint(1, 5)
        deck = colours * sum(hle_counts(ranks))
        if deck >= players:
            break
    hand = rng.randint(1, min(8, deck // players))
    errors = None if rng.random() < 0.1 else rng.randint(1, 5)
    return make_config(players, composition=[list(hle_counts(ranks))] * colours, hand_size=hand,
                       hints=rng.randint(0, 10), errors=errors, empty_hints=False, discard_at_max_hints=False,
                       draw_after_final_move=False)


def configs(seed: int) -> Iterator[GameConfig]:
    """The ``hle`` preset at 2-5 players, then drawn configurations, alternately."""
    rng = random.Random(seed)
    presets = [make_config(players, "hle") for players in range(2, 6)] + [make_config(4, "hle", hand_size=5)]
    index = 0
    while True:
        yield presets[index % len(presets)]
        yield drawn_config(rng)
        index += 1


def first_difference(ours: np.ndarray, theirs: np.ndarray, encoding: str, config: GameConfig) -> str | None:
    if ours.shape != theirs.shape:
        return f"length {ours.shape[0]} (ours) against {theirs.shape[0]} (OpenSpiel)"
    differing = np.nonzero(ours != theirs)[0]
    if not len(differing):
        return None
    index = int(differing[0])
    section = next(s for s in layout(encoding, config).sections if s.start <= index < s.stop)
    return (f"{len(differing)} values differ, first at {index} (section {section.name!r} [{section.clause}], "
            f"offset {index - section.start}): ours {ours[index]}, OpenSpiel {theirs[index]}")


def check_against_openspiel(states: int, seed: int = 0, encodings: tuple[str, ...] = ("canonical", "minimal"),
                            progress: Callable[[int], None] | None = None) -> Report:
    """Compare at least ``states`` (state, seat) pairs per encoding; stop at the first
    difference [RL-check]."""
    engines = {name: OpenSpielEngine(observation_type=OPENSPIEL_TYPES[name]) for name in encodings}
    coverage: Counter[str] = Counter()
    compared = games = 0
    seen: set[GameConfig] = set()
    for config in configs(seed):
        game_seed = seed * 1_000_003 + games
        deck = deck_from_seed(config, game_seed)
        for engine in engines.values():
            engine.new_game(config, deck)
        state = initial_state(config, deck)
        running = {name: GameEncoder(name, config) for name in engines}
        chooser = DriverChooser(game_seed, random_rate=1.0 if games % 3 == 0 else 0.1, probe_rate=0.0)
        seen.add(config)
        games += 1
        while True:
            for seat in range(config.players):
                view = make_view(state, seat)
                for name, engine in engines.items():
                    theirs = np.asarray(engine.game_state.observation_tensor(seat), np.float32)
                    for label, ours in ((name, encode(name, view)), (f"{name} (move by move)", running[name].encode(view))):
                        where = first_difference(ours, theirs, name, config)
                        if where is not None:
                            difference = Difference(label, config, game_seed, state.turns, seat, where)
                            return Report(compared, games, len(seen), coverage, difference)
                compared += 1
            _count(coverage, state, config)
            if progress is not None:
                progress(config.players)
            if state.terminal:
                break
            action = chooser.choose(state, legal_actions(state))
            state = apply_action(state, action)
            for engine in engines.values():
                refused = engine.apply(action)
                if refused is not None:
                    raise AssertionError(f"OpenSpiel refused a legal move: {refused}")
        if compared >= states:
            return Report(compared, games, len(seen), coverage, None)
    raise AssertionError("unreachable")


def _count(coverage: Counter[str], state: GameState, config: GameConfig) -> None:
    """What the compared states contained: the situations a wrong bit would hide in."""
    history = state.history
    if state.terminal:
        coverage["terminal states"] += 1
    if any(len(hand) < config.hand_size for hand in state.hands):
        coverage["states with a short hand"] += 1
    if history:
        event = history[-1]
        if event.success:
            coverage["last move a successful play"] += 1
            if event.card is not None and value_of(Identity(event.card), config.values) == config.values:
                coverage["last move completed a suit"] += 1
        elif event.success is False:
            coverage["last move a misplay"] += 1
