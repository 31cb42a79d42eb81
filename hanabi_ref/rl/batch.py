"""N games of the ``hle`` rules stepped at once with numpy [RL-batch].

:class:`BatchEnv` keeps every variable of Algorithm 2.16 as one array over the games
(hands as card identities, knowledge sets as rows of 0/1 values laid out as the
observation's knowledge section, fields, tokens, R, the stack position) and applies one plain action in each game per :meth:`BatchEnv.step`
with array operations only; its outputs are the ``canonical`` observation of each
game's acting seat, one (N, L) float32 array, and its plain legal-action mask, one
(N, A) int8 array.  Both equal what :func:`hanabi_ref.rl.encoders.encode` and
:meth:`hanabi_ref.rl.actions.PlainActions.mask` give for the engine's game of the same
seed after the same actions, bit for bit (tests/test_rl_batch.py replays every game
with :mod:`hanabi_ref.transition` and compares every step).

The rules are those of the ``hle`` preset [PE-hle-empty-hints, PE-hle-discard-max,
PE-hle-final-draw], on any deck with one clue colour per suit (the ``hle`` preset's, or
a composition with the same rule options); any other configuration is refused with
:class:`~hanabi_ref.rl.errors.RLError` ``RL-batch``.

Two facts make the observation cheap: it is always the view of the seat that moves
next, so the last actor is always the observer's relative seat p - 1 and a hint's
target relative to the observer is its offset from the hinter minus one (the whole
board part of the vector, deck to "last token added", is the same for every seat that
could look); and the seats of the vector are the game's seats rotated by the acting
seat, one gather per array.
"""

from __future__ import annotations

import random
import time
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from hanabi_ref.actions import Hint, Play, describe
from hanabi_ref.dealing import check_seed, deck_from_seed
from hanabi_ref.errors import ConfigError
from hanabi_ref.legality import action_problem, touch_key
from hanabi_ref.rl.actions import plain_actions
from hanabi_ref.rl.encoders import DISCARD, PLAY, REVEAL_COLOUR, REVEAL_RANK, offsets
from hanabi_ref.rl.errors import RLError
from hanabi_ref.rl.layout import Dims, layout
from hanabi_ref.rules import PRESETS, GameConfig

Floats = npt.NDArray[np.float32]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Mask = npt.NDArray[np.int8]

INFINITE: Final = -2
"""R = infinity (the engine's ``remaining = None``) in the array of R [2.16-2-R]."""

EMPTY: Final = -1
"""A slot without a card in the array of hands."""


def batch_unsupported(config: GameConfig) -> str | None:
    """Why :class:`BatchEnv` cannot play ``config``, or None [RL-batch].

    It plays the rule options of the ``hle`` preset (hints touch a card, no discard
    with every token, no draw after the final move, a strikeout scores 0, blocks dealt,
    the new card last) with at least two players, on any deck the ``canonical``
    encoding represents: one clue colour per suit, touching that suit only
    [RL-configs]."""
    wanted = PRESETS["hle"].options
    if config.options != wanted:
        ours, theirs = attrs.asdict(config.options), attrs.asdict(wanted)
        differing = ", ".join(f"{name}={ours[name]!r} (hle: {theirs[name]!r})"
                              for name in ours if ours[name] != theirs[name])
        return f"the batch environment plays the hle rules; this configuration's options differ: {differing}"
    if config.players < 2:
        return f"the batch environment needs at least 2 players, not {config.players}"
    try:
        Dims.of(config)
    except RLError as error:
        return str(error)
    return None


GOLDEN64: Final = np.uint64(0x9E3779B97F4A7C15)
MIX1: Final = np.uint64(0xBF58476D1CE4E5B9)
MIX2: Final = np.uint64(0x94D049BB133111EB)
"""SplitMix64's increment and multipliers [D-seed] (:mod:`hanabi_ref.dealing`)."""

