"""What the batch environment plays, and the constant tables it plays with [RL-batch,
RL-layout, RL-plain].

:func:`batch_unsupported` says which configurations :class:`~hanabi_ref.tools.rl.batch.BatchEnv`
plays: every rule preset's options (spec/rules.md P-presets) on a deck of *classic
touch*, the only touch the ``canonical`` encoding holds [RL-configs].  :class:`Tables` is
the frozen record of one configuration's constant arrays (:func:`batch_tables`), and
:func:`shuffled_decks` deals ``deck_from_seed``'s decks as one array.
"""

from __future__ import annotations

import functools
from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Hint, Play
from hanabi_ref.engine.cards import rank_table, suit_table
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.variants.ruleset import THESIS
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.encoders import DISCARD, PLAY, REVEAL_COLOUR, REVEAL_RANK, Offsets, offsets
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import Dims, layout

Bytes = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]
Mask = npt.NDArray[np.int8]

MAX_KEY_BITS: Final = 16
"""The most kinds of hint (c + r, a bit each in a hand's touch key) the batch plays: it
keeps a table of 2^(c + r) + 1 rows, one per touch key and one for no token."""

INFINITE: Final = -2
"""R = infinity (the engine's ``remaining = None``) in the array of R [2.16-2-R]."""

EMPTY: Final = -1
"""A slot without a card in the array of hands."""


# ---------------------------------------------------------------- what it plays [RL-batch]


def batch_unsupported(config: GameConfig) -> str | None:
    """Why :class:`~hanabi_ref.tools.rl.batch.BatchEnv` cannot play ``config``, as one
    line, or None [RL-batch].

    It plays every value of the rule options but two whose moves the plain action space
    has no index for (a hint to one's own hand, ``self_hints``; the stack's last card
    played unseen, ``deck_plays``), with at least two players, on a deck of classic touch
    (:func:`classic_touch_problem`) with at most :data:`MAX_KEY_BITS` kinds of hint; and
    no game may end on its deal (then it would have no first observation)."""
    options = config.options
    if options.self_hints:
        return "self_hints=True: the plain action space has no hint to one's own hand (RL-plain)"
    if options.deck_plays:
        return "deck_plays=True: the plain action space has no play of the stack's last card (RL-plain)"
    if config.players < 2:
        return f"the batch environment needs at least 2 players, not {config.players}"
    problem = classic_touch_problem(config)
    if problem is not None:
        return problem
    try:
        Dims.of(config)
    except RLError as error:
        return str(error)
    if len(config.colours) + config.values > MAX_KEY_BITS:
        return (f"{len(config.colours)} colours and {config.values} ranks: the batch environment plays at most "
                f"{MAX_KEY_BITS} kinds of hint (c + r)")
    return deal_end_problem(config)


def classic_touch_problem(config: GameConfig) -> str | None:
    """Why ``config``'s hints do not touch classically, or None [RL-batch, RL-configs,
    2.16-2a-value, 2.16-2a-suit]: clue colour i touches the cards of suit i and no
    other, rank clue a (for a = 1 .. n, every one offered) the cards of value a, no clue
    is legal touching nothing (VAR-blind), and the stacks are the thesis' (built from 1
    up, play and discard not swapped: not Up or Down, not Orange)."""
    tables = tables_for(config)
    n, k = config.values, config.suit_count
    suits = tuple(((1 << n) - 1) << (suit * n) for suit in range(k))
    why = None
    if tables.colour_masks != suits:
        why = "a clue colour touches other cards than its own suit's"
    elif tables.clue_values != tuple(range(1, n + 1)) or tables.value_masks != tables.rank_masks:
        why = "the rank clues are not 1 to n, each touching the cards of its value"
    elif tables.free_hint_bits:
        why = "a clue is legal touching no card"
    elif tables.rule_set is not THESIS:
        why = "its stacks are not built from 1 up with the thesis' play and discard"
    if why is None:
        return None
    return (f"variant {config.variant!r}: the batch environment plays classic touch only (each clue colour touching "
            f"its own suit, each rank clue its value): {why}")


