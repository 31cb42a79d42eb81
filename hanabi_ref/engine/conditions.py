"""The spec's conditions on a move, checked with contracts on [2.16-2, 2.16-3].

Each :class:`Postcondition` is a second, independent reading of one clause of
``spec/rules.md``: it compares the state before a move, the action and the state after
it, and it is written from the clause's text, not from the helpers the engine's steps
call (a bug in a helper must not pass its own check).  :func:`check_move` runs the ones
that apply to the action after every :func:`~hanabi_ref.engine.transition.apply_legal`, and the
state's invariants (:mod:`hanabi_ref.engine.state`) are checked once, on the result, when it is
built.  A failed condition raises :class:`icontract.ViolationError` whose message starts
with the clause id: a violation is a bug in hanabi_ref, never a user's mistake.

These checks are written by hand rather than as ``icontract.ensure`` decorators because
icontract's wrapper costs several microseconds per condition and per call, more than
the move itself; the switch (``HANABI_REF_CONTRACTS``) and the error are icontract's.
tests/test_conditions.py feeds every condition a tampered result and expects it to fire.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import attrs
import icontract

from hanabi_ref.engine.actions import Action, Discard, Hint, Play, describe
from hanabi_ref.engine.cards import CardId, Identity, suit_of, value_of
from hanabi_ref.engine.legality import illegality
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.validation import VARIANT_NAMES, variant_model
from hanabi_ref.engine.state import GameState, entry_after
from hanabi_ref.engine.variants.engine import engine_values
from hanabi_ref.engine.variants.model import START_RANK
from hanabi_ref.engine.variants.touch import touches_colour, touches_rank

CLASSIC_NAMES = frozenset(VARIANT_NAMES.values())
"""The variants named before the model, whose hints 2.16-2a-value and 2.16-2a-suit
describe as written."""

Check = Callable[["Reading"], bool]


@attrs.frozen
class Postcondition:
    """One clause's condition on a move: ``check(reading)`` of the move's
    :class:`Reading`; :meth:`holds` asks it of a move given as its three parts."""

    clause: str
    text: str
    kinds: tuple[type, ...]
    check: Check

    @property
    def message(self) -> str:
        """The violation message: the clause id, then what the clause says."""
        return f"{self.clause}: {self.text}"

    def holds(self, state: GameState, action: Action, result: GameState) -> bool:
        """Whether the move from ``state`` by ``action`` to ``result`` keeps this clause."""
        return self.check(read_move(state, action, result))


# ------------------------------------------------------------ the clauses' own sets


def _identities_of_value(config: GameConfig, value: int) -> set[int]:
    """{(a, y) : y = 1, ..., k} of 2.16-2a-value, as identities (suit * n + a - 1)."""
    return {suit * config.values + value - 1 for suit in range(len(config.suits))}


def _identities_of_colour(config: GameConfig, colour: int) -> set[int]:
    """{(x, y) : y in T} of 2.16-2a-suit, T the suits the clue colour touches."""
    return {
        suit * config.values + value
        for suit, described in enumerate(config.suits)
        if colour in described.touched_by
        for value in range(config.values)
    }


def _bits(identities: set[int]) -> int:
    mask = 0
    for identity in identities:
        mask |= 1 << identity
    return mask


@functools.lru_cache(maxsize=1024)
def _named(config: GameConfig, kind: str, value: int) -> tuple[frozenset[int], int]:
    """The identities a hint names (2.16-2a-value or 2.16-2a-suit) and their bitmask,
    worked out once per configuration and hint.

    Memoized here rather than on the game's :class:`~hanabi_ref.engine.tables.Tables`:
    this is the contracts' own reading of the clause, which must not read the engine's
    tables.  The key is an immutable configuration (frozen, its hash computed once) and a
    hint, the value frozen; at most 1,024 entries, so nothing of a game is kept and the
    memo cannot grow without bound."""
    if variant_model(config.variant) is not None and config.variant not in CLASSIC_NAMES:
        named = set(_identities_by_model(config.variant, kind, value))
    else:  # 2.16-2a as written; for the four older variants the model agrees (VAR-existing)
        named = _identities_of_value(config, value) if kind == "value" else _identities_of_colour(config, value)
    return frozenset(named), _bits(named)


@functools.lru_cache(maxsize=4096)
def _identities_by_model(name: str, kind: str, value: int) -> frozenset[int]:
    """[VAR-touch] the identities a hint touches under the hanab.live variant ``name``,
    card by card from the touch rules (the engine reads bitmasks built once,
    VAR-engine-masks); once per variant and hint, however many configurations name it
    (a name and two small values as the key, a frozen set as the value, at most 4,096)."""
    variant = variant_model(name)
    assert variant is not None
    values = engine_values(variant)
    # [VAR-engine-up-or-down] the sixth value is the START card, the model's rank 7.
    ranks = {v: START_RANK if v == 6 else v for v in range(1, values + 1)}
    if kind == "colour":
        return frozenset(suit * values + v - 1 for suit in range(len(variant.suits)) for v in ranks
                         if touches_colour(variant, suit, ranks[v], value))
    return frozenset(suit * values + v - 1 for suit in range(len(variant.suits)) for v in ranks
                     if value in variant.clue_ranks and touches_rank(variant, suit, ranks[v], value))


def _is_deck_play(state: GameState, action: Action) -> bool:
    """[R-deck-plays] slot h' (one past the hand) is the stack's last card: a play of it,
    or, for an orange card, the discard that play is carried out as (VAR-engine-orange)."""
    return (state.config.options.deck_plays and isinstance(action, (Play, Discard))
            and action.slot == len(state.hands[state.current_player]))


def _acted_card(state: GameState, action: Action) -> CardId:
    """The id of the card a play or discard names: slot h' (legal only as a deck play,
    R-deck-plays) is the stack's last card."""
    hand, slot = state.hands[state.current_player], action.slot  # type: ignore[union-attr]
    return CardId(state.next_card) if slot == len(hand) else hand[slot]


