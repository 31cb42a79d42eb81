"""N games stepped at once with numpy, under every rule preset [RL-batch].

:class:`BatchEnv` keeps every variable of Algorithm 2.16 as one array over the games
(hands as card identities, each slot's record of its card's one-hot and knowledge as
rows of 0/1 bytes laid out as the observation's sections, fields, tokens, R, the stack
position) and applies one plain action in each game per :meth:`BatchEnv.step` with array
operations only; its outputs are the ``canonical`` observation of each game's acting
seat, one (N, L) float32 array, and its plain legal-action mask, one (N, A) int8 array.
Both equal what :func:`hanabi_ref.tools.rl.encoders.encode` and
:meth:`hanabi_ref.tools.rl.actions.PlainActions.mask` give for the engine's game of the same
seed after the same actions, bit for bit (tests/test_rl_batch.py replays every game
with :mod:`hanabi_ref.engine.transition` and compares every step).

The rules are those of the configuration's options, whatever preset they come from
(P-options: empty hints, discards with every token, the strikeout's score, the early
ends R-1 and R-4, the final move's draw R-3, the deal and the slot order), on a deck of
classic touch; what it cannot play is refused with
:class:`~hanabi_ref.tools.rl.errors.RLError` ``RL-batch``
(:func:`~hanabi_ref.tools.rl.batch_tables.batch_unsupported`).

Two facts make the observation cheap: it is always the view of the seat that moves
next, so the last actor is always the observer's relative seat p - 1 and a hint's
target relative to the observer is its offset from the hinter minus one; and the seats
of the vector are the game's seats rotated by the acting seat, one gather per step of
each seat's slot records (the card one-hots of RL-hands and the rows of RL-knowledge).
The vector is assembled as bytes and widened to float32 once.

The module reads as spec/rl.md and Algorithm 2.16: each step of a move
(:func:`hint_outcomes` for 2a, :func:`fields_after_plays`, :func:`tokens_after_moves`,
:func:`errors_after_plays`, :func:`piles_after_moves` and :func:`hands_after_taking` for
2b and 2c, :func:`end_of_move`, :func:`stopping`, :func:`hands_after_drawing`,
:func:`last_round`, :func:`nothing_playable`, :func:`rewards`,
:func:`last_action_sections`) and each output (:func:`observations`,
:func:`legal_masks`) is a function of the arrays it is given, returning new arrays; for
the large per-card arrays (hands, slot records, the pile's thermometers) it returns the
rows or cells that change.  :class:`BatchEnv` holds the arrays of the running games,
writes those rows in place and calls the steps in order.
"""

from __future__ import annotations

import random
import time
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.base.stats import outcome_at
from hanabi_ref.engine.actions import describe
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.dealing import check_seed
from hanabi_ref.engine.legality import action_problem, touch_key
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.batch_tables import (EMPTY, INFINITE, Tables, batch_tables, batch_unsupported,
                                              shuffled_decks)
from hanabi_ref.tools.rl.encoders import DISCARD, PLAY, REVEAL_COLOUR
from hanabi_ref.tools.rl.errors import RLError

__all__ = ["BatchEnv", "batch_unsupported", "bench", "openspiel_bench", "random_legal", "shuffled_decks"]

AHEAD_DECKS: Final = 4096
"""The fewest decks :class:`BatchEnv` deals ahead at once."""

Floats = npt.NDArray[np.float32]
Bytes = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Mask = npt.NDArray[np.int8]


def random_legal(mask: Mask, rng: np.random.Generator) -> Ints:
    """One action per row of ``mask``, uniform among the legal ones (a uniform number in
    [0, 1) added to each entry of the mask; the largest sum is a legal action)."""
    noise = rng.random(mask.shape, dtype=np.float32)
    noise += mask
    chosen: Ints = noise.argmax(axis=1).astype(np.int64)
    return chosen


# ---------------------------------------------------------------- legality [RL-illegal]


