"""The information-strategy hat agent of the RL notes, hand-coded and learned
[RL-train-info, RL-train-info-turn, RL-train-info-actor].

The hat of a seat is the identity of its *most playable card* (RL-hat-information: the
card the public belief gives the best chance of being playable; the choice is public, so
the seat knows which card its hat names).  A seat with a token sends the sum of the other
seats' hats modulo 25 as one reveal (the ``modular`` embedding by default: reveal e
carries e mod 25); each receiver decodes its hat from its own view before the reveal and
from then on knows that card.  The move is the notes' "play or discard a slot, or send":

* the *rule* (:func:`info_action`): play the known card of lowest value that is playable;
  else send, if the reveal of the sum is legal; else discard a known card that is already
  played, else the oldest card not known, else the oldest; with every token and no legal
  message, the first legal reveal;
* the *learned actor* (:class:`LearnedActor`): a network over the seat's features
  (:func:`actor_features`) into the 2h + 1 moves, cloned from the rule (RL-train-info-actor),
  that plays the legal move of largest logit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.tools.rl.hat import HatCode, most_playable_slot
from hanabi_ref.tools.rl.train.policy import FORMAT, NumpyPolicy
from hanabi_ref.tools.rl.train.team import _initial_view
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategies.knowledge import composition_counts, unseen_counts
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyFactory
from hanabi_ref.formats.trace import GameRecord
from hanabi_ref.engine.view import PlayerView, view_is_legal

ACTOR_HIDDEN: Final = 128


def _no_public() -> npt.NDArray[np.float32]:
    raise AssertionError("the information team's embeddings read no public observation")


def info_unsupported(config: GameConfig) -> str | None:
    """Why the information team cannot play ``config``, or None: it needs at least 3
    players and a hat space whose 25 hats fit the reveals (RL-hat-embed)."""
    if config.players < 3:
        return f"the information team needs at least 3 players, got {config.players}"
    try:
        HatCode(config, "information", "modular")
    except Exception as error:  # an RLError naming the reveals that are too few
        return str(error)
    return None


def _played(view: PlayerView, identity: int) -> bool:
    return view.fireworks[view.tables.suit_of[identity]] > view.tables.rank_of[identity]


def _playable(view: PlayerView, identity: int) -> bool:
    return view.fireworks[view.tables.suit_of[identity]] == view.tables.rank_of[identity]


class InfoSeat(BaseStrategy):
    """One seat of the information team, reading views only [RL-train-info]: it decodes its
    hat from every reveal of another seat (from its own view before the reveal) and
    remembers the identity of the card the hat names, by card id."""

    def __init__(self, config: GameConfig, seat: int, actor: Actor | None = None, embedding: str = "modular") -> None:
        self.config = config
        self.seat = seat
        self.code = HatCode(config, "information", embedding)
        self.known: dict[int, int] = {}
        """card id -> identity, for the seat's own cards that a hat named"""
        self.before: PlayerView | None = None
        self.actor = actor
        self.named: list[set[int]] = [set() for _ in range(config.players)]
        """card ids each seat's hats have named (public: every seat keeps the same sets)"""

    def named_slot(self, view: PlayerView, target: int) -> int:
        """[RL-train-info] the slot the target's hat names: its most playable card among
        those no hat named yet (all of them if every one was named)."""
        fresh = [slot for slot, card in enumerate(view.hands[target]) if card not in self.named[target]]
        return most_playable_slot(view, target, fresh or None)

    def hats(self, view: PlayerView, sender: int) -> dict[int, int]:
        """The hat of every receiver of ``sender`` this seat can see (all but its own)."""
        out: dict[int, int] = {}
        for target in self.code.receivers(sender):
            if target != view.seat:
                card = view.cards[target][self.named_slot(view, target)]
                assert card is not None
                out[target] = card
        return out

    def message(self, view: PlayerView) -> int:
        """The encoding of the sum of the other seats' hats (RL-hat-sum, RL-hat-offsets)."""
        return self.code.encoding_for(sum(self.hats(view, view.seat).values()) % self.code.alphabet, view)

    def observe(self, view: PlayerView, event: Event) -> None:
        before = self.before if self.before is not None else _initial_view(view) if isinstance(event.action, Hint) else view
        if isinstance(event.action, Hint):
            sender = event.player
            slots = {target: self.named_slot(before, target) for target in self.code.receivers(sender)}
            if sender != self.seat:
                total = self.code.embedding.recover(self.code.encoding_of(event.action, sender), lambda: _no_public())
                hat = (total - sum(self.hats(before, sender).values())) % self.code.alphabet
                slot = slots[self.seat]
                # a hat that the seat's knowledge or the unseen copies rule out was no
                # message (sent for want of a legal one): it is ignored
                unseen = unseen_counts(before, composition_counts(self.config))
                if before.own_knowledge[slot] >> hat & 1 and unseen[hat] > 0:
                    self.known[before.own_hand[slot]] = hat
            for target, slot in slots.items():
                self.named[target].add(before.hands[target][slot])
        self.before = view

    def act(self, view: PlayerView) -> Action:
        if self.actor is not None:
            return self.actor(self, view)
        return info_action(self, view)