def _without_slot(cards: tuple[int, ...], slot: int) -> tuple[int, ...]:
    return cards[:slot] + cards[slot + 1 :]


# ------------------------------------------------------------ the move as the clauses read it


class Reading:
    """One move as its conditions read it [CT-move]: the state before it, the action and
    the result, and what the clauses ask of the action, worked out once from the state
    before the move for all the move's conditions (each of which used to work it out
    again): for a hint, the identities it names and their bitmask (2.16-2a-value,
    2.16-2a-suit); for a play or a discard, the card's id and identity, its suit and
    value, the height of its suit's stack, whether it fits that stack (the test of
    2.16-2c-success), whether it is the stack's last card played unseen (R-deck-plays)
    and whether it is orange (VAR-engine-orange).  Nothing of it is read from the result
    or from the engine's helpers, so every condition stays a reading of its clause.

    ``action`` is the step the conditions check: :func:`check_move` replaces an orange
    card's discard with a play of it, and its play with a discard."""

    __slots__ = ("state", "action", "result", "named", "mask", "card_id", "card", "suit", "value", "height",
                 "fits", "deck_play", "inverted")

    state: GameState
    action: Action
    result: GameState
    named: frozenset[int]
    mask: int
    card_id: CardId
    card: Identity
    suit: int
    value: int
    height: int
    fits: bool
    deck_play: bool
    inverted: bool


_NOTHING: frozenset[int] = frozenset()


def read_move(state: GameState, action: Action, result: GameState) -> Reading:
    """The :class:`Reading` of the move from ``state`` by ``action`` to ``result``."""
    reading = Reading()
    reading.state, reading.action, reading.result = state, action, result
    reading.named, reading.mask, reading.deck_play, reading.inverted = _NOTHING, 0, False, False
    if isinstance(action, Hint):
        reading.named, reading.mask = _named(state.config, action.kind, action.subject)
    elif isinstance(action, (Discard, Play)):
        card_id = _acted_card(state, action)
        config, card = state.config, state.deck[card_id]
        suit, rank = divmod(card, config.values)  # [2.9-cards] suit * n + value - 1
        value = rank + 1
        reading.card_id, reading.card, reading.suit, reading.value = card_id, card, suit, value
        reading.height, reading.fits = _height_and_fit(state, suit, value)
        reading.deck_play = _is_deck_play(state, action)
        # [VAR-engine-orange] the variant model's orange suits, read here without the
        # rule set the steps ask (without orange suits the mask is 0)
        reading.inverted = bool(state.tables.inverted_mask >> card & 1)
    return reading


