"""N games of the ``hle`` rules stepped at once with numpy [RL-batch].

:class:`BatchEnv` keeps every variable of Algorithm 2.16 as one array over the games
(hands as card identities, knowledge sets as rows of 0/1 values laid out as the
observation's knowledge section, fields, tokens, R, the stack position) and applies one plain action in each game per :meth:`BatchEnv.step`
with array operations only; its outputs are the ``canonical`` observation of each
game's acting seat, one (N, L) float32 array, and its plain legal-action mask, one
(N, A) int8 array.  Both equal what :func:`hanabi_ref.tools.rl.encoders.encode` and
:meth:`hanabi_ref.tools.rl.actions.PlainActions.mask` give for the engine's game of the same
seed after the same actions, bit for bit (tests/test_rl_batch.py replays every game
with :mod:`hanabi_ref.engine.transition` and compares every step).

The rules are those of the ``hle`` preset [PE-hle-empty-hints, PE-hle-discard-max,
PE-hle-final-draw], on any deck with one clue colour per suit (the ``hle`` preset's, or
a composition with the same rule options); any other configuration is refused with
:class:`~hanabi_ref.tools.rl.errors.RLError` ``RL-batch``.

Two facts make the observation cheap: it is always the view of the seat that moves
next, so the last actor is always the observer's relative seat p - 1 and a hint's
target relative to the observer is its offset from the hinter minus one (the whole
board part of the vector, deck to "last token added", is the same for every seat that
could look); and the seats of the vector are the game's seats rotated by the acting
seat, one gather per array.

The module reads as spec/rl.md and Algorithm 2.16: :class:`Tables` is the frozen record
of a configuration's constant tables (:func:`batch_tables`); each step of a move
(:func:`hint_outcomes` for 2a, :func:`fields_after_plays`, :func:`tokens_after_moves`,
:func:`errors_after_plays`, :func:`piles_after_moves` and :func:`hands_after_taking` for
2b and 2c, :func:`end_of_move`, :func:`stopping`, :func:`drawn_cards`,
:func:`last_round`, :func:`rewards`, :func:`last_action_sections`) and each output
(:func:`observations`, :func:`legal_masks`) is a function of the arrays it is given,
returning new arrays; for the large per-card arrays (hands, knowledge, the pile's
thermometers) it returns the rows or cells that change.  :class:`BatchEnv` holds the
arrays of the running games, writes those rows in place and calls the steps in order.
"""

from __future__ import annotations

import random
import time
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Hint, Play, describe
from hanabi_ref.engine.cards import rank_table, suit_table
from hanabi_ref.engine.dealing import check_seed, deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.legality import action_problem, touch_key
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.encoders import DISCARD, PLAY, REVEAL_COLOUR, REVEAL_RANK, Offsets, offsets
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import Dims, layout
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.engine.tables import tables_for

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
"""SplitMix64's increment and multipliers [D-seed] (:mod:`hanabi_ref.engine.dealing`)."""

