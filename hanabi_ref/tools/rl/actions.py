"""The plain action space and its legal-action masks [RL-plain, RL-mask].

Indices follow the peers (HLE, OpenSpiel): discard slot i is i, play slot i is h + i, a
colour reveal to the seat ``off`` places after the actor is 2h + (off - 1) c + colour, a
rank reveal is 2h + (p - 1) c + (off - 1) r + rank - 1 (c clue colours, r ranks).
"""

from __future__ import annotations

from collections.abc import Sequence
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
        self.decoded: list[list[Action | None]] = [[None] * self.size for _ in range(p)]
        """per actor, the action of each index once decoded (actions are frozen values)"""
        self.moves: dict[tuple[int, int], bytes] = {}
        """[RL-mask] the discards and plays of each (hint tokens, hand size) met (:meth:`keyed_bytes`)"""
        self.hint_parts: dict[int, bytes] = {}
        """[RL-mask] the legal colour then rank hints to a hand of each touch key met,
        with a token left (:meth:`keyed_bytes`)"""
        self.index_of: list[dict[int, int]] = [{} for _ in range(p)]
        """per actor, the index of each action object met, by the object's id"""
        self.kept: list[list[Action]] = [[] for _ in range(p)]
        """per actor, the action objects of :attr:`index_of`, kept alive (so that their ids stay theirs)"""

    def __getstate__(self) -> dict[str, object]:
        """A copy (pickle, deepcopy) starts with empty memos: the ids they are keyed by
        are this process's objects', which a copy does not hold."""
        p = self.config.players
        return {**self.__dict__, "index_of": [{} for _ in range(p)], "kept": [[] for _ in range(p)],
                "decoded": [[None] * self.size for _ in range(p)], "moves": {}, "hint_parts": {}}

    def action(self, index: int, actor: int) -> Action:
        """The action of ``index`` for the seat ``actor``."""
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)) or not 0 <= index < self.size:
            raise RLError("RL-plain", f"action {index!r} is not an index of the plain space (0 to {self.size - 1})")
        index = int(index)
        decoded = self.decoded[actor] if 0 <= actor < len(self.decoded) else None
        action = None if decoded is None else decoded[index]
        if action is None:
            action = self.decode(index, actor)
            if decoded is not None:
                decoded[index] = action
        return action

    def decode(self, index: int, actor: int) -> Action:
        """The action of plain index ``index`` (in range) for the seat ``actor`` [RL-plain]."""
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

    def keyed_bytes(self, view: PlayerView, keys: Sequence[int]) -> bytes:
        """The mask of ``view`` [RL-mask] as bytes, given the touch key of every hand
        (``keys``, the state's; the actor's own is not read).

        Legality is decided in parts (:func:`~hanabi_ref.engine.legality.enumerate_legal`,
        without the self-hints and deck plays this space refuses): the discards and plays
        by the hint tokens and the actor's hand size, the hints to each other seat by
        whether a token is left and that seat's touch key alone [2.16-actions,
        2.16-2a-empty, 2.16-2a-token].  Each part is read once from :meth:`legal_bytes`
        of a view that needs it and kept; the mask is then assembled from the parts."""
        if view.terminal or view.current_player != view.seat:
            return bytes(self.size)
        seat, tokens = view.seat, view.clue_tokens
        moves = self.moves.get((tokens, len(view.hands[seat])))
        p, h, c = self.config.players, self.hand_size, self.colours
        targets = [keys[(seat + offset) % p] for offset in range(1, p)] if tokens >= 1 else []
        hints = [self.hint_parts.get(key) for key in targets]
        if moves is None or None in hints:
            legal = bytes(self.legal_bytes(view))
            if len(self.hint_parts) >= KNOWN_LIMIT:
                self.hint_parts.clear()
            self.moves[(tokens, len(view.hands[seat]))] = legal[:2 * h]
            ranks = 2 * h + (p - 1) * c
            for offset, key in enumerate(targets):
                self.hint_parts[key] = (legal[2 * h + offset * c: 2 * h + (offset + 1) * c]
                                        + legal[ranks + offset * self.ranks: ranks + (offset + 1) * self.ranks])
            return legal
        if not targets:  # no token: no hint
            return moves + bytes(self.size - 2 * h)
        return moves + b"".join(part[:c] for part in hints) + b"".join(part[c:] for part in hints)  # type: ignore[index]

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