# ------------------------------------------------------------ 2a


def _hint_value_holds(m: Reading) -> bool:
    """[2.16-2a-value] a value hint on a: K_c := K_c with {(a, y)} kept if c has value
    a, removed otherwise; no other K changes."""
    assert isinstance(m.action, Hint)
    return m.action.kind != "value" or _knowledge_updated(m)


def _hint_colour_holds(m: Reading) -> bool:
    """[2.16-2a-suit] a colour hint touching the suits T: K_c := K_c with {(x, y) : y in
    T} kept if c's suit is in T, removed otherwise; no other K changes."""
    assert isinstance(m.action, Hint)
    return m.action.kind != "colour" or _knowledge_updated(m)


def _knowledge_updated(m: Reading) -> bool:
    state, hint, result = m.state, m.action, m.result
    assert isinstance(hint, Hint)
    before_all, after_all, target = state.knowledge, result.knowledge, hint.target
    if len(after_all) != len(before_all):
        return False
    for seat, before in enumerate(before_all):
        after = after_all[seat]
        if seat != target and after is not before and after != before:
            return False
    old_known, new_known = before_all[target], after_all[target]
    if len(old_known) != len(new_known):
        return False
    named, mask, deck = m.named, m.mask, state.deck
    for card_id, old, new in zip(state.hands[target], old_known, new_known):
        if new != (old & mask if deck[card_id] in named else old & ~mask):
            return False
    return True


def _hint_cost_holds(m: Reading) -> bool:
    """[2.16-2a-cost] t := t - 1; no card moves."""
    state, result = m.state, m.result
    return (
        result.clue_tokens == state.clue_tokens - 1
        and (result.hands is state.hands or result.hands == state.hands)
        and result.next_card == state.next_card
        and (result.discard is state.discard or result.discard == state.discard)
        and (result.played is state.played or result.played == state.played)
        and (result.fireworks is state.fireworks or result.fireworks == state.fireworks)
        and result.strikes == state.strikes
    )


# ------------------------------------------------------------ 2b


def _discard_pile_holds(m: Reading) -> bool:
    """[2.16-2b-discard] D := (d_1, ..., d_M, a); a leaves the hand; F and f stay."""
    state, result = m.state, m.result
    return (
        result.discard == state.discard + (m.card_id,)
        and (result.played is state.played or result.played == state.played)
        and (result.fireworks is state.fireworks or result.fireworks == state.fireworks)
        and result.strikes == state.strikes
    )


def _discard_token_holds(m: Reading) -> bool:
    """[2.16-2b-token] t := t + 1 if t < t0, else t stays."""
    before = m.state.clue_tokens
    return m.result.clue_tokens == (before + 1 if before < m.state.config.max_hints else before)


# ------------------------------------------------------------ 2c


def _suit_and_value(config: GameConfig, card: Identity) -> tuple[int, int]:
    return suit_of(card, config.values), value_of(card, config.values)


def _fits(state: GameState, suit: int, value: int) -> bool:
    """[2.16-2c-success, VAR-engine-up-or-down] the stack of ``suit`` with a card of
    ``value`` on it is the start of a complete stack of the rule set
    (:meth:`~hanabi_ref.engine.variants.ruleset.RuleSet.ways`): under the thesis F[x] =
    (1, ..., y - 1), under Up or Down one of its four ways."""
    return _height_and_fit(state, suit, value)[1]


def _height_and_fit(state: GameState, suit: int, value: int) -> tuple[int, bool]:
    """The height of the stack of ``suit`` and whether a card of ``value`` fits on it
    (:func:`_fits`)."""
    ways = state.tables.stack_ways
    if len(ways) == 1:
        # one complete stack (the thesis'): the stack is its first F[x] values [2.13-4],
        # so the card fits when it is the value after them
        way, height = ways[0], state.fireworks[suit]
        return min(height, len(way)), height < len(way) and way[height] == value
    stack = _stack(state, suit)
    height = len(stack)
    return height, any(len(way) > height and way[height] == value and way[:height] == stack for way in ways)