def deal_end_problem(config: GameConfig) -> str | None:
    """Why a game of ``config`` may end on its deal, or None [E-6, R-1, R-4]: step 3 after
    step 1 stops it under ``end_when_no_points_possible`` when the deck has no 1, and under
    ``end_when_nothing_playable`` when the deal takes the whole deck."""
    options = config.options
    if not options.initial_stop_check:
        return None
    if options.end_when_no_points_possible and all(suit.counts[0] == 0 for suit in config.suits):
        return "end_when_no_points_possible with no 1 in the deck ends every game on its deal"
    if options.end_when_nothing_playable and tables_for(config).deck_size == config.players * config.hand_size:
        return "end_when_nothing_playable with a deal that takes the whole deck may end a game on its deal"
    return None


# ---------------------------------------------------------------- the constant tables [RL-layout, RL-plain]


@attrs.frozen(eq=False)
class Tables:
    """The constant tables of one configuration played by n games at once: its dimensions,
    rule options and section starts, each identity's colour and rank and which hints
    touch it (with an entry for "no card" at index b, which index -1 reaches), its
    one-hot and the knowledge a card brings into a slot, the seats of the vector, the rows of the games in
    the flat views of the arrays, and the decoding of each plain action.  Built once by
    :func:`batch_tables`; its arrays are never written [RL-layout, RL-plain]."""

    n: int
    players: int
    hand_size: int
    colours: int
    ranks: int
    identities: int
    deck_size: int
    per_card: int
    """W = B + c + r, the values of one card in RL-knowledge"""
    lives: int
    max_hints: int
    max_errors: int | None
    max_score: int
    actions: int
    """A, the size of the plain action space [RL-plain]"""
    length: int
    """L, the length of a ``canonical`` observation [RL-layout]"""
    at: Offsets
    # the rule options [P-options]
    empty_hints: bool
    discard_at_max_hints: bool
    strikeout_scores_fireworks: bool
    end_when_no_points_possible: bool
    end_when_nothing_playable: bool
    draw_after_final_move: bool
    newest_first: bool
    initial_stop_check: bool
    deal_order: Ints
    """the deck positions dealt to seat s, slot j: deal_order[s * h + j] [2.16-1-deal, R-2]"""
    # the identities [2.16-2a-value, 2.16-2a-suit]
    colour_of: Ints
    rank_of: Ints
    counts: Ints
    """copies of each identity [2.9-cards]"""
    touches: Bools
    """touches[q, x]: hint q (colour q for q < c, rank q - c otherwise) touches identity x"""
    hint_keeps: Bytes
    """hint_keeps[2 q + hit]: the values of a card's RL-knowledge row that hint q keeps (ANDed
    in): the identities it touches when it touched the card (hit = 1), the others when
    not; every revealed bit"""
    hint_reveals: Bytes
    """hint_reveals[2 q + hit]: the revealed bit hint q sets (ORed in) when it touched the card"""
    touch_bits: Ints
    """bit q of touch_bits[x]: hint q touches identity x (a hand's key is their OR)"""
    hints_of_key: Mask
    """hints_of_key[key, q]: 1 when hint q (colours, then ranks) may be given to a hand
    whose touch key is ``key``: when it touches one of its cards, or always where the
    rules allow empty hints [2.16-2a-empty]; its last row, key 2^(c + r), is all 0: no
    hint token left [2.16-2b-token]"""
    no_token: int
    """2^(c + r), the row of :attr:`hints_of_key` read without a hint token"""
    moves_of_size: Mask
    """[RL-mask, 2.16-2b-token] moves_of_size[2 s + below]: the discards and plays of a
    seat holding s cards, discards only below t0 (below = 1) unless the rules allow one
    with every token"""
    one_hots: Bytes
    """one_hots[x]: identity x as RL-hands writes it; one_hots[b], reached by -1: no card"""
    fresh: Bytes
    """the RL-knowledge row of a card just dealt or drawn: every identity, nothing revealed"""
    # the seats, the rows and the sections
    rotations: Ints
    """seats of the vector, observer first: rotations[C] = (C, C + 1, ...) mod p"""
    next_seat: Ints
    rows: Ints
    seat_rows: Ints
    pile_rows: Ints
    last_rows: Ints
    slot_range: Ints
    fire_range: Ints
    deck_bits: Bytes
    """[RL-deck] deck_bits[v]: the section for v cards left in the stack (a thermometer)"""
    fire_bits: Bytes
    """[RL-fireworks] fire_bits[f]: one suit's part of the section for field f (one-hot of
    f - 1; nothing for 0)"""
    info_bits: Bytes
    """[RL-tokens] info_bits[t]: the section for t hint tokens (a thermometer)"""
    life_bits: Bytes
    """[RL-tokens] life_bits[v]: the section for v life tokens left (a thermometer)"""
    pile_starts: Ints
    """[RL-discards] where each identity's thermometer starts in the pile's section"""
    last_width: int
    # the plain actions, decoded for seat 0 (plain_decoding)
    move_of: Ints
    slot_of: Ints
    kind_of: Ints
    target_of: Ints
    """target_of[C, a]: the seat action a of seat C hints (C itself when not a hint)"""
    last_cells: Ints
    """[RL-last-action] last_cells[a]: the cells of the last-action sections action a
    sets whatever its outcome, counted from the actor section: the actor p - 1, its move
    type, its target or position, and its colour, rank or the start of the card section
    (to which the card is added); then twice the extra column (where the score and token
    bits land when not set)"""


