"""The plain action space and its legal-action masks [RL-plain, RL-mask].

Indices follow the peers (HLE, OpenSpiel): discard slot i is i, play slot i is h + i, a
colour reveal to the seat ``off`` places after the actor is 2h + (off - 1) c + colour, a
rank reveal is 2h + (p - 1) c + (off - 1) r + rank - 1 (c clue colours, r ranks).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.view import PlayerView, view_legal_actions

Mask = npt.NDArray[np.int8]

KNOWN_LIMIT = 4096
"""The most action objects a space remembers the index of, per actor."""


class PlainActions:
    """[RL-plain] the 2h + (p - 1)(c + r) actions of one configuration, relative to the actor."""

    def __init__(self, config: GameConfig) -> None:
        # the peers' layout has no index for a hint to one's own hand or a play of the
        # stack's last card: Play(h) would be read back as the first colour reveal
        if config.options.self_hints:
            raise RLError("RL-plain", "self_hints=True: the plain action space has no hint to one's own hand")
        if config.options.deck_plays:
            raise RLError("RL-plain", "deck_plays=True: the plain action space has no play of the stack's last card")
        self.config = config
        p, h = config.players, config.hand_size
        self.colours, self.ranks = len(config.colours), config.values
        self.hand_size = h
        self.size = 2 * h + (p - 1) * (self.colours + self.ranks)
        self.index_of: list[dict[int, int]] = [{} for _ in range(p)]
        """per actor, the index of each action object met, by the object's id"""
        self.kept: list[list[Action]] = [[] for _ in range(p)]
        """per actor, the action objects of :attr:`index_of`, kept alive (so that their ids stay theirs)"""

    def __getstate__(self) -> dict[str, object]:
        """A copy (pickle, deepcopy) starts with empty memos: the ids they are keyed by
        are this process's objects', which a copy does not hold."""
        p = self.config.players
        return {**self.__dict__, "index_of": [{} for _ in range(p)], "kept": [[] for _ in range(p)]}

    def action(self, index: int, actor: int) -> Action:
        """The action of ``index`` for the seat ``actor``."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self.size:
            raise RLError("RL-plain", f"action {index!r} is not an index of the plain space (0 to {self.size - 1})")
        index = int(index)
        h, c, r, p = self.hand_size, self.colours, self.ranks, self.config.players
        if index < h:
            return Discard(index)
        if index < 2 * h:
            return Play(index - h)
        index -= 2 * h
        if index < (p - 1) * c:
            offset, colour = divmod(index, c)
            return Hint((actor + offset + 1) % p, "colour", colour)
        offset, rank = divmod(index - (p - 1) * c, r)
        return Hint((actor + offset + 1) % p, "value", rank + 1)

    def index(self, action: Action, actor: int) -> int:
        """The index of ``action`` played by ``actor``."""
        h, c, r, p = self.hand_size, self.colours, self.ranks, self.config.players
        if isinstance(action, Discard):
            return action.slot
        if isinstance(action, Play):
            return h + action.slot
        offset = (action.target - actor) % p - 1
        if action.kind == "colour":
            return 2 * h + offset * c + action.subject
        return 2 * h + (p - 1) * c + offset * r + action.subject - 1

    def mask(self, view: PlayerView) -> Mask:
        """[RL-mask] 1 for each legal action of the seat of ``view`` (all zero when it is
        not that seat's turn or the game is over)."""
        return np.frombuffer(self.legal_bytes(view), np.int8)

    def legal_bytes(self, view: PlayerView) -> bytearray:
        """The mask of ``view`` [RL-mask] as a new bytearray."""
        out = bytearray(self.size)
        if view.terminal or view.current_player != view.seat:
            return out
        seat = view.seat
        actions = view_legal_actions(view)
        index_of = self.index_of[seat]
        try:
            # the engine lists the same action objects again and again (its catalogue):
            # each one's index is looked up by the object's id; an id in the table is
            # the object's that was stored, which the table keeps alive
            indices = list(map(index_of.__getitem__, map(id, actions)))
        except KeyError:
            if len(index_of) >= KNOWN_LIMIT:
                index_of.clear()
                self.kept[seat].clear()
            for action in actions:
                if id(action) not in index_of:
                    index_of[id(action)] = self.index(action, seat)
                    self.kept[seat].append(action)
            indices = [index_of[id(action)] for action in actions]
        for index in indices:
            out[index] = 1
        return out


@lru_cache(maxsize=64)
def plain_actions(config: GameConfig) -> PlainActions:
    """The plain space of ``config`` (one object per configuration)."""
    return PlainActions(config)