def _stack(state: GameState, suit: int) -> tuple[int, ...]:
    """The values played on ``suit``'s stack, in order.  Where the rule set has one
    complete stack only (the thesis': 1, ..., n), a stack of height h is its first h
    values [2.13-4], read from F as the thesis' conditions always read it, without a
    scan of the fields' cards."""
    config = state.config
    ways = state.tables.stack_ways
    if len(ways) == 1:
        return ways[0][: state.fireworks[suit]]
    return tuple(_suit_and_value(config, state.deck[c])[1] for c in state.played if _suit_and_value(config, state.deck[c])[0] == suit)


def _play_success_holds(m: Reading) -> bool:
    """[2.16-2c-success] F[x] := (1, ..., y): the field counts the stack's cards, one
    more (VAR-engine-up-or-down); the card joins the fields, D and f stay."""
    if not m.fits:
        return True
    state, result, suit = m.state, m.result, m.suit
    fields = state.fireworks
    return (
        result.fireworks == fields[:suit] + (m.height + 1,) + fields[suit + 1 :]
        and result.played == state.played + (m.card_id,)
        and (result.discard is state.discard or result.discard == state.discard)
        and result.strikes == state.strikes
    )


def _play_five_holds(m: Reading) -> bool:
    """[2.16-2c-five] a successful play that completes its stack (y = n; five cards under
    Up or Down) regains a token if t < t0; no other play changes t."""
    state = m.state
    regains = (m.fits and m.height + 1 == state.tables.stack_height
               and state.clue_tokens < state.config.max_hints)
    return m.result.clue_tokens == state.clue_tokens + (1 if regains else 0)


def _play_fail_holds(m: Reading) -> bool:
    """[2.16-2c-fail] otherwise D := (d_1, ..., d_M, a) and f := f + 1; F and t stay."""
    if m.fits:
        return True
    state, result = m.state, m.result
    return (
        result.discard == state.discard + (m.card_id,)
        and result.strikes == state.strikes + 1
        and (result.fireworks is state.fireworks or result.fireworks == state.fireworks)
        and (result.played is state.played or result.played == state.played)
    )


def _play_strikeout_holds(m: Reading) -> bool:
    """[2.16-2c-strikeout] a failed play that makes f = f0 sets R := -1; nothing else
    does."""
    limit = m.state.config.max_errors
    strikeout = not m.fits and limit is not None and m.state.strikes + 1 == limit
    return (m.result.remaining == -1) == strikeout


# ------------------------------------------------------------ 2b and 2c: the draw


def _draw_holds(m: Reading) -> bool:
    """[2.16-2b-draw, 2.16-2c-draw, R-3, R-2, R-deck-plays] the top card of S joins P_C
    with K = Cards(H) if S is not empty (and, with ``draw_after_final_move`` off, the
    game goes on); otherwise the hand keeps one card fewer.  The rest of P_C and K_C
    keep their order.  A play of the stack's last card leaves the hand as it was."""
    state, action, result = m.state, m.action, m.result
    seat, slot = state.current_player, action.slot  # type: ignore[union-attr]
    if m.deck_play:
        # [R-deck-plays] the card came from the stack, which is now empty; the hand stays.
        return (result.next_card == state.next_card + 1 == len(state.deck)
                and result.hands[seat] == state.hands[seat] and result.knowledge[seat] == state.knowledge[seat])
    kept = _without_slot(state.hands[seat], slot)
    kept_known = _without_slot(state.knowledge[seat], slot)
    options = state.config.options
    draws = state.next_card < len(state.deck) and (options.draw_after_final_move or not result.terminal)
    if not draws:
        return (
            result.next_card == state.next_card
            and result.hands[seat] == kept
            and result.knowledge[seat] == kept_known
        )
    drawn, fresh = state.next_card, state.tables.all_cards_mask
    if options.draw_position == "newest-first":
        hand, known = (drawn,) + kept, (fresh,) + kept_known
    else:
        hand, known = kept + (drawn,), kept_known + (fresh,)
    return result.next_card == state.next_card + 1 and result.hands[seat] == hand and result.knowledge[seat] == known