Actor = Callable[[InfoSeat, PlayerView], Action]
"""A move of the team from a seat and its view (the rule, or a learned actor)."""


def message(seat: InfoSeat, view: PlayerView) -> Hint | None:
    """The reveal of the hat sum the seat would send now, if it has a token and the reveal
    is legal."""
    if view.clue_tokens == 0:
        return None
    hint = seat.code.reveal(seat.message(view), view.seat)
    return hint if view_is_legal(view, hint) else None


def info_action(seat: InfoSeat, view: PlayerView) -> Action:
    """[RL-train-info-turn] the rule's move."""
    hand = view.own_hand
    playable = [(view.tables.rank_of[seat.known[card]], slot) for slot, card in enumerate(hand)
                if card in seat.known and _playable(view, seat.known[card])]
    if playable:
        return Play(min(playable)[1])
    hint = message(seat, view)
    if hint is not None:
        return hint
    dead = [slot for slot, card in enumerate(hand) if card in seat.known and _played(view, seat.known[card])]
    unknown = [slot for slot, card in enumerate(hand) if card not in seat.known]
    for slot in dead + unknown + [0]:
        if view_is_legal(view, Discard(slot)):
            return Discard(slot)
    return forced_reveal(seat, view)


def forced_reveal(seat: InfoSeat, view: PlayerView) -> Action:
    """[RL-train-info-turn] with every token and no legal message, the legal reveal that
    misleads least: every receiver decodes its hat shifted by the same amount, and a wrong
    identity that its knowledge of the card allows is believed; first the fewest believed
    wrong identities that are playable now (they would be played), then the fewest
    believed at all, then the first."""
    code = seat.code
    hats = seat.hats(view, view.seat)
    total = sum(hats.values()) % code.alphabet
    best: tuple[int, int, int] | None = None
    for encoding in range(code.reveals):
        if not view_is_legal(view, code.reveal(encoding, view.seat)):
            continue
        shift = (code.embedding.recover(encoding, _no_public) - total) % code.alphabet
        believed = playable = 0
        for target, hat in hats.items():
            wrong = (hat + shift) % code.alphabet
            slot = seat.named_slot(view, target)
            if shift and view.knowledge[target][slot] >> wrong & 1:
                believed += 1
                playable += _playable(view, wrong)
        if best is None or (playable, believed) < best[:2]:
            best = (playable, believed, encoding)
    return code.reveal(best[2], view.seat) if best is not None else Play(0)


def info_factory(actor: Actor | None = None, embedding: str = "modular") -> StrategyFactory:
    """The factory of :class:`InfoSeat` seats with ``actor`` (None: the rule)."""

    def build(config: GameConfig, seat: int, seed: int) -> Strategy:
        problem = info_unsupported(config)
        if problem is not None:
            raise ConfigError(problem)
        return InfoSeat(config, seat, actor, embedding)

    return build


# ------------------------------------------------------------------ the learned actor


def actor_inputs(config: GameConfig) -> int:
    identities = len(composition_counts(config))
    return 2 * identities * config.hand_size + 2 * identities + 4


def actor_features(seat: InfoSeat, view: PlayerView) -> npt.NDArray[np.float32]:
    """[RL-train-info-actor] what the actor reads: for each slot, the identity its hat named
    (one-hot, zeros if none) and the seat's knowledge set of the card; then which
    identities are playable and which already played; tokens / maximum, errors / limit,
    stack / deck size, and whether the message could be sent now."""
    config = view.config
    identities = len(composition_counts(config))
    out = np.zeros(actor_inputs(config), np.float32)
    for slot, card in enumerate(view.own_hand):
        base = 2 * identities * slot
        if card in seat.known:
            out[base + seat.known[card]] = 1
        known = view.own_knowledge[slot]
        for x in range(identities):
            out[base + identities + x] = known >> x & 1
    at = 2 * identities * config.hand_size
    for x in range(identities):
        out[at + x] = _playable(view, x)
        out[at + identities + x] = _played(view, x)
    limit = config.max_errors if config.max_errors else 3
    out[at + 2 * identities:] = (view.clue_tokens / config.max_hints, view.strikes / limit,
                                 view.deck_size / sum(composition_counts(config)), message(seat, view) is not None)
    return out