def action_indices(t: Tables, actions: npt.ArrayLike) -> Ints:
    """The actions as int64, or :class:`RLError`: ``RL-batch`` for an array that is not n
    integers, ``RL-illegal`` for an index outside the plain space [RL-illegal, RL-plain]."""
    array = np.asarray(actions)
    if array.shape != (t.n,) or array.dtype.kind not in "iu":
        raise RLError("RL-batch", f"actions must be an integer array of shape ({t.n},), "
                      f"not {array.dtype} of shape {array.shape}")
    chosen = array.astype(np.int64)
    outside = (chosen < 0) | (chosen >= t.actions)
    if outside.any():
        game = int(np.argmax(outside))
        raise RLError("RL-illegal", f"game {game}: action {int(chosen[game])} is not an index of the plain "
                      f"space (0 to {t.actions - 1})")
    return chosen


def illegality(config: GameConfig, hands: Ints, hints: int, actor: int, game: int, index: int) -> str:
    """Why plain action ``index`` of seat ``actor`` is illegal in ``game``, whose hands are
    ``hands`` (p, h) and hint tokens ``hints``: the engine's own clause and reason
    (:func:`hanabi_ref.engine.legality.action_problem`) [RL-illegal, 2.16-2]."""
    action = plain_actions(config).action(index, actor)
    held = [[int(card) for card in hand if card >= 0] for hand in hands]

    def mask_of(seat: int) -> int | None:
        return None if seat == actor else touch_key(tables_for(config).touch_bits, held[seat])

    problem = action_problem(tables_for(config), hints, actor, len(held[actor]), mask_of, action)
    why = "not in the legal mask" if problem is None else f"{problem[0]}: {problem[1]}"
    return f"game {game}: action {index} ({describe(action)}, seat {actor}) is illegal: {why}"


# ---------------------------------------------------------------- the steps of a move [2.16-2, 2.16-3]


def hint_outcomes(t: Tables, hand_rows: Ints, know_rows: Bytes, current: Ints, chosen: Ints,
                  games: Ints) -> tuple[Ints, Bytes, Bools]:
    """[2.16-2a, RL-knowledge] the hints of ``games``: each touched card keeps the
    identities the hint touches, every other card of the target loses them (negative
    information), and a touched card's colour or rank counts as revealed (under classic
    touch the colour or rank a hint names is the touched card's own, as
    :func:`hanabi_ref.tools.rl.encoders.revealed` records it).  Returns the targets' rows in
    the (n p)-row views, their knowledge rows after the hint, and the touched slots of
    every game's target (n, h); the token is spent by :func:`tokens_after_moves`."""
    touched = np.zeros((t.n, t.hand_size), np.bool_)
    if len(games) == 0:
        return games, know_rows[:0], touched
    acting = chosen[games]
    kinds = t.kind_of[acting]
    target_rows = t.seat_rows[games] + t.target_of[current[games], acting]
    hit = t.touches[kinds[:, None], np.take(hand_rows, target_rows, axis=0)]
    pick = 2 * kinds[:, None] + hit
    known = np.take(know_rows, target_rows, axis=0) & np.take(t.hint_keeps, pick, axis=0)
    known |= np.take(t.hint_reveals, pick, axis=0)
    touched[games] = hit
    return target_rows, known, touched


def fields_after_plays(t: Tables, fields: Ints, card: Ints, playing: Bools) -> tuple[Ints, Bools]:
    """[2.16-2c] a played card succeeds when its rank is its suit's field, which then grows
    by one.  Returns the fields and which plays succeeded."""
    cells = t.rows * t.colours + t.colour_of[card]  # each game's field of the card's suit, flat
    success = playing & (np.take(fields, cells) == t.rank_of[card])
    grown = fields.copy()
    grown.ravel()[cells] += success
    return grown, success