def _others_untouched_holds(m: Reading) -> bool:
    """[2.16-2b, 2.16-2c] a discard or play changes no other seat's hand or knowledge."""
    state, result = m.state, m.result
    seat, hands, knowledge = state.current_player, result.hands, result.knowledge
    for j, (hand, known) in enumerate(zip(state.hands, state.knowledge)):
        if j != seat and ((hands[j] is not hand and hands[j] != hand) or (knowledge[j] is not known and knowledge[j] != known)):
            return False
    return len(hands) == len(state.hands) and len(knowledge) == len(state.knowledge)


# ------------------------------------------------------------ end of the move


def _next_seat_holds(m: Reading) -> bool:
    """[2.16-2-next] C := C + 1, seat 0 after seat p - 1; the move count grows by one."""
    state, result = m.state, m.result
    return result.current_player == (state.current_player + 1) % state.config.players and result.turns == state.turns + 1


def _remaining_holds(m: Reading) -> bool:
    """[2.16-2-R] R := R - 1 if R > 0 (infinity - 1 = infinity); R = -1 stays.  A move
    that makes R = -1 (2.16-2c-strikeout) or starts the last round (2.16-3-last-round)
    is checked by those clauses."""
    before, after = m.state.remaining, m.result.remaining
    if after == -1 and before != -1:
        return True  # set by this move's strikeout
    if before is None:
        return after is None or after == m.state.config.players
    return after == (before - 1 if before > 0 else before)


# ------------------------------------------------------------ step 3


def _attainable_by_clause(state: GameState) -> int:
    """[R-1] counted from the clause: each suit can still grow from its height until
    the first value every copy of which is in D."""
    config, n = state.config, state.config.values
    in_discard: dict[int, int] = {}
    for card_id in state.discard:
        card = state.deck[card_id]
        in_discard[card] = in_discard.get(card, 0) + 1
    total = 0
    for suit, described in enumerate(config.suits):
        # [VAR-engine-up-or-down] the best of the complete stacks this stack is a start
        # of, continued while a copy of the next value is not all discarded.
        stack = _stack(state, suit)
        best = len(stack)
        for way in state.tables.stack_ways:
            if way[: len(stack)] == stack:
                reach = len(stack)
                while reach < len(way) and in_discard.get(suit * n + way[reach] - 1, 0) < described.counts[way[reach] - 1]:
                    reach += 1
                best = max(best, reach)
        total += best
    return total


def _nothing_playable_by_clause(result: GameState) -> bool:
    """[R-4] counted from the clause: the last round is on (R >= 1) and no card in the
    hand of a seat that still moves (C and the R - 1 seats after it) would succeed if
    played now."""
    if result.remaining is None or result.remaining < 1:
        return False
    config = result.config
    for step in range(result.remaining):
        for card_id in result.hands[(result.current_player + step) % config.players]:
            suit, value = _suit_and_value(config, result.deck[card_id])
            if _fits(result, suit, value):
                return False
    return True


def _stops(result: GameState) -> bool:
    """STOP as 2.16-3 lists the cases: R = -1, R = 0, every field at n, (R-1) no
    further point can be scored, or (R-4) nothing is left to play in the last round."""
    config = result.config
    if result.remaining in (-1, 0):
        return True
    fields = result.fireworks
    if fields.count(result.tables.stack_height) == len(fields):
        return True
    if config.options.end_when_nothing_playable and _nothing_playable_by_clause(result):
        return True
    return config.options.end_when_no_points_possible and _attainable_by_clause(result) == sum(fields)


def _stop_holds(m: Reading) -> bool:
    """[2.16-3] the game stops exactly when R = -1, R = 0, every field stack is
    complete, under R-1 no further point can be scored or, under R-4, nothing is left to
    play in the last round."""
    return m.result.terminal == _stops(m.result)