VECTOR_DECKS: Final = 32
"""The fewest decks :func:`shuffled_decks` shuffles as arrays; fewer are shuffled one by
one by :func:`~hanabi_ref.engine.dealing.deck_from_seed`, which is then as fast."""


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
    outputs; it is dealt by :func:`~hanabi_ref.engine.dealing.deck_from_seed` instead, as are
    all decks when there are few or the seeds run past 2^64 - 1."""
    tables = tables_for(config)
    size = tables.deck_size
    canonical = np.array(tables.canonical_deck, np.int64)
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


# ---------------------------------------------------------------- the constant tables [RL-layout, RL-plain]


@attrs.frozen(eq=False)
class Tables:
    """The constant tables of one configuration played by n games at once: its dimensions
    and section starts, each identity's colour, rank and touch bits (with an entry for "no
    card" at index b, which index -1 reaches), the seats of the vector, the rows of the
    games in the flat views of the arrays, and the decoding of each plain action.  Built
    once by :func:`batch_tables`; its arrays are never written [RL-layout, RL-plain]."""

    n: int
    players: int
    hand_size: int
    colours: int
    ranks: int
    identities: int
    deck_size: int
    per_card: int
    """B + c + r, the values of one card in RL-knowledge"""
    lives: int
    max_hints: int
    max_errors: int | None
    max_score: int
    actions: int
    """A, the size of the plain action space [RL-plain]"""
    length: int
    """L, the length of a ``canonical`` observation [RL-layout]"""
    at: Offsets
    # the identities [2.16-2a-value, 2.16-2a-suit]
    colour_of: Ints
    rank_of: Ints
    touches: Bools
    """touches[q, x]: hint q (colour q for q < c, rank q - c otherwise) touches identity x"""
    hint_bits: Floats
    touch_bits: Ints
    fresh: Floats
    """the knowledge row of a card just dealt or drawn: every identity, nothing revealed"""
    # the seats, the rows and the sections
    rotations: Ints
    """seats of the vector, observer first: rotations[C] = (C, C + 1, ...) mod p"""
    next_seat: Ints
    rows: Ints
    seat_rows: Ints
    row_starts: Ints
    pile_rows: Ints
    last_rows: Ints
    bit_range: Ints
    slot_range: Ints
    hand_cells: Ints
    """[RL-hands] relative seat 1 + o, slot j: hands + (o h + j) b + identity"""
    deck_range: Ints
    fire_range: Ints
    info_range: Ints
    life_range: Ints
    pile_starts: Ints
    """[RL-discards] where each identity's thermometer starts in the pile's section"""
    last_width: int
    # the plain actions, decoded for seat 0 (plain_decoding)
    move_of: Ints
    slot_of: Ints
    kind_of: Ints
    where_of: Ints
    what_of: Ints
    target_of: Ints
    """target_of[C, a]: the seat action a of seat C hints (C itself when not a hint)"""


def batch_tables(config: GameConfig, n: int) -> Tables:
    """The constant tables of ``config`` for ``n`` games [RL-layout, 2.16-2a-value,
    2.16-2a-suit]: a colour hint touches the identities of its suit, a rank hint those of
    its rank (one clue colour per suit, RL-configs)."""
    lay = layout("canonical", config)
    dims, at = lay.dims, offsets(lay)
    p, h, c, r, b, deck = config.players, config.hand_size, dims.colours, dims.ranks, dims.identities, tables_for(config).deck_size
    identities = np.arange(b)
    colour_of = np.append(suit_table(r, b), EMPTY).astype(np.int64)  # one clue colour per suit (RL-configs)
    rank_of = np.append(rank_table(r, b), EMPTY).astype(np.int64)
    touches = np.zeros((c + r, b + 1), np.bool_)
    touches[colour_of[:b], identities] = True
    touches[c + rank_of[:b], identities] = True
    fresh = np.zeros(b + c + r, np.float32)
    fresh[:b] = 1
    rotations = (np.arange(p)[:, None] + np.arange(p)) % p
    rows = np.arange(n)
    plain = plain_actions(config)
    last_width = at.cards - at.actor
    move_of, slot_of, kind_of, where_of, what_of, target_of = plain_decoding(config, at, c)
    return Tables(
        n=n, players=p, hand_size=h, colours=c, ranks=r, identities=b, deck_size=deck, per_card=b + c + r,
        lives=dims.lives, max_hints=config.max_hints, max_errors=config.max_errors, max_score=tables_for(config).max_score,
        actions=plain.size, length=lay.size, at=at,
        colour_of=colour_of, rank_of=rank_of, touches=touches, hint_bits=touches[:, :b].astype(np.float32),
        touch_bits=(touches.astype(np.int64) << np.arange(c + r)[:, None]).sum(axis=0), fresh=fresh,
        rotations=rotations, next_seat=rotations[:, 1 % p], rows=rows, seat_rows=rows * p,
        row_starts=rows * lay.size, pile_rows=rows * (deck + 1), last_rows=rows * (last_width + 1),
        bit_range=np.arange(c + r), slot_range=np.arange(h),
        hand_cells=at.hands + (np.arange((p - 1) * h) * b).reshape(p - 1, h),
        deck_range=np.arange(max(0, deck - p * h)), fire_range=np.arange(r), info_range=np.arange(dims.max_hints),
        life_range=np.arange(dims.lives),
        pile_starts=np.append(np.cumsum(dims.counts) - dims.counts, 0).astype(np.int64), last_width=last_width,
        move_of=move_of, slot_of=slot_of, kind_of=kind_of, where_of=where_of, what_of=what_of, target_of=target_of)


def plain_decoding(config: GameConfig, at: Offsets, colours: int) -> tuple[Ints, Ints, Ints, Ints, Ints, Ints]:
    """Per plain action, as :meth:`~hanabi_ref.tools.rl.actions.PlainActions.action` reads it
    for seat 0 [RL-plain]: its move type, slot (0 for a hint), the hint's row of the
    touch table (0 when not a hint), the seat it hints from each seat, and the cells of
    RL-last-action it sets, counted from the actor section: target or position, and
    colour, rank or the start of the card section [RL-last-action]."""
    plain = plain_actions(config)
    start, size = at.actor, plain.size
    move_of, slot_of, offset_of, kind_of, where_of, what_of = (np.zeros(size, np.int64) for _ in range(6))
    for index in range(size):
        action = plain.action(index, 0)
        if isinstance(action, Hint):
            colour = action.kind == "colour"
            kind = action.subject if colour else colours + action.subject - 1
            move_of[index] = REVEAL_COLOUR if colour else REVEAL_RANK
            offset_of[index] = action.target
            kind_of[index] = kind
            where_of[index] = at.target + action.target - 1 - start
            what_of[index] = (at.colour + kind if colour else at.rank + kind - colours) - start
        else:
            move_of[index] = PLAY if isinstance(action, Play) else DISCARD
            slot_of[index] = action.slot
            where_of[index] = at.position + action.slot - start
            what_of[index] = at.card - start
    target_of = (np.arange(config.players)[:, None] + offset_of) % config.players
    return move_of, slot_of, kind_of, where_of, what_of, target_of


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


def hint_outcomes(t: Tables, hands: Ints, know: Floats, current: Ints, chosen: Ints,
                  games: Ints) -> tuple[Ints, Floats, Bools]:
    """[2.16-2a, RL-knowledge] the hints of ``games``: each touched card keeps the
    identities the hint touches, every other card of the target loses them (negative
    information), and a touched card's colour or rank counts as revealed (with one clue
    colour per suit, the colour or rank a hint names is the touched card's own, as
    :func:`hanabi_ref.tools.rl.encoders.revealed` records it).  Returns the targets' rows in the
    (n p)-row views, their knowledge after the hint, and the touched slots of every game's
    target (n, h); the token is spent by :func:`tokens_after_moves`."""
    touched = np.zeros((t.n, t.hand_size), np.bool_)
    if len(games) == 0:
        return games, know[:0, 0], touched
    b, acting = t.identities, chosen[games]
    kinds = t.kind_of[acting]
    target_rows = t.seat_rows[games] + t.target_of[current[games], acting]
    cards = hands.reshape(t.n * t.players, t.hand_size)[target_rows]
    hit = t.touches[kinds[:, None], cards]
    known = know.reshape(t.n * t.players, t.hand_size, t.per_card)[target_rows]
    bits = t.hint_bits[kinds][:, None, :]
    known[:, :, :b] *= np.where(hit[:, :, None], bits, 1 - bits)
    games_hit, slots_hit = np.nonzero(hit)
    known[games_hit, slots_hit, b + kinds[games_hit]] = 1
    touched[games] = hit
    return target_rows, known, touched


def fields_after_plays(t: Tables, fields: Ints, card: Ints, playing: Bools) -> tuple[Ints, Bools]:
    """[2.16-2c] a played card succeeds when its rank is its suit's field, which then grows
    by one.  Returns the fields and which plays succeeded."""
    colour = t.colour_of[card]
    success = playing & (fields[t.rows, colour] == t.rank_of[card])
    grown = fields.copy()
    grown[t.rows, colour] += success
    return grown, success


def tokens_after_moves(t: Tables, hints: Ints, hinting: Bools, discarding: Bools,
                       completing: Bools) -> tuple[Ints, Bools]:
    """[2.16-2a, 2.16-2b-token, 2.16-2c-five] a hint spends a token; a discard, or a play
    completing a suit, gives one back while below t0.  Returns the tokens and which
    completed suits gave one back (RL-last-action)."""
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
    cells = np.where(piling, t.pile_starts[card] + piles[t.rows, card], t.deck_size)
    grown = piles.copy()
    grown[t.rows, card] += piling
    return grown, t.pile_rows + cells


def hands_after_taking(t: Tables, hands: Ints, know: Floats, rows: Ints, slots: Ints) -> tuple[Ints, Floats]:
    """[2.16-2b, 2.16-2c, E-12] the card in ``slots`` of the hands at ``rows`` (rows of the
    (n p)-row views) leaves with its knowledge; the later cards move down one slot and the
    last slot is left empty.  Returns those rows of the hands and of the knowledge."""
    h = t.hand_size
    later = np.minimum(t.slot_range + (t.slot_range >= slots[:, None]), h - 1)
    pick = rows[:, None], later
    kept = hands.reshape(t.n * t.players, h)[pick]
    kept[:, h - 1] = EMPTY
    known = know.reshape(t.n * t.players, h, t.per_card)[pick]
    known[:, h - 1] = 0
    return kept, known


def end_of_move(t: Tables, remaining: Ints, current: Ints, turns: Ints) -> tuple[Ints, Ints, Ints]:
    """[2.16-2-R, 2.16-2-next] R counts down while positive, the next seat acts, and the
    turn counter grows.  Returns R, C and the turns."""
    return remaining - (remaining > 0), t.next_seat[current], turns + 1


def stopping(t: Tables, remaining: Ints, fields: Ints) -> tuple[Bools, Ints]:
    """[2.16-3, 2.16-3-strikeout, 2.16-3-R0, 2.16-3-max] a game stops after the last
    allowed error (R = -1), when R reaches 0, or with every field complete; decided
    before the draw, so the final move draws nothing [R-3].  Returns which games stop
    and their fields' sum."""
    totals = fields.sum(axis=1)
    return (remaining == -1) | (remaining == 0) | (totals == t.max_score), totals


