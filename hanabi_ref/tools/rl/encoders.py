"""Observation encoders: pure functions of a :class:`~hanabi_ref.engine.view.PlayerView`
[RL-encode, RL-canonical, RL-minimal, RL-v0, RL-notes].

``encode(name, view)`` never reads a game state: everything it writes is in the view
(the others' cards, the hint knowledge, the board, the public history).  The result is a
fresh float32 array laid out as :func:`hanabi_ref.tools.rl.layout.layout` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.cards import members
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import ENCODINGS, Dims, Layout, layout
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.engine.tables import Tables
from hanabi_ref.engine.view import PlayerView

Vector = npt.NDArray[np.float32]

PLAY, DISCARD, REVEAL_COLOUR, REVEAL_RANK = range(4)
"""[RL-last-action] the move types in the peers' order."""


class Offsets(NamedTuple):
    """The start of each section of one layout, read once per layout."""

    hands: int
    missing: int
    deck: int
    fireworks: int
    information: int
    lives: int
    discards: int
    actor: int
    move_type: int
    target: int
    colour: int
    rank: int
    outcome: int
    position: int
    card: int
    scored: int
    token: int
    cards: int
    """the knowledge or belief section (the end of the vector for ``minimal``)"""
    own_hand: bool
    discard_starts: tuple[int, ...]


@lru_cache(maxsize=256)
def offsets(lay: Layout) -> Offsets:
    """The starts of ``lay``'s sections (-1 for a section it does not have)."""
    starts = {section.name: section.start for section in lay.sections}
    discard_starts, start = [], starts["discards"]
    for count in lay.dims.counts:
        discard_starts.append(start)
        start += count
    names = ("hands", "missing", "deck", "fireworks", "information tokens", "life tokens", "discards", "last actor",
             "last move type", "last target", "last colour", "last rank", "last reveal outcome", "last position",
             "last card", "last scored", "last token added")
    cards = starts.get("knowledge", starts.get("belief", lay.size))
    return Offsets._make([*(starts.get(name, -1) for name in names), cards, lay.encoding in ("v0", "notes"),
                          tuple(discard_starts)])


@lru_cache(maxsize=4096)
def mask_bits(mask: int) -> tuple[int, ...]:
    """The identities of a knowledge mask, in order (cached: a game meets few masks)."""
    return tuple(members(mask))


def revealed(history: Sequence[Event]) -> dict[int, list[int]]:
    """[RL-knowledge] per card id the colour and the rank (from 0) a hint ever named while
    touching it (-1: none); negative information does not count."""
    found: dict[int, list[int]] = {}
    for event in history:
        note_revealed(found, event)
    return found


def note_revealed(found: dict[int, list[int]], event: Event) -> None:
    """[RL-knowledge] ``found`` (as :func:`revealed` makes it) after one more event: a hint
    names its colour or rank (from 0) on every card it touched."""
    action = event.action
    if isinstance(action, Hint):
        index = 0 if action.kind == "colour" else 1
        subject = action.subject if index == 0 else action.subject - 1
        for card_id in event.touched:
            entry = found.get(card_id)
            if entry is None:
                entry = found[card_id] = [-1, -1]
            entry[index] = subject


def tokens_before_last(view: PlayerView) -> int:
    """[RL-last-action] the information tokens before the last move, replayed from the
    public history (:func:`tokens_after`, event by event from t0)."""
    tokens = view.config.max_hints
    history = view.history
    for index in range(len(history) - 1):
        tokens = tokens_after(view.tables, tokens, history[index])
    return tokens


def tokens_after(tables: Tables, tokens: int, event: Event) -> int:
    """[RL-last-action] the information tokens after ``event`` as the encodings replay
    them: a hint spends one; a discard and a completed suit give one back, never above
    the maximum."""
    config = tables.config
    action = event.action
    if isinstance(action, Hint):
        return tokens - 1
    if isinstance(action, Discard) or (event.success and event.card is not None
                                       and tables.rank_of[event.card] == config.values - 1):
        return min(tokens + 1, config.max_hints)
    return tokens


def public_ones(lay: Layout, at: Offsets, view: PlayerView) -> list[int]:
    """The indices set to one in every section but the last: the hands [RL-hands], the
    missing-card bits [RL-missing], then :func:`board_ones`."""
    dims = lay.dims
    p, h, b = dims.players, dims.hand_size, dims.identities
    seat = view.seat
    ones: list[int] = []
    # [RL-hands] the others' cards one-hot (with the own hand as zeros in v0 / notes)
    first = 0 if at.own_hand else 1
    for rel in range(1, p):
        base = at.hands + ((rel - first) * h) * b
        for slot, card in enumerate(view.cards[(seat + rel) % p]):
            if card is not None:
                ones.append(base + slot * b + card)
    # [RL-missing]
    for rel in range(p):
        if len(view.hands[(seat + rel) % p]) < h:
            ones.append(at.missing + rel)
    ones += board_ones(dims, at, view, seat)
    return ones


def board_ones(dims: Dims, at: Offsets, view: PlayerView, origin: int) -> list[int]:
    """The indices set to one from the deck to the last action [RL-deck, RL-fireworks,
    RL-tokens, RL-discards, RL-last-action], seats counted from ``origin`` (the observer,
    or the frame of RL-hat-observations)."""
    b, r = dims.identities, dims.ranks
    ones: list[int] = []
    # [RL-deck, RL-fireworks, RL-tokens]
    ones.extend(range(at.deck, at.deck + view.deck_size))
    for colour, height in enumerate(view.fireworks):
        if height > 0:
            ones.append(at.fireworks + colour * r + height - 1)
    ones.extend(range(at.information, at.information + view.clue_tokens))
    ones.extend(range(at.lives, at.lives + dims.lives - view.strikes))
    # [RL-discards] a thermometer per identity
    discarded = [0] * b
    for _, card in view.discard:
        discarded[card] += 1
    for index, count in enumerate(discarded):
        if count:
            start = at.discard_starts[index]
            ones.extend(range(start, start + count))
    # [RL-last-action]
    ones += last_action_ones(dims, at, view, origin)
    return ones