def _last_round_holds(m: Reading) -> bool:
    """[2.16-3-last-round] if the game goes on, R was infinite and the stack is now
    empty, then R := p; while the stack lasts, R stays infinite."""
    result = m.result
    if m.state.remaining is not None or result.terminal or result.remaining == -1:
        return True
    if result.next_card == len(result.deck):
        return result.remaining == m.state.config.players
    return result.remaining is None


def _constants_hold(m: Reading) -> bool:
    """[2.9] a move changes neither the configuration nor S0."""
    state, result = m.state, m.result
    return result.config is state.config and (result.deck is state.deck or result.deck == state.deck)


def _history_holds(m: Reading) -> bool:
    """[2.17-history] the move's public record is appended: its number, the mover, the
    action, the card shown and its identity, whether a play succeeded, the cards a hint
    touched, the id of the card drawn.

    The history before the move is the result's first entries: for histories of one line
    of play (one list, :class:`~hanabi_ref.engine.history.History`) that is one identity
    test, else they are compared entry by entry (:func:`~hanabi_ref.engine.history.entry_after`);
    the new entry is then compared with the record the clause asks for."""
    state, action, result = m.state, m.action, m.result
    event = entry_after(result.history, state.history)
    if event is None:
        return False
    if isinstance(action, Hint):
        named, deck = m.named, state.deck
        touched = tuple([c for c in state.hands[action.target] if deck[c] in named])
        expected: tuple[object, ...] = (state.turns, state.current_player, action, None, None, None, touched, None)
    else:
        assert isinstance(action, (Discard, Play))
        drawn = result.next_card - 1 if result.next_card > state.next_card and not m.deck_play else None
        success = m.fits if isinstance(action, Play) else None
        # [VAR-engine-orange] ``action`` is the step applied; the record names the move made.
        made = action if not m.inverted else Play(action.slot) if isinstance(action, Discard) else Discard(action.slot)
        expected = (state.turns, state.current_player, made, m.card_id, m.card, success, (), drawn)
    return event == expected


def _has_action_holds(m: Reading) -> bool:
    """[PR-legal-action] a state that has not stopped offers its player an action: its
    hand is not empty, and playing any card of it is legal (2.16-2c)."""
    result = m.result
    return result.terminal or len(result.hands[result.current_player]) > 0


ALL_KINDS: tuple[type, ...] = (Hint, Discard, Play)
CARD_KINDS: tuple[type, ...] = (Discard, Play)

POSTCONDITIONS: tuple[Postcondition, ...] = (
    Postcondition("2.16-2a-value", "a value hint keeps or removes {(a, y)} in each K_c of the target, nothing else", (Hint,), _hint_value_holds),
    Postcondition("2.16-2a-suit", "a colour hint keeps or removes {(x, y) : y in T} in each K_c of the target, nothing else", (Hint,), _hint_colour_holds),
    Postcondition("2.16-2a-cost", "a hint sets t := t - 1 and moves no card", (Hint,), _hint_cost_holds),
    Postcondition("2.16-2b-discard", "D := (d_1, ..., d_M, a); F and f do not change", (Discard,), _discard_pile_holds),
    Postcondition("2.16-2b-token", "t := t + 1 if t < t0", (Discard,), _discard_token_holds),
    Postcondition("2.16-2b-draw", "the top card of S is drawn with K = Cards(H), unless S is empty (or R-3)", CARD_KINDS, _draw_holds),
    Postcondition("2.16-2b", "a discard or play changes no other seat's hand or knowledge", CARD_KINDS, _others_untouched_holds),
    Postcondition("2.16-2c-success", "if F[x] = (1, ..., y - 1) then F[x] := (1, ..., y)", (Play,), _play_success_holds),
    Postcondition("2.16-2c-five", "a successful play of y = n regains a token if t < t0", (Play,), _play_five_holds),
    Postcondition("2.16-2c-fail", "otherwise D := (d_1, ..., d_M, a) and f := f + 1", (Play,), _play_fail_holds),
    Postcondition("2.16-2c-strikeout", "R := -1 exactly when a failed play makes f = f0", (Play,), _play_strikeout_holds),
    Postcondition("2.16-2-next", "C := C + 1 (mod p) and the move count grows by one", ALL_KINDS, _next_seat_holds),
    Postcondition("2.16-2-R", "R := R - 1 if R > 0, infinity - 1 = infinity", ALL_KINDS, _remaining_holds),
    Postcondition("2.16-3", "STOP exactly when R = -1, R = 0, every field is complete, (R-1) no point is left, or (R-4) nothing is left to play", ALL_KINDS, _stop_holds),
    Postcondition("2.16-3-last-round", "R := p when R is infinite and S is empty", ALL_KINDS, _last_round_holds),
    Postcondition("2.9", "a move changes neither the configuration nor S0", ALL_KINDS, _constants_hold),
    Postcondition("2.17-history", "the move's public record is appended to the history", ALL_KINDS, _history_holds),
    Postcondition("PR-legal-action", "the player to move has a legal action", ALL_KINDS, _has_action_holds),
)
"""Every condition :func:`check_move` checks, in the order of the clauses."""

