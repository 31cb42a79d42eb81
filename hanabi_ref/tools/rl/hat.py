"""The hat action spaces of the RL notes [RL-hat-spaces, RL-hat-sum, RL-hat-embed,
RL-hat-offsets, RL-hat-decode, RL-hat-recommendation, RL-hat-information].

A seat that "sends information" adds up the hats of every other seat (each computed from
what all seats but that one see), and embeds the sum as one reveal action; each receiver
recovers the sum from the reveal it sees and subtracts the hats it can compute itself.
Every function here reads views only.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import rank_table, suit_table
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.encoders import Vector, offsets, public_observation, recommendation_observation
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import Dims, layout
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.view import PlayerView, view_is_legal

HAT_SPACES = ("recommendation", "information")
"""[RL-hat-spaces] the names of the hat action spaces."""

EMBEDDINGS = ("constant", "permutation", "public", "modular")
"""[RL-hat-offsets] the embeddings of hat sums into reveals."""

Recommender = Callable[[Vector], int]
"""A recommendation policy: the recommendation observation of a target -> 0 .. 2h - 1."""


class Embedding(Protocol):
    """[RL-hat-offsets] a public bijection between hat sums and reveal encodings."""

    def embed(self, info: int, public: Callable[[], Vector]) -> int: ...

    def recover(self, encoding: int, public: Callable[[], Vector]) -> int: ...


class ConstantOffset:
    """[RL-hat-offsets] encoding = (sum + C) mod R."""

    def __init__(self, reveals: int, offset: int) -> None:
        self.reveals, self.offset = reveals, offset % reveals

    def embed(self, info: int, public: Callable[[], Vector]) -> int:
        return (info + self.offset) % self.reveals

    def recover(self, encoding: int, public: Callable[[], Vector]) -> int:
        return (encoding - self.offset) % self.reveals


class PermutationOffset:
    """[RL-hat-offsets] encoding = pi(sum) for a public permutation pi of the R encodings,
    drawn from a seed."""

    def __init__(self, reveals: int, seed: int) -> None:
        order = list(range(reveals))
        random.Random(seed).shuffle(order)
        self.forward = tuple(order)
        self.backward = tuple(sorted(range(reveals), key=lambda index: order[index]))

    def embed(self, info: int, public: Callable[[], Vector]) -> int:
        return self.forward[info]

    def recover(self, encoding: int, public: Callable[[], Vector]) -> int:
        return self.backward[encoding]


class ModularEmbedding:
    """[RL-hat-offsets] every encoding e with e mod M = sum carries the sum; the sender
    sends the first of them that is legal (:meth:`HatCode.message`), so a sum has
    ceil((R - sum) / M) reveals to choose from instead of one."""

    def __init__(self, reveals: int, alphabet: int) -> None:
        self.reveals, self.alphabet = reveals, alphabet

    def embed(self, info: int, public: Callable[[], Vector]) -> int:
        return info

    def candidates(self, info: int, public: Callable[[], Vector]) -> range:
        return range(info, self.reveals, self.alphabet)

    def recover(self, encoding: int, public: Callable[[], Vector]) -> int:
        return encoding % self.alphabet


class PublicOffset:
    """[RL-hat-offsets] encoding = (sum + f(public observation)) mod R, where f is any
    function of the public observation (RL-hat-observations) counted from the sender: a
    hook a learned model fills."""

    def __init__(self, reveals: int, function: Callable[[Vector], int]) -> None:
        self.reveals, self.function = reveals, function

    def embed(self, info: int, public: Callable[[], Vector]) -> int:
        return (info + int(self.function(public()))) % self.reveals

    def recover(self, encoding: int, public: Callable[[], Vector]) -> int:
        return (encoding - int(self.function(public()))) % self.reveals


def board_reader(config: GameConfig) -> Callable[[Vector], tuple[list[int], list[int], list[int]]]:
    """[RL-hat-observations] what a recommendation observation says of the target's cards
    and the board: the identity in each slot (-1 for an empty one), each field's height
    and the copies of each identity discarded."""
    lay = layout("recommendation", config)
    dims = lay.dims
    b = dims.identities
    fireworks = lay.section("fireworks")
    starts = offsets(lay).discard_starts

    def read(observation: Vector) -> tuple[list[int], list[int], list[int]]:
        cards = [int(np.argmax(observation[slot * b:(slot + 1) * b])) if observation[slot * b:(slot + 1) * b].any()
                 else -1 for slot in range(dims.hand_size)]
        heights = [int(np.argmax(block)) + 1 if block.any() else 0
                   for block in observation[fireworks.start:fireworks.stop].reshape(dims.colours, dims.ranks)]
        gone = [int(observation[start:start + count].sum()) for start, count in zip(starts, dims.counts)]
        return cards, heights, gone

    return read


def recommend(config: GameConfig) -> Recommender:
    """[RL-hat-recommendation] the hand-coded recommendation, read from the observation
    vector alone: play the playable card of lowest value (oldest first); else discard the
    oldest dead card; else the oldest card that is not the last copy of a card still
    needed; else the oldest card."""
    dims = Dims.of(config)
    r, h = dims.ranks, dims.hand_size
    suit_of, rank_of = suit_table(r, dims.identities), rank_table(r, dims.identities)
    read = board_reader(config)

    def policy(observation: Vector) -> int:
        cards, heights, gone = read(observation)
        playable = [(rank_of[card], slot) for slot, card in enumerate(cards) if card >= 0 and rank_of[card] == heights[suit_of[card]]]
        if playable:
            return h + min(playable)[1]

        def dead(card: int) -> bool:
            suit, value = suit_of[card], rank_of[card]
            return value < heights[suit] or any(gone[suit * r + lower] == dims.counts[suit * r + lower]
                                                for lower in range(heights[suit], value))

        for slot, card in enumerate(cards):
            if card >= 0 and dead(card):
                return slot
        for slot, card in enumerate(cards):
            if card >= 0 and dims.counts[card] - gone[card] > 1:
                return slot
        return 0

    return policy


def most_playable_slot(view: PlayerView, target: int, among: Sequence[int] | None = None) -> int:
    """[RL-hat-information] the target's card most likely playable by the public belief
    (RL-v0-belief counted from the target), the oldest on ties (``among``: of those slots
    only)."""
    public = public_observation(view, target)
    lay = layout("public", view.config)
    dims = lay.dims
    belief = public[lay.section("belief").start:]
    per = dims.identities + dims.colours + dims.ranks
    playable = np.zeros(dims.identities, np.float32)
    for colour, height in enumerate(view.fireworks):
        if height < dims.ranks:
            playable[colour * dims.ranks + height] = 1
    best, best_slot = -1.0, 0
    for slot in range(len(view.hands[target])) if among is None else among:
        chance = float(belief[slot * per: slot * per + dims.identities] @ playable)
        if chance > best:
            best, best_slot = chance, slot
    return best_slot


class HatCode:
    """[RL-hat-spaces] one hat space of one configuration: the alphabet M of a hat, the R
    reveal encodings, the embedding, and the recommendation policy."""

    def __init__(self, config: GameConfig, space: str, embedding: str = "constant", offset: int = 0,
                 seed: int = 0, offset_function: Callable[[Vector], int] | None = None,
                 recommender: Recommender | None = None) -> None:
        if space not in HAT_SPACES:
            raise RLError("RL-hat-spaces", f"unknown hat space {space!r} (known: {', '.join(HAT_SPACES)})")
        dims = Dims.of(config)
        self.config, self.space, self.dims = config, space, dims
        self.hand_size = dims.hand_size
        self.reveals = (dims.players - 1) * (dims.colours + dims.ranks)
        self.alphabet = 2 * dims.hand_size if space == "recommendation" else dims.identities
        if self.alphabet > self.reveals:
            raise RLError("RL-hat-embed", f"{space} hats take {self.alphabet} values but {dims.players} players have "
                          f"only {self.reveals} reveal encodings")
        self.size = 2 * dims.hand_size + 1
        self.send = 2 * dims.hand_size
        self.embedding: Embedding
        if embedding == "constant":
            self.embedding = ConstantOffset(self.reveals, offset)
        elif embedding == "permutation":
            self.embedding = PermutationOffset(self.reveals, seed)
        elif embedding == "public":
            if offset_function is None:
                raise RLError("RL-hat-offsets", "the 'public' offset needs offset_function")
            self.embedding = PublicOffset(self.reveals, offset_function)
        elif embedding == "modular":
            self.embedding = ModularEmbedding(self.reveals, self.alphabet)
        else:
            raise RLError("RL-hat-offsets", f"unknown offset {embedding!r} (known: {', '.join(EMBEDDINGS)})")
        self.recommender = recommender if recommender is not None else recommend(config)

    # ---------------------------------------------------------------- hats

    def hat(self, view: PlayerView, target: int) -> int:
        """The hat of ``target`` as the seat of ``view`` (not the target) computes it."""
        if self.space == "recommendation":
            value = int(self.recommender(recommendation_observation(view, target)))
            if not 0 <= value < self.alphabet:
                raise RLError("RL-hat-recommendation", f"the recommender returned {value}, not 0..{self.alphabet - 1}")
            return value
        card = view.cards[target][most_playable_slot(view, target)]
        assert card is not None
        return card

    def receivers(self, sender: int) -> list[int]:
        return [(sender + offset) % self.dims.players for offset in range(1, self.dims.players)]

    def message(self, view: PlayerView) -> tuple[int, dict[int, int]]:
        """[RL-hat-sum, RL-hat-embed] the reveal encoding the seat of ``view`` sends, and
        the hat of every receiver it carries."""
        hats = {seat: self.hat(view, seat) for seat in self.receivers(view.seat)}
        return self.encoding_for(sum(hats.values()) % self.alphabet, view), hats

    def encoding_for(self, info: int, view: PlayerView) -> int:
        """[RL-hat-offsets] the encoding that sends hat sum ``info`` from the seat of
        ``view``: the embedding's; for an embedding with several encodings per sum
        (``modular``), the first legal one (else the first)."""
        public = lambda: public_observation(view, view.seat)  # noqa: E731
        choices = getattr(self.embedding, "candidates", None)
        if choices is None:
            return self.embedding.embed(info, public)
        options = [int(encoding) for encoding in choices(info, public)]
        legal = [e for e in options if view_is_legal(view, self.reveal(e, view.seat))]
        return (legal or options)[0]

    def reveal(self, encoding: int, sender: int) -> Hint:
        """The reveal action of encoding e (0 .. R - 1): the plain action 2h + e."""
        action = plain_actions(self.config).action(2 * self.hand_size + encoding, sender)
        assert isinstance(action, Hint)
        return action

    def encoding_of(self, hint: Hint, sender: int) -> int:
        return plain_actions(self.config).index(hint, sender) - 2 * self.hand_size

    def decode(self, view: PlayerView, sender: int, hint: Hint) -> int:
        """[RL-hat-decode] the own hat the seat of ``view`` (the view before the reveal)
        recovers from ``sender``'s reveal ``hint``."""
        info = self.embedding.recover(self.encoding_of(hint, sender), lambda: public_observation(view, sender))
        if info >= self.alphabet:
            raise RLError("RL-hat-decode", f"reveal encoding {self.encoding_of(hint, sender)} carries no hat sum")
        others = sum(self.hat(view, seat) for seat in self.receivers(sender) if seat != view.seat)
        return (info - others) % self.alphabet

    # ---------------------------------------------------------------- actions

    def action(self, index: int, view: PlayerView) -> Action:
        """[RL-hat-spaces] the engine action of hat-space action ``index`` for the acting
        seat of ``view``: 0 .. h - 1 discard, h .. 2h - 1 play, 2h send the hat sum."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self.size:
            raise RLError("RL-hat-spaces", f"action {index!r} is not in the {self.space} space (0 to {self.size - 1})")
        index = int(index)
        if index < self.hand_size:
            return Discard(index)
        if index < self.send:
            return Play(index - self.hand_size)
        return self.reveal(self.message(view)[0], view.seat)

    def mask(self, view: PlayerView) -> np.ndarray:
        """[RL-hat-mask] 1 for each legal hat action: the plain mask's play and discard
        actions, and "send" when a token is left and the one reveal it would make is legal."""
        out = np.zeros(self.size, np.int8)
        if view.terminal or view.current_player != view.seat:
            return out
        out[:self.send] = plain_actions(self.config).mask(view)[:self.send]
        if view.clue_tokens > 0:
            out[self.send] = int(view_is_legal(view, self.reveal(self.message(view)[0], view.seat)))
        return out

    def hat_vector(self, hat: int | None) -> np.ndarray:
        """[RL-hat-observations] the one-hot of a received hat (zeros: none)."""
        out = np.zeros(self.alphabet, np.float32)
        if hat is not None:
            out[hat] = 1
        return out


def decoded_hats(code: HatCode, views_before: Sequence[PlayerView], sender: int, hint: Hint) -> dict[int, int]:
    """Every receiver's own hat, each decoded from its own view before the reveal."""
    return {seat: code.decode(views_before[seat], sender, hint) for seat in code.receivers(sender)}