def batch_tables(config: GameConfig, n: int) -> Tables:
    """The constant tables of ``config`` for ``n`` games [RL-layout, 2.16-2a-value,
    2.16-2a-suit]: under classic touch a colour hint touches the identities of its suit,
    a rank hint those of its rank (RL-configs, :func:`classic_touch_problem`)."""
    lay = layout("canonical", config)
    dims, at, options = lay.dims, offsets(lay), config.options
    p, h, c, r, b = config.players, config.hand_size, dims.colours, dims.ranks, dims.identities
    deck, width = tables_for(config).deck_size, b + c + r
    colour_of = np.append(suit_table(r, b), EMPTY).astype(np.int64)
    rank_of = np.append(rank_table(r, b), EMPTY).astype(np.int64)
    touches = np.zeros((c + r, b + 1), np.bool_)
    touches[colour_of[:b], np.arange(b)] = True
    touches[c + rank_of[:b], np.arange(b)] = True
    touch_bits = (touches.astype(np.int64) << np.arange(c + r)[:, None]).sum(axis=0)
    fresh = np.zeros(width, np.uint8)
    fresh[:b] = 1
    hint_keeps = np.ones((c + r, 2, width), np.uint8)
    hint_keeps[:, 1, :b] = touches[:, :b]
    hint_keeps[:, 0, :b] = ~touches[:, :b]
    hint_reveals = np.zeros((c + r, 2, width), np.uint8)
    hint_reveals[np.arange(c + r), 1, b + np.arange(c + r)] = 1
    rows, last_width = np.arange(n), at.cards - at.actor
    rotations = (np.arange(p)[:, None] + np.arange(p)) % p
    decoded = plain_decoding(config, at, c)
    return Tables(
        n=n, players=p, hand_size=h, colours=c, ranks=r, identities=b, deck_size=deck, per_card=width,
        lives=dims.lives, max_hints=config.max_hints, max_errors=config.max_errors,
        max_score=tables_for(config).max_score, actions=plain_actions(config).size, length=lay.size, at=at,
        empty_hints=options.empty_hints, discard_at_max_hints=options.discard_at_max_hints,
        strikeout_scores_fireworks=options.strikeout_score == "fireworks",
        end_when_no_points_possible=options.end_when_no_points_possible,
        end_when_nothing_playable=options.end_when_nothing_playable,
        draw_after_final_move=options.draw_after_final_move, newest_first=options.draw_position == "newest-first",
        initial_stop_check=options.initial_stop_check,
        deal_order=np.array([card for hand in tables_for(config).dealt_hands for card in hand], np.int64),
        colour_of=colour_of, rank_of=rank_of, counts=np.array(dims.counts, np.int64), touches=touches,
        hint_keeps=hint_keeps.reshape(2 * (c + r), width), hint_reveals=hint_reveals.reshape(2 * (c + r), width), touch_bits=touch_bits,
        hints_of_key=hints_of_key(c + r, options.empty_hints), no_token=1 << (c + r),
        moves_of_size=moves_of_size(h, options.discard_at_max_hints),
        one_hots=np.eye(b + 1, b, dtype=np.uint8), fresh=fresh,
        rotations=rotations, next_seat=rotations[:, 1 % p], rows=rows, seat_rows=rows * p,
        pile_rows=rows * (deck + 1), last_rows=rows * (last_width + 1), slot_range=np.arange(h),
        fire_range=np.arange(r), deck_bits=thermometers(max(0, deck - p * h)),
        fire_bits=np.eye(r + 1, r, -1, dtype=np.uint8), info_bits=thermometers(dims.max_hints),
        life_bits=thermometers(dims.lives),
        pile_starts=np.append(np.cumsum(dims.counts) - dims.counts, 0).astype(np.int64), last_width=last_width,
        move_of=decoded[0], slot_of=decoded[1], kind_of=decoded[2],
        target_of=decoded[5], last_cells=last_cells(decoded, at, p, last_width))