VECTOR_DECKS: Final = 32
"""The fewest decks :func:`shuffled_decks` shuffles as arrays; fewer are shuffled one by
one by :func:`~hanabi_ref.dealing.deck_from_seed`, which is then as fast."""


def rejection_thresholds(size: int) -> npt.NDArray[np.uint64]:
    """For each bound m <= ``size`` (index m), the largest output below(m) keeps:
    2^64 - 1 - (2^64 mod m) [D-seed]; an output above it is rejected."""
    return np.array([(1 << 64) - 1 - ((1 << 64) % max(m, 1)) for m in range(size + 1)], np.uint64)


def shuffled_decks(config: GameConfig, first: int, count: int) -> Ints:
    """``deck_from_seed(config, first + i)`` for i < ``count``, one deck a row [D-seed].

    The same algorithm, on arrays: SplitMix64's outputs of every seed at once (output k
    of seed s is mix64(s + (k + 1) golden)), then Fisher-Yates from the last index down,
    one column of swaps per index.  A deck whose draws meet a rejection (an output above
    :func:`rejection_thresholds`, less likely than 2^-57 per deck) would read further
    outputs; it is dealt by :func:`~hanabi_ref.dealing.deck_from_seed` instead, as are
    all decks when there are few or the seeds run past 2^64 - 1."""
    size = config.deck_size
    canonical = np.array(config.canonical_deck, np.int64)
    if count < VECTOR_DECKS or size < 2 or first + count - 1 > (1 << 64) - 1:
        one_by_one = [deck_from_seed(config, first + index) for index in range(count)]
        return np.array(one_by_one, np.int64).reshape(count, size)
    draws = np.arange(1, size, dtype=np.uint64)
    seeds = np.uint64(first) + np.arange(count, dtype=np.uint64)
    z = seeds[:, None] + draws * GOLDEN64
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z ^= z >> np.uint64(31)
    bounds = np.arange(size, 1, -1)
    rejected = (z > rejection_thresholds(size)[bounds]).any(axis=1)
    chosen = (z % bounds.astype(np.uint64)).astype(np.int64)
    decks = np.repeat(canonical[None, :], count, axis=0)
    rows = np.arange(count)
    for draw, index in enumerate(range(size - 1, 0, -1)):
        other = chosen[:, draw]
        held = decks[rows, other]
        decks[rows, other] = decks[:, index]
        decks[:, index] = held
    for row in np.flatnonzero(rejected):
        decks[row] = deck_from_seed(config, first + int(row))
    return decks


def random_legal(mask: Mask, rng: np.random.Generator) -> Ints:
    """One action per row of ``mask``, uniform among the legal ones (a uniform number in
    [0, 1) added to each entry of the mask; the largest sum is a legal action)."""
    noise = rng.random(mask.shape)
    noise += mask
    chosen: Ints = noise.argmax(axis=1).astype(np.int64)
    return chosen