def drawn_cards(decks: Ints, next_card: Ints, games: Ints) -> Ints:
    """[2.16-2b-draw, 2.16-2c-draw, R-2] the top card of the stack of each of ``games``,
    which joins its mover's hand as the last card, knowing every identity (hands are full
    while the stack lasts, so after :func:`hands_after_taking` that is slot h - 1)."""
    return decks[games, next_card[games]]


def last_round(t: Tables, remaining: Ints, stop: Bools, next_card: Ints) -> Ints:
    """[2.16-3-last-round] R := p in a game going on whose stack has just run out."""
    return np.where(~stop & (remaining == INFINITE) & (next_card == t.deck_size), t.players, remaining)


def rewards(remaining: Ints, totals: Ints, scores: Ints) -> tuple[Floats, Ints]:
    """[RL-reward, 2.16-3-strikeout] the change of each game's score (0 after the last
    error).  Returns the rewards and the scores."""
    score = np.where(remaining == -1, 0, totals)
    return (score - scores).astype(np.float32), score


def last_action_sections(t: Tables, chosen: Ints, move: Ints, hinting: Bools, touched: Bools, card: Ints,
                         success: Bools, token: Bools) -> Floats:
    """[RL-last-action] the last-action sections as the next seat sees them, with one
    column more that writes with no effect land in: actor p - 1 (the mover is the seat
    before the observer), the move type, for a hint its target (offset - 1), colour or
    rank and the touched slots, for a play or discard its slot and card, whether a play
    scored and whether it gave a token back (only a completed suit played below t0
    does)."""
    at, start, nothing = t.at, t.at.actor, t.last_width
    last = np.zeros((t.n, t.last_width + 1), np.float32)
    cells = np.empty((t.n, 6), np.int64)
    cells[:, 0] = t.players - 1
    cells[:, 1] = at.move_type - start + move
    cells[:, 2] = t.where_of[chosen]
    cells[:, 3] = t.what_of[chosen] + np.where(hinting, 0, card)
    cells[:, 4] = np.where(success, at.scored - start, nothing)
    cells[:, 5] = np.where(token, at.token - start, nothing)
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
    """[2.13-hand-size] a hand holds h cards, or h - 1 once the stack is empty, and its
    cards fill the first slots: the last slot alone tells the size."""
    sizes: Ints = t.hand_size - (hands[:, :, t.hand_size - 1] < 0)
    return sizes