def tokens_after_moves(t: Tables, hints: Ints, hinting: Bools, discarding: Bools,
                       completing: Bools) -> tuple[Ints, Bools]:
    """[2.16-2a, 2.16-2b-token, 2.16-2c-five] a hint spends a token; a discard, or a play
    completing a suit, gives one back while below t0 (a discard with every token, where
    the rules allow it, gains nothing).  Returns the tokens and which completed suits gave
    one back (RL-last-action)."""
    below_max = hints < t.max_hints
    given_back = (discarding | completing) & below_max
    return hints + given_back - hinting, completing & below_max


def errors_after_plays(t: Tables, errors: Ints, remaining: Ints, failure: Bools) -> tuple[Ints, Ints]:
    """[2.16-2c-fail, 2.16-2c-strikeout] a failed play is an error; the last allowed error
    sets R := -1.  Returns the errors and R."""
    errors = errors + failure
    if t.max_errors is not None:
        remaining = np.where(failure & (errors == t.max_errors), -1, remaining)
    return errors, remaining


def piles_after_moves(t: Tables, piles: Ints, card: Ints, piling: Bools) -> tuple[Ints, Ints]:
    """[2.16-2b-discard, 2.16-2c-fail, RL-discards] a discarded or misplayed card joins the
    discard pile.  Returns the copies of each identity in the pile, and per game the flat
    cell of the (n, N + 1) pile thermometers it sets (the last column, which the
    observation leaves out, for a game whose move piles nothing)."""
    counted = t.rows * t.identities + card  # each game's count of the card's identity, flat
    cells = np.where(piling, t.pile_starts[card] + np.take(piles, counted), t.deck_size)
    grown = piles.copy()
    grown.ravel()[counted] += piling
    return grown, t.pile_rows + cells


def hands_after_taking(t: Tables, hand_rows: Ints, know_rows: Bytes, rows: Ints, slots: Ints) -> tuple[Ints, Bytes]:
    """[2.16-2b, 2.16-2c, E-12, R-2] the card in ``slots`` of the hands at ``rows`` (rows
    of the (n p)-row views) leaves with its knowledge; the later cards move down one
    slot and the last slot is left empty.  Returns those rows of the hands and of the
    knowledge."""
    h = t.hand_size
    later = rows[:, None] * h + np.minimum(t.slot_range + (t.slot_range >= slots[:, None]), h - 1)
    kept = np.take(hand_rows, later)
    kept[:, h - 1] = EMPTY
    known = np.take(know_rows.reshape(-1, t.per_card), later, axis=0)
    known[:, h - 1] = 0
    return kept, known


def end_of_move(t: Tables, remaining: Ints, current: Ints, turns: Ints) -> tuple[Ints, Ints, Ints]:
    """[2.16-2-R, 2.16-2-next] R counts down while positive, the next seat acts, and the
    turn counter grows.  Returns R, C and the turns."""
    return remaining - (remaining > 0), t.next_seat[current], turns + 1


def attainable_scores(t: Tables, fields: Ints, piles: Ints) -> Ints:
    """[R-1] the best score each game can still reach: every suit up to below its first
    value, from its height on, whose copies are all in the discard pile."""
    dead = (piles == t.counts).reshape(t.n, t.colours, t.ranks)
    ahead = t.fire_range >= fields[:, :, None]
    heights: Ints = np.where(dead & ahead, t.fire_range, t.ranks).min(axis=2).sum(axis=1)
    return heights


def stopping(t: Tables, remaining: Ints, fields: Ints, piles: Ints) -> tuple[Bools, Ints]:
    """[2.16-3, 2.16-3-strikeout, 2.16-3-R0, 2.16-3-max, R-1] a game stops after the last
    allowed error (R = -1), when R reaches 0, with every field complete, or, under
    ``end_when_no_points_possible``, when its score is the best it can reach; decided
    before the draw (R-3).  Returns which games stop and their fields' sum."""
    totals = fields.sum(axis=1)
    stop = (remaining == -1) | (remaining == 0) | (totals == t.max_score)
    if t.end_when_no_points_possible:
        stop |= attainable_scores(t, fields, piles) == totals
    return stop, totals