def move_index(action: Action, hand_size: int) -> int:
    """The move's index among the 2h + 1 (discard slot s: s; play slot s: h + s; a reveal:
    2h)."""
    if isinstance(action, Discard):
        return action.slot
    if isinstance(action, Play):
        return hand_size + action.slot
    return 2 * hand_size


class LearnedActor:
    """[RL-train-info-actor] the legal move of largest logit (a send only when the message
    is legal; with no legal move among them, the rule's)."""

    def __init__(self, model: NumpyPolicy) -> None:
        self.model = model

    def __call__(self, seat: InfoSeat, view: PlayerView) -> Action:
        size = seat.code.hand_size
        logits = self.model.logits(actor_features(seat, view))
        hint = message(seat, view)
        for index in np.argsort(-logits, kind="stable"):
            index = int(index)
            if index == 2 * size:
                if hint is not None:
                    return hint
                continue
            action: Discard | Play = Discard(index) if index < size else Play(index - size)
            if action.slot < len(view.own_hand) and view_is_legal(view, action):
                return action
        return info_action(seat, view)


def actor_meta(config: GameConfig, rules: str) -> dict[str, Any]:
    return {"format": FORMAT, "agent": "info-actor", "players": config.players, "rules": rules,
            "embedding": "modular", "hand_size": config.hand_size, "inputs": actor_inputs(config),
            "hats": 2 * config.hand_size + 1, "hidden": ACTOR_HIDDEN}


class _Recording(InfoSeat):
    """A rule seat that records its features and moves."""

    def __init__(self, config: GameConfig, seat: int, sink: tuple[list[npt.NDArray[np.float32]], list[int]]) -> None:
        super().__init__(config, seat)
        self.sink = sink

    def act(self, view: PlayerView) -> Action:
        action = info_action(self, view)
        self.sink[0].append(actor_features(self, view))
        self.sink[1].append(move_index(action, self.code.hand_size))
        return action


def actor_examples(config: GameConfig, seeds: Sequence[int]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int64]]:
    """[RL-train-info-actor] the rule's moves in its games on decks ``seeds``: features and
    move indices."""
    sink: tuple[list[npt.NDArray[np.float32]], list[int]] = ([], [])
    for seed in seeds:
        play_game(config, lambda c, s, _: _Recording(c, s, sink), seed=seed)
    return np.stack(sink[0]), np.array(sink[1], np.int64)


def fit_actor(config: GameConfig, rules: str, seeds: Sequence[int], epochs: int, seed: int = 0) -> tuple[NumpyPolicy, float]:
    """[RL-train-info-actor] the actor cloned from the rule's moves on decks ``seeds``
    (cross-entropy, Adam 10⁻³ falling linearly, minibatches of 256; one thread, seeded):
    the model and its accuracy on its examples."""
    from hanabi_ref.tools.rl.train.fitting import fit_minibatches, seeded_torch
    from hanabi_ref.tools.rl.train.policy import torch_weights

    torch, draws = seeded_torch(seed)
    features, moves = actor_examples(config, seeds)
    inputs, labels = torch.from_numpy(features), torch.from_numpy(moves)
    nn = torch.nn
    network = nn.Sequential(nn.Linear(inputs.shape[1], ACTOR_HIDDEN), nn.ReLU(), nn.Linear(ACTOR_HIDDEN, ACTOR_HIDDEN),
                            nn.ReLU(), nn.Linear(ACTOR_HIDDEN, 2 * config.hand_size + 1))
    fit_minibatches(torch, network, inputs, labels, nn.CrossEntropyLoss(), epochs, draws, falling=True)
    with torch.no_grad():
        accuracy = float((network(inputs).argmax(1) == labels).float().mean())
    return NumpyPolicy(torch_weights(torch, network), actor_meta(config, rules)), accuracy


def play_info_games(config: GameConfig, seeds: Sequence[int], actor: Actor | None = None) -> list[GameRecord]:
    """The information team's games on decks ``seeds`` (``actor`` None: the rule)."""
    factory = info_factory(actor)
    return [play_game(config, factory, seed=seed) for seed in seeds]