def last_action_ones(dims: Dims, at: Offsets, view: PlayerView, origin: int, tokens_before: int | None = None) -> list[int]:
    """[RL-last-action] the indices set to one in the ten parts of the last action, seats
    counted from ``origin``; ``tokens_before``: the information tokens before the last
    move when the caller has replayed them (else :func:`tokens_before_last` does)."""
    ones: list[int] = []
    if not view.history:
        return ones
    p, r = dims.players, dims.ranks
    event = view.history[-1]
    action = event.action
    ones.append(at.actor + (event.player - origin) % p)
    if isinstance(action, Hint):
        if action.kind == "colour":
            ones.append(at.move_type + REVEAL_COLOUR)
            ones.append(at.colour + action.subject)
        else:
            ones.append(at.move_type + REVEAL_RANK)
            ones.append(at.rank + action.subject - 1)
        ones.append(at.target + (action.target - origin) % p)
        touched = set(event.touched)
        for slot, card_id in enumerate(view.hands[action.target]):
            if card_id in touched:
                ones.append(at.outcome + slot)
    else:
        assert event.card is not None
        ones.append(at.move_type + (PLAY if isinstance(action, Play) else DISCARD))
        ones.append(at.position + action.slot)
        ones.append(at.card + event.card)
        if isinstance(action, Play) and event.success:
            ones.append(at.scored)
            if view.tables.rank_of[event.card] == r - 1:
                before = tokens_before_last(view) if tokens_before is None else tokens_before
                if before < dims.max_hints:
                    ones.append(at.token)
    return ones


def public_counts(dims: Dims, view: PlayerView) -> Vector:
    """[RL-v0-belief] per identity its copies minus those discarded (misplays included)
    and those on the fireworks."""
    counts = np.array(dims.counts, np.float32)
    for _, card in view.discard:
        counts[card] -= 1
    for colour, height in enumerate(view.fireworks):
        counts[colour * dims.ranks: colour * dims.ranks + height] -= 1
    return counts


def encode(encoding: str, view: PlayerView) -> Vector:
    """The vector of ``encoding`` for ``view`` [RL-encode]."""
    lay = layout(encoding, view.config)
    if encoding not in ENCODINGS:
        raise RLError("RL-encodings", f"unknown encoding {encoding!r} (known: {', '.join(ENCODINGS)})")
    at = offsets(lay)
    out = np.zeros(lay.size, np.float32)
    out[public_ones(lay, at, view)] = 1
    if encoding != "minimal":
        write_cards(out, lay, at, view, view.seat, belief=at.own_hand)
    return out


def write_cards(out: Vector, lay: Layout, at: Offsets, view: PlayerView, origin: int, belief: bool) -> None:
    """The knowledge section (RL-knowledge) or the belief (RL-v0-belief) into ``out``,
    hands counted from ``origin``."""
    dims = lay.dims
    p, h, b, c = dims.players, dims.hand_size, dims.identities, dims.colours
    per = b + c + dims.ranks
    hinted = revealed(view.history)
    counts = public_counts(dims, view) if belief else None
    for rel in range(p):
        other = (origin + rel) % p
        for slot, (card_id, mask) in enumerate(zip(view.hands[other], view.knowledge[other])):
            base = at.cards + (rel * h + slot) * per
            bits = mask_bits(mask)
            if counts is None:
                out[[base + bit for bit in bits]] = 1
            else:
                # [RL-v0-belief] plausibility times the public count, normalised in float32
                weights = np.zeros(b, np.float32)
                index = list(bits)
                weights[index] = counts[index]
                out[base: base + b] = weights / weights.sum(dtype=np.float32)
            named = hinted.get(card_id)
            if named is not None:
                if named[0] >= 0:
                    out[base + b + named[0]] = 1
                if named[1] >= 0:
                    out[base + b + c + named[1]] = 1


def recommendation_observation(view: PlayerView, target: int) -> Vector:
    """[RL-hat-observations] the recommendation agent's observation of ``target`` as the
    seat of ``view`` (any seat but the target) computes it: the target's cards, then the
    board, discards, last action and belief counted from the target."""
    if target == view.seat:
        raise RLError("RL-hat-observations", f"seat {target} cannot see its own cards")
    lay = layout("recommendation", view.config)
    at = offsets(lay)
    dims = lay.dims
    ones = [at.hands + slot * dims.identities + card for slot, card in enumerate(view.cards[target])
            if card is not None]
    if len(view.hands[target]) < dims.hand_size:
        ones.append(at.missing)
    ones += board_ones(dims, at, view, target)
    out = np.zeros(lay.size, np.float32)
    out[ones] = 1
    write_cards(out, lay, at, view, target, belief=True)
    return out


def public_observation(view: PlayerView, origin: int) -> Vector:
    """[RL-hat-observations] what every seat can compute alike: the board, discards, last
    action and belief, counted from ``origin``."""
    lay = layout("public", view.config)
    at = offsets(lay)
    out = np.zeros(lay.size, np.float32)
    out[board_ones(lay.dims, at, view, origin)] = 1
    write_cards(out, lay, at, view, origin, belief=True)
    return out


def size(encoding: str, config: GameConfig) -> int:
    """The length of ``encoding``'s vector for ``config`` [RL-layout]."""
    return layout(encoding, config).size