def hands_after_drawing(t: Tables, hand_rows: Ints, know_rows: Bytes, rows: Ints, cards: Ints) -> tuple[Ints, Bytes]:
    """[2.16-2b-draw, 2.16-2c-draw, R-2] each card of ``cards`` joins the hand at its row
    of ``rows``, knowing every identity: as the last card (the hands are full while the
    stack lasts, so after :func:`hands_after_taking` that is slot h - 1), or under
    ``draw_position = "newest-first"`` as slot 0, the others moving up.  Returns those
    rows of the hands and of the knowledge."""
    h = t.hand_size
    hands, known = hand_rows[rows], know_rows[rows]
    if t.newest_first:
        hands[:, 1:], known[:, 1:] = hands[:, :h - 1].copy(), known[:, :h - 1].copy()
        hands[:, 0], known[:, 0] = cards, t.fresh
    else:
        hands[:, h - 1], known[:, h - 1] = cards, t.fresh
    return hands, known


def last_round(t: Tables, remaining: Ints, stop: Bools, next_card: Ints) -> Ints:
    """[2.16-3-last-round] R := p in a game going on whose stack has just run out."""
    return np.where(~stop & (remaining == INFINITE) & (next_card == t.deck_size), t.players, remaining)


def nothing_playable(t: Tables, remaining: Ints, hands: Ints, fields: Ints, current: Ints) -> Bools:
    """[R-4] in the last round (R >= 1), whether no seat that still moves (C and the
    R - 1 seats after it) holds a card that its suit's field takes next."""
    needed = np.zeros((t.n, t.identities + 1), np.bool_)
    needed[:, :t.identities] = t.rank_of[:-1] == fields[:, t.colour_of[:-1]]
    holds = needed[t.rows[:, None, None], hands].any(axis=2)
    moving = (np.arange(t.players) - current[:, None]) % t.players < remaining[:, None]
    result: Bools = (remaining >= 1) & ~(holds & moving).any(axis=1)
    return result


def rewards(t: Tables, remaining: Ints, totals: Ints, scores: Ints) -> tuple[Floats, Ints]:
    """[RL-reward, 2.16-3-strikeout] the change of each game's score (0 after the last
    error, or the fields' sum under ``strikeout_score = "fireworks"``).  Returns the
    rewards and the scores."""
    score = totals if t.strikeout_scores_fireworks else np.where(remaining == -1, 0, totals)
    return (score - scores).astype(np.float32), score


def last_action_sections(t: Tables, chosen: Ints, hinting: Bools, touched: Bools, card: Ints,
                         success: Bools, token: Bools) -> Bytes:
    """[RL-last-action] the last-action sections as the next seat sees them, with one
    column more that writes with no effect land in: actor p - 1 (the mover is the seat
    before the observer), the move type, for a hint its target (offset - 1), colour or
    rank and the touched slots, for a play or discard its slot and card, whether a play
    scored and whether it gave a token back (only a completed suit played below t0
    does)."""
    at, start, nothing = t.at, t.at.actor, t.last_width
    last = np.zeros((t.n, t.last_width + 1), np.uint8)
    cells = np.take(t.last_cells, chosen, axis=0)
    cells[:, 3] += np.where(hinting, 0, card)
    cells[:, 4] -= success * (nothing - (at.scored - start))
    cells[:, 5] -= token * (nothing - (at.token - start))
    cells += t.last_rows[:, None]
    np.put(last, cells, 1)
    last[:, at.outcome - start:at.outcome - start + t.hand_size] = touched
    return last


# ---------------------------------------------------------------- the outputs [RL-canonical, RL-mask]