class BatchEnv:
    """``n`` games of ``config`` stepped at once [RL-batch, RL-canonical, RL-mask,
    RL-reward, RL-illegal, RL-seed].

    Game i of the first :meth:`reset` is dealt ``deck_from_seed(config, seed + i)``;
    every game dealt afterwards (by a later :meth:`reset`, or automatically when it
    ends) takes the next unused seed, games ending in the same step in the order of
    their index.  :attr:`seeds` holds the seed of each game being played, so that any
    game can be replayed with the engine from its seed and its actions.

    Array attributes (one row per game) are the engine's variables: ``hands`` (n, p,
    h) card identities (-1: no card; slot 0 the oldest), ``fields`` (n, k), ``hints``,
    ``errors``, ``current``, ``turns``, ``remaining`` (-2 for infinity) and ``scores``
    (n,).  They are the environment's own arrays: read them, do not write them."""

    def __init__(self, config: GameConfig, n: int, seed: int = 0) -> None:
        problem = batch_unsupported(config)
        if problem is not None:
            raise RLError("RL-batch", problem)
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise RLError("RL-batch", f"the number of games must be an integer >= 1, not {n!r}")
        n = int(n)
        try:
            check_seed(seed)
        except ConfigError as error:
            raise RLError("RL-batch", str(error)) from None
        self.config, self.n = config, n
        self._next_seed = seed
        self._ahead = np.zeros((0, config.deck_size), np.int64)
        """decks dealt ahead for the seeds from ``_next_seed`` on"""
        self._ready = False
        lay = layout("canonical", config)
        dims, at = lay.dims, offsets(lay)
        p, h, c, r = config.players, config.hand_size, dims.colours, dims.ranks
        b, deck = dims.identities, config.deck_size
        self._p, self._h, self._c, self._r, self._b, self._deck_size = p, h, c, r, b, deck
        self._per = b + c + r
        self._lives = dims.lives
        self._max_errors = config.max_errors
        self._plain = plain_actions(config)
        self.actions = self._plain.size
        """A, the size of the plain action space [RL-plain]."""
        self.length = lay.size
        """L, the length of a ``canonical`` observation [RL-layout]."""
        self._at = at
        self._tables(lay.dims)
        self._arrays()

    # ------------------------------------------------------------ set-up

    def _tables(self, dims: Dims) -> None:
        """Constant tables of the configuration: each identity's colour, rank and touch
        bits (with an entry for "no card" at index b, which index -1 reaches), the
        identities each hint touches, and the positions of the observation's sections
        [RL-layout, 2.16-2a-value, 2.16-2a-suit]."""
        p, h, c, r, b = self._p, self._h, self._c, self._r, self._b
        at, n = self._at, self.n
        identities = np.arange(b)
        self._colour_of = np.append(identities // r, EMPTY).astype(np.int64)
        self._rank_of = np.append(identities % r, EMPTY).astype(np.int64)
        # hint q (colour q for q < c, rank q - c otherwise) touches identity x: touches[q, x]
        touches = np.zeros((c + r, b + 1), np.bool_)
        touches[self._colour_of[:b], identities] = True
        touches[c + self._rank_of[:b], identities] = True
        self._touches = touches
        self._hint_bits = touches[:, :b].astype(np.float32)
        self._touch_bits = (touches.astype(np.int64) << np.arange(c + r)[:, None]).sum(axis=0)
        self._bit_range = np.arange(c + r)
        self._slot_range = np.arange(h)
        # seats of the vector, observer first: rotations[C] = (C, C + 1, ...) mod p
        self._rotations = (np.arange(p)[:, None] + np.arange(p)) % p
        self._next_seat = self._rotations[:, 1 % p]
        self._rows = np.arange(n)
        self._seat_rows = self._rows * p
        self._row_starts = self._rows * self.length
        self._pile_rows = self._rows * (self._deck_size + 1)
        # [RL-hands] relative seat 1 + o, slot j: hands + (o h + j) b + identity
        self._hand_cells = at.hands + (np.arange((p - 1) * h) * b).reshape(p - 1, h)
        self._deck_range = np.arange(max(0, self._deck_size - p * h))
        self._fire_range = np.arange(r)
        self._info_range = np.arange(dims.max_hints)
        self._life_range = np.arange(self._lives)
        # [RL-discards] position k of the pile's thermometers: which identity, which copy
        self._pile_starts = np.append(np.cumsum(dims.counts) - dims.counts, 0).astype(np.int64)
        self._last_width = at.cards - at.actor
        self._last_rows = self._rows * (self._last_width + 1)
        self._decoding(p)
        self._fresh = np.zeros((p, h, self._per), np.float32)
        self._fresh[:, :, :b] = 1

    def _decoding(self, p: int) -> None:
        """Per plain action, as :meth:`~hanabi_ref.rl.actions.PlainActions.action` reads it
        for seat 0 [RL-plain]: its move type, slot (0 for a hint), the target's offset
        from the actor and the hint's row of the touch table (0 when not a hint), and
        the cells of RL-last-action it sets, counted from the actor section: target or
        position, and colour, rank or the start of the card section."""
        at, c = self._at, self._c
        start = at.actor
        size = self.actions
        self._move_of = np.zeros(size, np.int64)
        self._slot_of = np.zeros(size, np.int64)
        offset_of = np.zeros(size, np.int64)
        self._kind_of = np.zeros(size, np.int64)
        self._where_of = np.zeros(size, np.int64)
        self._what_of = np.zeros(size, np.int64)
        for index in range(size):
            action = self._plain.action(index, 0)
            if isinstance(action, Hint):
                colour = action.kind == "colour"
                kind = action.subject if colour else c + action.subject - 1
                self._move_of[index] = REVEAL_COLOUR if colour else REVEAL_RANK
                offset_of[index] = action.target
                self._kind_of[index] = kind
                self._where_of[index] = at.target + action.target - 1 - start
                self._what_of[index] = (at.colour + kind if colour else at.rank + kind - c) - start
            else:
                self._move_of[index] = PLAY if isinstance(action, Play) else DISCARD
                self._slot_of[index] = action.slot
                self._where_of[index] = at.position + action.slot - start
                self._what_of[index] = at.card - start
        # target_of[C, a]: the seat action a of seat C hints (C itself when not a hint)
        self._target_of = (np.arange(p)[:, None] + offset_of) % p

    def _arrays(self) -> None:
        """The variables of every game, before the first deal."""
        n, p, h = self.n, self._p, self._h
        self.seeds = np.zeros(n, np.uint64)
        self._decks = np.zeros((n, self._deck_size), np.int64)
        self._next = np.zeros(n, np.int64)
        self.hands = np.full((n, p, h), EMPTY, np.int64)
        self._know = np.zeros((n, p, h, self._per), np.float32)
        self.fields = np.zeros((n, self._c), np.int64)
        self._piles = np.zeros((n, self._b), np.int64)
        # [RL-discards] the pile's thermometers as the vector holds them, one column more
        self._pile_bits = np.zeros((n, self._deck_size + 1), np.float32)
        self.hints = np.zeros(n, np.int64)
        self.errors = np.zeros(n, np.int64)
        self.current = np.zeros(n, np.int64)
        self.turns = np.zeros(n, np.int64)
        self.remaining = np.zeros(n, np.int64)
        self.scores = np.zeros(n, np.int64)
        # the last-action sections, with one column more that writes with no effect land in
        self._last = np.zeros((n, self._last_width + 1), np.float32)
        self._mask = np.zeros((n, self.actions), np.int8)

    @property
    def current_player(self) -> Ints:
        """The acting seat of each game (the seat its observation is from)."""
        return self.current.copy()

    # ------------------------------------------------------------ dealing

    def _deal(self, games: Ints) -> None:
        """Deal each of ``games`` the next unused seed, in order, and set its variables as
        step 1 does: blocks of h cards, seat 0 first; every knowledge set all identities;
        t = t0, f = 0, C = 0; and, as step 3 once after the deal, R := p at once when the
        deal empties the stack [2.16-1, 2.16-1-deal, 2.14-initial, E-6, RL-seed]."""
        count = len(games)
        if count == 0:
            return
        first, config = self._next_seed, self.config
        decks = self._decks_for(count)
        p, h = self._p, self._h
        dealt = p * h
        self.seeds[games] = np.arange(first, first + count, dtype=np.uint64)
        self._decks[games] = decks
        self._next[games] = dealt
        self.hands[games] = decks[:, :dealt].reshape(count, p, h)
        self._know[games] = self._fresh
        self.fields[games] = 0
        self._piles[games] = 0
        self._pile_bits[games] = 0
        self.hints[games] = config.max_hints
        self.errors[games] = 0
        self.current[games] = 0
        self.turns[games] = 0
        self.remaining[games] = p if dealt == self._deck_size else INFINITE
        self.scores[games] = 0
        self._last[games] = 0

    def _decks_for(self, count: int) -> Ints:
        """The decks of the next ``count`` unused seeds, which are then used; dealt ahead
        in chunks of at least n (:func:`shuffled_decks`) [D-seed, RL-seed]."""
        if self._next_seed + count - 1 > (1 << 64) - 1:
            raise RLError("RL-batch", f"the seeds have run out: {count} more games would need seeds past 2^64 - 1")
        have = len(self._ahead)
        if have < count:
            start = self._next_seed + have
            # ahead, but not past the last seed (a game that needs one past it is refused)
            more = max(count - have, min(max(self.n, VECTOR_DECKS), (1 << 64) - start))
            self._ahead = np.concatenate([self._ahead, shuffled_decks(self.config, start, more)])
        decks, self._ahead = self._ahead[:count], self._ahead[count:]
        self._next_seed += count
        return decks

    def reset(self) -> tuple[Floats, Mask]:
        """Deal every game from the next unused seeds (the first call: seed, seed + 1,
        ...) and return the acting seats' observations and masks [RL-seed]."""
        self._deal(self._rows)
        self._ready = True
        return self._outputs()

    # ------------------------------------------------------------ outputs

    def _outputs(self) -> tuple[Floats, Mask]:
        """The ``canonical`` observation and the plain mask of each game's acting seat
        [RL-canonical, RL-mask]."""
        n, p, h, b, c = self.n, self._p, self._h, self._b, self._c
        at, cur = self._at, self.current
        # row of (game, seat) in the (n p)-row views of the per-seat arrays, observer first
        seats = self._seat_rows[:, None] + self._rotations[cur]
        # [2.13-hand-size] a hand holds h cards, or h - 1 once the stack is empty, and its
        # cards fill the first slots: the last slot alone tells the size
        sizes = h - (self.hands[:, :, h - 1] < 0)
        others = self.hands.reshape(n * p, h)[seats[:, 1:]]
        out = np.zeros((n, self.length), np.float32)
        # [RL-hands] the others' cards one-hot; an empty slot writes 0 to its first cell
        cells = self._row_starts[:, None, None] + self._hand_cells + np.maximum(others, 0)
        np.put(out, cells, others >= 0)
        # [RL-missing]
        out[:, at.missing:at.missing + p] = sizes.reshape(n * p)[seats] < h
        # [RL-deck, RL-fireworks, RL-tokens, RL-discards]
        out[:, at.deck:at.deck + len(self._deck_range)] = self._deck_range < (self._deck_size - self._next)[:, None]
        fireworks = self._fire_range == self.fields[:, :, None] - 1
        out[:, at.fireworks:at.fireworks + b] = fireworks.reshape(n, b)
        out[:, at.information:at.information + len(self._info_range)] = self._info_range < self.hints[:, None]
        out[:, at.lives:at.lives + self._lives] = self._life_range < (self._lives - self.errors)[:, None]
        out[:, at.discards:at.actor] = self._pile_bits[:, :self._deck_size]
        # [RL-last-action]
        out[:, at.actor:at.cards] = self._last[:, :self._last_width]
        # [RL-knowledge] the knowledge rows of every seat, observer first
        known = self._know.reshape(n * p, h * self._per)[seats]
        out[:, at.cards:] = known.reshape(n, p * h * self._per)
        # [RL-mask] discards (not with every token), plays, hints touching a card
        mask = np.zeros((n, self.actions), np.int8)
        holds = self._slot_range < sizes[self._rows, cur][:, None]
        mask[:, :h] = holds & (self.hints < self.config.max_hints)[:, None]
        mask[:, h:2 * h] = holds
        keys = self._touch_bits[others[:, :, 0]]
        for slot in range(1, h):
            keys |= self._touch_bits[others[:, :, slot]]
        touched = (keys[:, :, None] >> self._bit_range) & (self.hints > 0)[:, None, None]
        mask[:, 2 * h:2 * h + (p - 1) * c] = touched[:, :, :c].reshape(n, (p - 1) * c)
        mask[:, 2 * h + (p - 1) * c:] = touched[:, :, c:].reshape(n, -1)
        self._mask = mask
        return out, mask.copy()

    # ------------------------------------------------------------ a step

    def _checked(self, actions: npt.ArrayLike) -> Ints:
        """The actions as int64, or :class:`RLError` ``RL-illegal`` naming the first game
        whose action is illegal and the rule that forbids it [RL-illegal]."""
        if not self._ready:
            raise RLError("RL-batch", "reset() deals the games; call it before step()")
        array = np.asarray(actions)
        if array.shape != (self.n,) or array.dtype.kind not in "iu":
            raise RLError("RL-batch", f"actions must be an integer array of shape ({self.n},), "
                          f"not {array.dtype} of shape {array.shape}")
        chosen = array.astype(np.int64)
        outside = (chosen < 0) | (chosen >= self.actions)
        if outside.any():
            game = int(np.argmax(outside))
            raise RLError("RL-illegal", f"game {game}: action {int(chosen[game])} is not an index of the plain "
                          f"space (0 to {self.actions - 1})")
        legal = self._mask[self._rows, chosen]
        if not legal.all():
            game = int(np.argmin(legal))
            raise RLError("RL-illegal", self._illegality(game, int(chosen[game])))
        return chosen

    def _illegality(self, game: int, index: int) -> str:
        """Why plain action ``index`` is illegal in ``game``: the engine's own clause and
        reason (:func:`hanabi_ref.legality.action_problem`) [RL-illegal, 2.16-2]."""
        config = self.config
        actor = int(self.current[game])
        action = self._plain.action(index, actor)
        hands = [[int(card) for card in self.hands[game, seat] if card >= 0] for seat in range(self._p)]

        def mask_of(seat: int) -> int | None:
            return None if seat == actor else touch_key(config.touch_bits, hands[seat])

        problem = action_problem(config, int(self.hints[game]), actor, len(hands[actor]), mask_of, action)
        why = "not in the legal mask" if problem is None else f"{problem[0]}: {problem[1]}"
        return f"game {game}: action {index} ({describe(action)}, seat {actor}) is illegal: {why}"

    def step(self, actions: npt.ArrayLike) -> tuple[Floats, Mask, Floats, Bools]:
        """Apply one plain action in every game: the action's step (2a, 2b or 2c), the end
        of the move, step 3, and the draw unless the move ends the game [2.16-2, 2.16-3,
        R-3].  Returns the acting seats' observations and masks, each game's reward (the
        change of its score, RL-reward) and whether it ended; a game that ended is dealt
        the next seed at once, and its observation and mask are the new game's first
        [RL-batch].  An illegal action in any game raises ``RL-illegal`` before any game
        changes [RL-illegal]."""
        chosen = self._checked(actions)
        p, r = self._p, self._r
        rows, cur = self._rows, self.current
        mover_rows = self._seat_rows + cur
        move = self._move_of[chosen]
        hinting = move >= REVEAL_COLOUR
        discarding = move == DISCARD
        playing = move == PLAY
        hints_before = self.hints.copy()
        # ---- 2a [2.16-2a]
        touched = self._hint(np.nonzero(hinting)[0], self._kind_of[chosen], self._target_of[cur, chosen])
        # ---- 2b, 2c [2.16-2b, 2.16-2c]
        slot = self._slot_of[chosen]
        card = self.hands.reshape(self.n * p, self._h)[mover_rows, slot]
        colour, rank = self._colour_of[card], self._rank_of[card]
        success = playing & (self.fields[rows, colour] == rank)
        failure = playing & ~success
        self.fields[rows, colour] += success
        # [2.16-2b-token, 2.16-2c-five] a discard, or a play completing a suit, below t0
        top = success & (rank == r - 1)
        below_max = hints_before < self.config.max_hints
        self.hints += (discarding | top) & below_max
        self.hints -= hinting
        self.errors += failure
        if self._max_errors is not None:
            # [2.16-2c-strikeout] the last allowed error: R := -1
            self.remaining[failure & (self.errors == self._max_errors)] = -1
        # [2.16-2b-discard, 2.16-2c-fail] the pile, and its thermometer cell (RL-discards)
        piling = discarding | failure
        pile_cells = np.where(piling, self._pile_starts[card] + self._piles[rows, card], self._deck_size)
        np.put(self._pile_bits, self._pile_rows + pile_cells, 1)
        self._piles[rows, card] += piling
        moving = np.nonzero(~hinting)[0]
        self._take(mover_rows[moving], slot[moving])
        # ---- end of the move [2.16-2-next, 2.16-2-R]
        self.remaining -= self.remaining > 0
        self.current = self._next_seat[cur]
        self.turns += 1
        # ---- step 3, decided before the draw (R-3: the final move draws nothing)
        totals = self.fields.sum(axis=1)
        stop = (self.remaining == -1) | (self.remaining == 0) | (totals == self.config.max_score)
        drawing = np.nonzero(~hinting & ~stop & (self._next < self._deck_size))[0]
        self._draw(drawing, mover_rows[drawing])
        # [2.16-3-last-round] the stack just ran out: R := p
        self.remaining[~stop & (self.remaining == INFINITE) & (self._next == self._deck_size)] = p
        # ---- [RL-reward] the change of the score (0 after the last error, 2.16-3-strikeout)
        score = np.where(self.remaining == -1, 0, totals)
        reward = (score - self.scores).astype(np.float32)
        self.scores = score
        self._record(chosen, move, hinting, touched, card, success, top & below_max)
        self._deal(np.nonzero(stop)[0])
        observation, mask = self._outputs()
        return observation, mask, reward, stop

    def _hint(self, games: Ints, kind: Ints, target: Ints) -> Bools:
        """[2.16-2a] the hints of ``games``: each touched card keeps the identities the
        hint touches, every other card of the target loses them (negative information),
        and a touched card's colour or rank counts as revealed [RL-knowledge] (with one
        clue colour per suit, the colour or rank a hint names is the touched card's own,
        as :func:`hanabi_ref.rl.encoders.revealed` records it); the caller spends the
        token.  Returns the touched slots of every game's target (n, h)."""
        touched = np.zeros((self.n, self._h), np.bool_)
        if len(games) == 0:
            return touched
        b = self._b
        kinds = kind[games]
        target_rows = self._seat_rows[games] + target[games]
        cards = self.hands.reshape(self.n * self._p, self._h)[target_rows]
        hit = self._touches[kinds[:, None], cards]
        know_rows = self._know.reshape(self.n * self._p, self._h, self._per)
        known = know_rows[target_rows]
        bits = self._hint_bits[kinds][:, None, :]
        known[:, :, :b] *= np.where(hit[:, :, None], bits, 1 - bits)
        games_hit, slots_hit = np.nonzero(hit)
        known[games_hit, slots_hit, b + kinds[games_hit]] = 1
        know_rows[target_rows] = known
        touched[games] = hit
        return touched

    def _take(self, rows: Ints, slots: Ints) -> None:
        """[2.16-2b, 2.16-2c, E-12] the card in ``slots`` of the hands at ``rows`` (rows of
        the (n p)-row view) leaves with its knowledge; the later cards move down one slot
        and the last slot is left empty."""
        if len(rows) == 0:
            return
        h = self._h
        later = np.minimum(self._slot_range + (self._slot_range >= slots[:, None]), h - 1)
        hand_rows = self.hands.reshape(self.n * self._p, h)
        pick = rows[:, None], later
        kept = hand_rows[pick]
        kept[:, h - 1] = EMPTY
        hand_rows[rows] = kept
        know_rows = self._know.reshape(self.n * self._p, h, self._per)
        known = know_rows[pick]
        known[:, h - 1] = 0
        know_rows[rows] = known

    def _draw(self, games: Ints, rows: Ints) -> None:
        """[2.16-2b-draw, 2.16-2c-draw, R-2] the top card of the stack joins the hand at
        ``rows`` as its last card, knowing every identity.  Hands are full while the
        stack lasts, so after :meth:`_take` the last card is slot h - 1."""
        if len(games) == 0:
            return
        h = self._h
        self.hands.reshape(self.n * self._p, h)[rows, h - 1] = self._decks[games, self._next[games]]
        self._know.reshape(self.n * self._p, h, self._per)[rows, h - 1] = self._fresh[0, 0]
        self._next[games] += 1

    def _record(self, chosen: Ints, move: Ints, hinting: Bools, touched: Bools, card: Ints, success: Bools,
                token: Bools) -> None:
        """[RL-last-action] the last-action sections as the next seat sees them: actor p - 1
        (the mover is the seat before the observer), the move type, for a hint its target
        (offset - 1), colour or rank and the touched slots, for a play or discard its
        slot and card, whether a play scored and whether it gave a token back (only a
        completed suit played below t0 does)."""
        at, h = self._at, self._h
        last, start = self._last, at.actor
        last.fill(0)
        nothing = self._last_width  # the extra column
        cells = np.empty((self.n, 6), np.int64)
        cells[:, 0] = self._p - 1
        cells[:, 1] = at.move_type - start + move
        cells[:, 2] = self._where_of[chosen]
        cells[:, 3] = self._what_of[chosen] + np.where(hinting, 0, card)
        cells[:, 4] = np.where(success, at.scored - start, nothing)
        cells[:, 5] = np.where(token, at.token - start, nothing)
        cells += self._last_rows[:, None]
        np.put(last, cells, 1)
        last[:, at.outcome - start:at.outcome - start + h] = touched


# ---------------------------------------------------------------- speed [RL-bench]


def bench(config: GameConfig, n: int, steps: int, seed: int = 0) -> float:
    """Encoded steps per second of process CPU time: ``steps`` calls of
    :meth:`BatchEnv.step` on ``n`` games, each applying one action in every game and
    returning every game's new observation and mask [RL-bench].  The actions are drawn
    uniformly from the masks (:func:`random_legal`, a seeded numpy generator); the whole
    loop is timed, the choice included, as in :func:`openspiel_bench`."""
    env = BatchEnv(config, n, seed)
    _, mask = env.reset()
    rng = np.random.default_rng(seed)
    start = time.process_time()
    for _ in range(steps):
        _, mask, _, _ = env.step(random_legal(mask, rng))
    spent = time.process_time() - start
    return n * steps / spent if spent > 0 else float("inf")


def openspiel_bench(config: GameConfig, steps: int, seed: int = 0, observer: bool = False) -> float:
    """OpenSpiel's speed on the same measure, for comparison [RL-bench]: player steps per
    second of process CPU time in random games of its Hanabi with ``config``'s
    parameters, each step the acting player's ``observation_tensor``, the legal actions
    and the move (chance nodes dealt by their probabilities); the whole loop is timed,
    the choice of actions (Python's ``random``) included.  ``observer``: read the
    observation through OpenSpiel's faster observer buffer (``make_observation``,
    ``set_from``) instead of ``observation_tensor``."""
    from hanabi_ref.peers import import_peer
    from hanabi_ref.peers.hle_rules import hle_parameters

    pyspiel: Any = import_peer("openspiel", "pyspiel", "open-spiel (pyspiel)")
    game = pyspiel.load_game("hanabi", hle_parameters(config))
    buffer: Any = None
    if observer:
        observation: Any = import_peer("openspiel", "open_spiel.python.observation", "open-spiel (pyspiel)")
        buffer = observation.make_observation(game)
    rng = random.Random(seed)
    done = 0
    start = time.process_time()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([o for o, _ in outcomes], [w for _, w in outcomes])[0])
                continue
            if buffer is None:
                state.observation_tensor(state.current_player())
            else:
                buffer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    spent = time.process_time() - start
    return done / spent if spent > 0 else float("inf")