def thermometers(width: int) -> Bytes:
    """Row v: a thermometer of ``width`` values, the first v set (v = 0 .. width); read
    with ``mode="clip"``, a v below 0 reads row 0 and one above ``width`` the last row, as
    the comparison ``range(width) < v`` would set them [RL-deck, RL-tokens]."""
    table: Bytes = np.tri(width + 1, width, -1, dtype=np.uint8)
    return table


def hints_of_key(kinds: int, empty_hints: bool) -> Mask:
    """The table :attr:`Tables.hints_of_key` for ``kinds`` = c + r hints, and its last row
    for no token [2.16-2a-empty, 2.16-2b-token]."""
    keys = np.arange(1 << kinds)[:, None]
    table: Mask = np.zeros(((1 << kinds) + 1, kinds), np.int8)
    table[:-1] = 1 if empty_hints else keys >> np.arange(kinds) & 1
    return table


def moves_of_size(hand_size: int, discard_at_max_hints: bool) -> Mask:
    """The table :attr:`Tables.moves_of_size` [RL-mask, 2.16-2b-token]: row 2 s + below,
    the h discards then the h plays of a hand of s cards (a slot is legal when it holds a
    card), the discards only when below is 1 unless ``discard_at_max_hints``."""
    holds = np.arange(hand_size) < np.arange(hand_size + 1)[:, None]
    table: Mask = np.zeros((2 * (hand_size + 1), 2 * hand_size), np.int8)
    table[0::2, :hand_size] = holds & discard_at_max_hints
    table[1::2, :hand_size] = holds
    table[:, hand_size:] = np.repeat(holds, 2, axis=0)
    return table


def last_cells(decoded: tuple[Ints, Ints, Ints, Ints, Ints, Ints], at: Offsets, players: int,
               last_width: int) -> Ints:
    """The table :attr:`Tables.last_cells` from :func:`plain_decoding`'s columns [RL-last-action]."""
    move_of, where_of, what_of = decoded[0], decoded[3], decoded[4]
    table = np.empty((len(move_of), 6), np.int64)
    table[:, 0] = players - 1
    table[:, 1] = at.move_type - at.actor + move_of
    table[:, 2] = where_of
    table[:, 3] = what_of
    table[:, 4:] = last_width
    return table


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


# ---------------------------------------------------------------- the decks [D-seed]


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


@functools.lru_cache(maxsize=64)
def draw_bounds(size: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The bounds of Fisher-Yates' draws for a deck of ``size`` cards (size, size - 1,
    ..., 2) and the threshold of each (:func:`rejection_thresholds`), made once per size;
    read-only."""
    bounds = np.arange(size, 1, -1)
    pair = bounds.astype(np.uint64), rejection_thresholds(size)[bounds]
    for array in pair:
        array.flags.writeable = False
    return pair


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
    bounds, thresholds = draw_bounds(size)
    rejected = (z > thresholds).any(axis=1)
    chosen = (z % bounds).astype(np.int64)
    decks = np.repeat(canonical[None, :], count, axis=0)
    cards, starts = decks.ravel(), np.arange(count) * size  # the decks flat, each row's start
    for draw, index in enumerate(range(size - 1, 0, -1)):
        other, here = starts + chosen[:, draw], starts + index
        held = np.take(cards, other)
        cards[other] = np.take(cards, here)
        cards[here] = held
    for row in np.flatnonzero(rejected):
        decks[row] = deck_from_seed(config, first + int(row))
    return decks