def observer_rows(t: Tables, current: Ints) -> Ints:
    """The row of each game's seats in the (n p)-row views of the per-seat arrays,
    observer (the acting seat) first [RL-encode]."""
    return t.seat_rows[:, None] + t.rotations[current]


def hand_sizes(t: Tables, hands: Ints) -> Ints:
    """[2.13-hand-size] a hand holds h cards, or fewer once the stack is empty, and its
    cards fill the first slots: the last slot alone tells whether it is short."""
    sizes: Ints = t.hand_size - (hands[:, :, t.hand_size - 1] < 0)
    return sizes


def touch_keys(t: Tables, hands: Ints) -> Ints:
    """[2.16-2a-empty] the touch key of each hand of ``hands`` (.., h): bit q is set when
    hint q touches one of its cards."""
    bits = np.take(t.touch_bits, hands)
    keys: Ints = bits[..., 0]
    for slot in range(1, t.hand_size):
        keys = keys | bits[..., slot]
    return keys


def observations(t: Tables, seats: Ints, others: Ints, know_rows: Bytes, sizes: Ints, next_card: Ints, fields: Ints,
                 hints: Ints, errors: Ints, pile_bits: Bytes, last: Bytes) -> Floats:
    """The ``canonical`` observation of each game's acting seat [RL-canonical], from the
    rows of its seats (:func:`observer_rows`), the other seats' cards, the knowledge
    rows, the hand sizes and the board, written section by section as bytes (every value
    of the vector is written once) and widened to float32 in one pass: RL-hands,
    RL-missing, RL-deck, RL-fireworks, RL-tokens, RL-discards, RL-last-action and
    RL-knowledge."""
    n, p, b, at = t.n, t.players, t.identities, t.at
    out = np.empty((n, t.length), np.uint8)  # 0 or 1 everywhere: bytes, a quarter of the floats' traffic
    # [RL-hands] the others' card one-hots, a slot without a card all zero
    out[:, at.hands:at.missing] = np.take(t.one_hots, others, axis=0).reshape(n, -1)
    out[:, at.missing:at.deck] = np.take(sizes, seats) < t.hand_size
    # [RL-deck, RL-fireworks, RL-tokens] rows of the tables of each section's values
    out[:, at.deck:at.fireworks] = np.take(t.deck_bits, t.deck_size - next_card, axis=0, mode="clip")
    out[:, at.fireworks:at.information] = np.take(t.fire_bits, fields, axis=0, mode="clip").reshape(n, b)
    out[:, at.information:at.lives] = np.take(t.info_bits, hints, axis=0, mode="clip")
    out[:, at.lives:at.discards] = np.take(t.life_bits, t.lives - errors, axis=0, mode="clip")
    out[:, at.discards:at.actor] = pile_bits[:, :t.deck_size]
    out[:, at.actor:at.cards] = last[:, :t.last_width]
    # [RL-knowledge] the knowledge rows of every seat, observer first
    out[:, at.cards:] = np.take(know_rows, seats, axis=0).reshape(n, -1)
    return out.astype(np.float32)


def legal_masks(t: Tables, sizes: Ints, keys: Ints, current: Ints, hints: Ints) -> Mask:
    """[RL-mask, 2.16-2] the plain mask of each game's acting seat: discards (not with
    every token unless the rules allow it), plays, and hints while a token is left, each
    touching a card of its target (``keys``: the touch keys of the other seats' hands,
    :func:`touch_keys`, read in :attr:`~hanabi_ref.tools.rl.batch_tables.Tables.hints_of_key`)
    unless the rules allow empty hints [2.16-2a-empty, 2.16-2b-token]."""
    n, h, c, p = t.n, t.hand_size, t.colours, t.players
    mask = np.empty((n, t.actions), np.int8)
    below = hints < t.max_hints
    mask[:, :2 * h] = np.take(t.moves_of_size, 2 * np.take(sizes, t.seat_rows + current) + below, axis=0)
    touched = np.take(t.hints_of_key, np.where((hints > 0)[:, None], keys, t.no_token), axis=0)
    if p == 2:  # one target: its colours, then its ranks, as the table's row
        mask[:, 2 * h:] = touched.reshape(n, -1)
    else:
        mask[:, 2 * h:2 * h + (p - 1) * c] = touched[:, :, :c].reshape(n, -1)
        mask[:, 2 * h + (p - 1) * c:] = touched[:, :, c:].reshape(n, -1)
    return mask