def observations(t: Tables, seats: Ints, others: Ints, sizes: Ints, next_card: Ints, fields: Ints, hints: Ints,
                 errors: Ints, pile_bits: Floats, last: Floats, know: Floats) -> Floats:
    """The ``canonical`` observation of each game's acting seat [RL-canonical], from the
    rows of its seats (:func:`observer_rows`), the other seats' cards, the hand sizes and
    the board: RL-hands, RL-missing, RL-deck, RL-fireworks, RL-tokens, RL-discards,
    RL-last-action and RL-knowledge."""
    n, p, h, b, at = t.n, t.players, t.hand_size, t.identities, t.at
    out = np.zeros((n, t.length), np.float32)
    # [RL-hands] the others' cards one-hot; an empty slot writes 0 to its first cell
    np.put(out, t.row_starts[:, None, None] + t.hand_cells + np.maximum(others, 0), others >= 0)
    out[:, at.missing:at.missing + p] = sizes.reshape(n * p)[seats] < h
    out[:, at.deck:at.deck + len(t.deck_range)] = t.deck_range < (t.deck_size - next_card)[:, None]
    out[:, at.fireworks:at.fireworks + b] = (t.fire_range == fields[:, :, None] - 1).reshape(n, b)
    out[:, at.information:at.information + len(t.info_range)] = t.info_range < hints[:, None]
    out[:, at.lives:at.lives + t.lives] = t.life_range < (t.lives - errors)[:, None]
    out[:, at.discards:at.actor] = pile_bits[:, :t.deck_size]
    out[:, at.actor:at.cards] = last[:, :t.last_width]
    # [RL-knowledge] the knowledge rows of every seat, observer first
    out[:, at.cards:] = know.reshape(n * p, h * t.per_card)[seats].reshape(n, p * h * t.per_card)
    return out