_BY_KIND: dict[type, tuple[Postcondition, ...]] = {
    kind: tuple(condition for condition in POSTCONDITIONS if kind in condition.kinds) for kind in ALL_KINDS
}

_CHECKS_BY_KIND: dict[type, tuple[tuple[Check, str], ...]] = {
    kind: tuple((condition.check, condition.message) for condition in conditions) for kind, conditions in _BY_KIND.items()
}
""":data:`_BY_KIND` as (check, message) pairs, read once per move."""


DealCheck = Callable[[GameConfig, GameState], bool]

DEAL_CONDITIONS: tuple[tuple[str, DealCheck], ...] = (
    ("2.16-1: D and every F[i] start empty",
     lambda config, result: result.discard == () and all(h == 0 for h in result.fireworks)),
    ("2.16-1: t = t0, f = 0, C is the first seat",
     lambda config, result: result.clue_tokens == config.max_hints and result.strikes == 0 and result.current_player == 0),
    ("2.16-1-deal: S starts after the p*h dealt cards",
     lambda config, result: result.next_card == config.players * config.hand_size),
    ("2.14-initial: every K_c is Cards(H)",
     lambda config, result: all(k == (1 << config.values * config.suit_count) - 1 for known in result.knowledge for k in known)),
)
"""The conditions of step 1 on the dealt state, as (message, check) [2.16-1, 2.16-1-deal,
2.14-initial]: each message starts with its clause."""


def check_deal(config: GameConfig, result: GameState) -> None:
    """Raise :class:`icontract.ViolationError` naming the first condition of step 1 that
    the state dealt for ``config`` breaks [2.16-1, 2.16-1-deal, 2.14-initial, CT-move];
    written by hand, as :func:`check_move` is, rather than as icontract postconditions,
    whose wrapper costs more than the deal's own checks."""
    for message, holds in DEAL_CONDITIONS:
        if not holds(config, result):
            raise icontract.ViolationError(message)


def check_move(state: GameState, action: Action, result: GameState) -> None:
    """Raise :class:`icontract.ViolationError` naming the first clause the move from
    ``state`` by ``action`` to ``result`` breaks [2.16-2, 2.16-3, CT-move]; the discard of
    an orange card is checked as a play of it and the play as a discard
    (VAR-engine-orange).  What the clauses ask of the action is worked out once, for all
    of them (:class:`Reading`)."""
    reading = read_move(state, action, result)
    if reading.inverted:
        slot = action.slot  # type: ignore[union-attr]
        reading.action = action = Play(slot) if isinstance(action, Discard) else Discard(slot)
    for holds, message in _CHECKS_BY_KIND[type(action)]:
        if not holds(reading):
            raise icontract.ViolationError(f"{message} (turn {state.turns}, {describe(action)})")


def check_legal(state: GameState, action: Action) -> None:
    """The precondition of a move: ``action`` is legal in ``state`` [2.16-2].  An
    illegal action reaching :func:`~hanabi_ref.engine.transition.apply_legal` is a bug of its
    caller, so this raises :class:`icontract.ViolationError` naming the clause."""
    problem = illegality(state, action)
    if problem is not None:
        raise icontract.ViolationError(f"{problem[0]}: the action is legal ({problem[1]})")