# ---------------------------------------------------------------- the environment [RL-batch]


class BatchEnv:
    """``n`` games of ``config`` stepped at once [RL-batch, RL-canonical, RL-mask,
    RL-reward, RL-illegal, RL-seed].

    Game i of the first :meth:`reset` is dealt ``deck_from_seed(config, seed + i)``;
    every game dealt afterwards (by a later :meth:`reset`, or automatically when it
    ends) takes the next unused seed, games ending in the same step in the order of
    their index.  :attr:`seeds` holds the seed of each game being played, so that any
    game can be replayed with the engine from its seed and its actions.

    Array attributes (one row per game) are the engine's variables: ``hands`` (n, p,
    h) card identities (-1: no card; slot order as the engine's, R-2), ``fields`` (n,
    k), ``hints``, ``errors``, ``current``, ``turns``, ``remaining`` (-2 for infinity)
    and ``scores`` (n,).  They are the environment's own arrays: read them, do not
    write them.  The class holds them and applies what the module's functions compute,
    in the order of Algorithm 2.16."""

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
        self._ahead = np.zeros((0, tables_for(config).deck_size), np.int64)
        """decks dealt ahead for the seeds from ``_next_seed`` on"""
        self._ready = False
        self._tables = t = batch_tables(config, n)
        self.actions = t.actions
        """A, the size of the plain action space [RL-plain]."""
        self.length = t.length
        """L, the length of a ``canonical`` observation [RL-layout]."""
        p, h = t.players, t.hand_size
        self.seeds = np.zeros(n, np.uint64)
        self._decks = np.zeros((n, t.deck_size), np.int64)
        self._next = np.zeros(n, np.int64)
        self.hands = np.full((n, p, h), EMPTY, np.int64)
        self._know = np.zeros((n, p, h, t.per_card), np.uint8)
        """each slot's RL-knowledge row"""
        self._keys = np.zeros(n * p, np.int64)
        """the touch key of each hand (:func:`touch_keys`), one row per (game, seat)"""
        self.fields = np.zeros((n, t.colours), np.int64)
        self._piles = np.zeros((n, t.identities), np.int64)
        # [RL-discards] the pile's thermometers as the vector holds them, one column more
        self._pile_bits = np.zeros((n, t.deck_size + 1), np.uint8)
        self.hints, self.errors, self.current, self.turns, self.remaining, self.scores = (
            np.zeros(n, np.int64) for _ in range(6))
        self._last = np.zeros((n, t.last_width + 1), np.uint8)
        self._mask = np.zeros((n, t.actions), np.int8)

    @property
    def current_player(self) -> Ints:
        """The acting seat of each game (the seat its observation is from)."""
        return self.current.copy()

    # ------------------------------------------------------------ dealing

    def _deal(self, games: Ints) -> None:
        """Deal each of ``games`` the next unused seed, in order, and set its variables as
        step 1 does: blocks of h cards, seat 0 first, or round the table (option
        ``deal``), in the slot order of ``draw_position``; every knowledge set all
        identities; t = t0, f = 0, C = 0; and, as step 3 once after the deal, R := p at
        once when the deal empties the stack [2.16-1, 2.16-1-deal, 2.14-initial, E-6,
        R-2, RL-seed]."""
        count = len(games)
        if count == 0:
            return
        t, first = self._tables, self._next_seed
        decks = self._decks_for(count)
        dealt = t.players * t.hand_size
        self.seeds[games] = np.arange(first, first + count, dtype=np.uint64)
        self._decks[games] = decks
        self._next[games] = dealt
        hands = decks[:, t.deal_order].reshape(count, t.players, t.hand_size)
        self.hands[games] = hands
        self._know[games] = t.fresh
        self._keys.reshape(self.n, t.players)[games] = touch_keys(t, hands)
        self.fields[games] = 0
        self._piles[games] = 0
        self._pile_bits[games] = 0
        self.hints[games] = t.max_hints
        self.errors[games] = 0
        self.current[games] = 0
        self.turns[games] = 0
        self.remaining[games] = t.players if dealt == t.deck_size and t.initial_stop_check else INFINITE
        self.scores[games] = 0
        self._last[games] = 0

    def _decks_for(self, count: int) -> Ints:
        """The decks of the next ``count`` unused seeds, which are then used; dealt ahead
        in chunks of at least 4 n and :data:`AHEAD_DECKS` (:func:`shuffled_decks`, whose
        cost per deck falls with the chunk) [D-seed, RL-seed]."""
        if self._next_seed + count - 1 > (1 << 64) - 1:
            raise RLError("RL-batch", f"the seeds have run out: {count} more games would need seeds past 2^64 - 1")
        have = len(self._ahead)
        if have < count:
            start = self._next_seed + have
            # ahead, but not past the last seed (a game that needs one past it is refused)
            more = max(count - have, min(max(4 * self.n, AHEAD_DECKS), (1 << 64) - start))
            self._ahead = np.concatenate([self._ahead, shuffled_decks(self.config, start, more)])
        decks, self._ahead = self._ahead[:count], self._ahead[count:]
        self._next_seed += count
        return decks

    def reset(self) -> tuple[Floats, Mask]:
        """Deal every game from the next unused seeds (the first call: seed, seed + 1,
        ...) and return the acting seats' observations and masks [RL-seed]."""
        self._deal(self._tables.rows)
        self._ready = True
        return self._outputs()

    # ------------------------------------------------------------ a step

    def _outputs(self) -> tuple[Floats, Mask]:
        """The ``canonical`` observation and the plain mask of each game's acting seat
        [RL-canonical, RL-mask]; the mask is kept to check the next actions."""
        t = self._tables
        seats = observer_rows(t, self.current)
        sizes = hand_sizes(t, self.hands)
        others = np.take(self.hands.reshape(t.n * t.players, t.hand_size), seats[:, 1:], axis=0)
        know_rows = self._know.reshape(t.n * t.players, t.hand_size * t.per_card)
        observation = observations(t, seats, others, know_rows, sizes, self._next, self.fields, self.hints,
                                   self.errors, self._pile_bits, self._last)
        self._mask = legal_masks(t, sizes, np.take(self._keys, seats[:, 1:]), self.current, self.hints)
        return observation, self._mask.copy()

    def _checked(self, actions: npt.ArrayLike) -> Ints:
        """The actions as int64, or :class:`RLError` ``RL-illegal`` naming the first game
        whose action is illegal and the rule that forbids it [RL-illegal]."""
        if not self._ready:
            raise RLError("RL-batch", "reset() deals the games; call it before step()")
        t = self._tables
        chosen = action_indices(t, actions)
        legal = np.take(self._mask, t.rows * t.actions + chosen)
        if not legal.all():
            game = int(np.argmin(legal))
            raise RLError("RL-illegal", illegality(self.config, self.hands[game], int(self.hints[game]),
                                                   int(self.current[game]), game, int(chosen[game])))
        return chosen

    def step(self, actions: npt.ArrayLike) -> tuple[Floats, Mask, Floats, Bools]:
        """Apply one plain action in every game: the action's step (2a, 2b or 2c), the end
        of the move, step 3, and the draw unless the move ends the game under
        ``draw_after_final_move = false`` [2.16-2, 2.16-3, R-3].  Returns the acting
        seats' observations and masks, each game's reward (the change of its score,
        RL-reward) and whether it ended; a game that ended is dealt the next seed at
        once, and its observation and mask are the new game's first [RL-batch].  An
        illegal action in any game raises ``RL-illegal`` before any game changes
        [RL-illegal]."""
        chosen = self._checked(actions)
        t, cur = self._tables, self.current
        hand_rows = self.hands.reshape(t.n * t.players, t.hand_size)
        know_rows = self._know.reshape(t.n * t.players, t.hand_size, t.per_card)
        mover_rows = t.seat_rows + cur
        move = t.move_of[chosen]
        hinting, discarding, playing = move >= REVEAL_COLOUR, move == DISCARD, move == PLAY
        # ---- 2a
        target_rows, known, touched = hint_outcomes(t, hand_rows, know_rows, cur, chosen, np.nonzero(hinting)[0])
        know_rows[target_rows] = known
        # ---- 2b, 2c
        slot = t.slot_of[chosen]
        card = np.take(hand_rows, mover_rows * t.hand_size + slot)
        self.fields, success = fields_after_plays(t, self.fields, card, playing)
        failure = playing & ~success
        self.hints, token = tokens_after_moves(t, self.hints, hinting, discarding,
                                               success & (t.rank_of[card] == t.ranks - 1))
        self.errors, self.remaining = errors_after_plays(t, self.errors, self.remaining, failure)
        self._piles, pile_cells = piles_after_moves(t, self._piles, card, discarding | failure)
        np.put(self._pile_bits, pile_cells, 1)
        moving = np.nonzero(~hinting)[0]
        rows = mover_rows[moving]
        if len(moving):
            hand_rows[rows], know_rows[rows] = hands_after_taking(t, hand_rows, know_rows, rows, slot[moving])
        # ---- end of the move, then step 3's test before the draw [R-3]
        self.remaining, self.current, self.turns = end_of_move(t, self.remaining, cur, self.turns)
        stop, totals = stopping(t, self.remaining, self.fields, self._piles)
        drawing = ~hinting & (self._next < t.deck_size)
        if not t.draw_after_final_move:
            drawing &= ~stop
        games = np.nonzero(drawing)[0]
        if len(games):
            drawers = mover_rows[games]
            cards = np.take(self._decks, games * t.deck_size + self._next[games])
            hand_rows[drawers], know_rows[drawers] = hands_after_drawing(t, hand_rows, know_rows, drawers, cards)
            self._next[games] += 1
        self._keys[rows] = touch_keys(t, hand_rows[rows])
        self.remaining = last_round(t, self.remaining, stop, self._next)
        if t.end_when_nothing_playable:
            stop |= nothing_playable(t, self.remaining, self.hands, self.fields, self.current)
        reward, self.scores = rewards(t, self.remaining, totals, self.scores)
        self._last = last_action_sections(t, chosen, hinting, touched, card, success, token)
        self._deal(np.nonzero(stop)[0])
        observation, mask = self._outputs()
        return observation, mask, reward, stop


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
    and the move; the whole loop is timed, the choice of actions (Python's ``random``)
    included.  Chance nodes are dealt by its cheapest correct loop: one ``random()`` and
    a scan of the cumulative probabilities.  ``observer``: read the observation through
    OpenSpiel's faster observer buffer (``make_observation``, ``set_from``) instead of
    ``observation_tensor``."""
    from hanabi_ref.tools.peers import import_peer
    from hanabi_ref.tools.peers.hle_rules import hle_parameters

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
                state.apply_action(outcome_at(state.chance_outcomes(), rng.random()))
                continue
            if buffer is None:
                state.observation_tensor(state.current_player())
            else:
                buffer.set_from(state, state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    spent = time.process_time() - start
    return done / spent if spent > 0 else float("inf")