def legal_masks(t: Tables, sizes: Ints, others: Ints, current: Ints, hints: Ints) -> Mask:
    """[RL-mask, 2.16-2] the plain mask of each game's acting seat: discards (not with
    every token), plays, and hints touching a card of their target, while a token is
    left [PE-hle-empty-hints, PE-hle-discard-max]."""
    n, h, c, p = t.n, t.hand_size, t.colours, t.players
    mask = np.zeros((n, t.actions), np.int8)
    holds = t.slot_range < sizes[t.rows, current][:, None]
    mask[:, :h] = holds & (hints < t.max_hints)[:, None]
    mask[:, h:2 * h] = holds
    keys = t.touch_bits[others[:, :, 0]]
    for slot in range(1, h):
        keys |= t.touch_bits[others[:, :, slot]]
    touched = (keys[:, :, None] >> t.bit_range) & (hints > 0)[:, None, None]
    mask[:, 2 * h:2 * h + (p - 1) * c] = touched[:, :, :c].reshape(n, (p - 1) * c)
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
    h) card identities (-1: no card; slot 0 the oldest), ``fields`` (n, k), ``hints``,
    ``errors``, ``current``, ``turns``, ``remaining`` (-2 for infinity) and ``scores``
    (n,).  They are the environment's own arrays: read them, do not write them.  The
    class holds them and applies what the module's functions compute, in the order of
    Algorithm 2.16."""

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
        self._know = np.zeros((n, p, h, t.per_card), np.float32)
        self.fields = np.zeros((n, t.colours), np.int64)
        self._piles = np.zeros((n, t.identities), np.int64)
        # [RL-discards] the pile's thermometers as the vector holds them, one column more
        self._pile_bits = np.zeros((n, t.deck_size + 1), np.float32)
        self.hints, self.errors, self.current, self.turns, self.remaining, self.scores = (
            np.zeros(n, np.int64) for _ in range(6))
        self._last = np.zeros((n, t.last_width + 1), np.float32)
        self._mask = np.zeros((n, t.actions), np.int8)

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
        t, first = self._tables, self._next_seed
        decks = self._decks_for(count)
        dealt = t.players * t.hand_size
        self.seeds[games] = np.arange(first, first + count, dtype=np.uint64)
        self._decks[games] = decks
        self._next[games] = dealt
        self.hands[games] = decks[:, :dealt].reshape(count, t.players, t.hand_size)
        self._know[games] = t.fresh
        self.fields[games] = 0
        self._piles[games] = 0
        self._pile_bits[games] = 0
        self.hints[games] = t.max_hints
        self.errors[games] = 0
        self.current[games] = 0
        self.turns[games] = 0
        self.remaining[games] = t.players if dealt == t.deck_size else INFINITE
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
        others = self.hands.reshape(t.n * t.players, t.hand_size)[seats[:, 1:]]
        observation = observations(t, seats, others, sizes, self._next, self.fields, self.hints, self.errors,
                                   self._pile_bits, self._last, self._know)
        self._mask = legal_masks(t, sizes, others, self.current, self.hints)
        return observation, self._mask.copy()

    def _checked(self, actions: npt.ArrayLike) -> Ints:
        """The actions as int64, or :class:`RLError` ``RL-illegal`` naming the first game
        whose action is illegal and the rule that forbids it [RL-illegal]."""
        if not self._ready:
            raise RLError("RL-batch", "reset() deals the games; call it before step()")
        t = self._tables
        chosen = action_indices(t, actions)
        legal = self._mask[t.rows, chosen]
        if not legal.all():
            game = int(np.argmin(legal))
            raise RLError("RL-illegal", illegality(self.config, self.hands[game], int(self.hints[game]),
                                                   int(self.current[game]), game, int(chosen[game])))
        return chosen

    def step(self, actions: npt.ArrayLike) -> tuple[Floats, Mask, Floats, Bools]:
        """Apply one plain action in every game: the action's step (2a, 2b or 2c), the end
        of the move, step 3, and the draw unless the move ends the game [2.16-2, 2.16-3,
        R-3].  Returns the acting seats' observations and masks, each game's reward (the
        change of its score, RL-reward) and whether it ended; a game that ended is dealt
        the next seed at once, and its observation and mask are the new game's first
        [RL-batch].  An illegal action in any game raises ``RL-illegal`` before any game
        changes [RL-illegal]."""
        chosen = self._checked(actions)
        t, cur = self._tables, self.current
        hand_rows = self.hands.reshape(t.n * t.players, t.hand_size)
        know_rows = self._know.reshape(t.n * t.players, t.hand_size, t.per_card)
        mover_rows = t.seat_rows + cur
        move = t.move_of[chosen]
        hinting, discarding, playing = move >= REVEAL_COLOUR, move == DISCARD, move == PLAY
        # ---- 2a
        target_rows, known, touched = hint_outcomes(t, self.hands, self._know, cur, chosen, np.nonzero(hinting)[0])
        know_rows[target_rows] = known
        # ---- 2b, 2c
        slot = t.slot_of[chosen]
        card = hand_rows[mover_rows, slot]
        self.fields, success = fields_after_plays(t, self.fields, card, playing)
        failure = playing & ~success
        self.hints, token = tokens_after_moves(t, self.hints, hinting, discarding,
                                               success & (t.rank_of[card] == t.ranks - 1))
        self.errors, self.remaining = errors_after_plays(t, self.errors, self.remaining, failure)
        self._piles, pile_cells = piles_after_moves(t, self._piles, card, discarding | failure)
        np.put(self._pile_bits, pile_cells, 1)
        moving = np.nonzero(~hinting)[0]
        if len(moving):
            rows = mover_rows[moving]
            hand_rows[rows], know_rows[rows] = hands_after_taking(t, self.hands, self._know, rows, slot[moving])
        # ---- end of the move, then step 3 before the draw
        self.remaining, self.current, self.turns = end_of_move(t, self.remaining, cur, self.turns)
        stop, totals = stopping(t, self.remaining, self.fields)
        drawing = np.nonzero(~hinting & ~stop & (self._next < t.deck_size))[0]
        if len(drawing):
            rows = mover_rows[drawing]
            hand_rows[rows, t.hand_size - 1] = drawn_cards(self._decks, self._next, drawing)
            know_rows[rows, t.hand_size - 1] = t.fresh
            self._next[drawing] += 1
        self.remaining = last_round(t, self.remaining, stop, self._next)
        reward, self.scores = rewards(self.remaining, totals, self.scores)
        self._last = last_action_sections(t, chosen, move, hinting, touched, card, success, token)
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
    and the move (chance nodes dealt by their probabilities); the whole loop is timed,
    the choice of actions (Python's ``random``) included.  ``observer``: read the
    observation through OpenSpiel's faster observer buffer (``make_observation``,
    ``set_from``) instead of ``observation_tensor``."""
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
