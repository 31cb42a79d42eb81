"""The immutable game state: the areas of play of Definition 2.13 and the variables of
Algorithm 2.16 [2.13, 2.14, 2.16-1].

============  ==============================  ==========================================
thesis        field                           representation
============  ==============================  ==========================================
S0            ``deck``                        identities by card id (index in S0)
S             ``deck[next_card:]``            the remaining stack, top first [E-23]
|S|           ``deck_size`` (a property)      ``len(deck) - next_card``
D, M          ``discard``                     card ids, oldest first; M = len(discard) [2.13-2]
P_j           ``hands[j]``                    card ids, in slot order [R-2, E-15]
K_c           ``knowledge[j][slot]``          bitmask over Cards(H) [2.14, E-19]
F[i]          ``fireworks[i]``                height: F[i] = (1, ..., fireworks[i]) [E-14]
(F's cards)   ``played``                      card ids on the fields, in play order
t             ``clue_tokens``                 t is always the token count [E-9]
f             ``strikes``                     the errors made
C             ``current_player``              seat, counted from 0
R             ``remaining``                   ``None`` stands for infinity
(turn)        ``turns``                       moves made so far [E-9]
============  ==============================  ==========================================

``history`` is the public record of events; ``terminal`` is what step 3 decided.
``touch_keys[j]`` says which hints touch a card of P_j (the hand's touch key,
:func:`~hanabi_ref.engine.legality.touch_key`): legality reads it [2.16-2a-empty], and
it follows the hand as cards come and go, so no move recomputes the hands it did not
change.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import icontract

from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.history import Event as Event
from hanabi_ref.engine.history import entry_after as entry_after
from hanabi_ref.engine.history import History as History
from hanabi_ref.engine.history import SealedHistory as SealedHistory
from hanabi_ref.engine.history import sealed_history as sealed_history
from hanabi_ref.engine.history import sealed_successor as sealed_successor
from hanabi_ref.engine.history import starts_with as starts_with
from hanabi_ref.engine.cards import CardId, Identity
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.legality import touch_keys
from hanabi_ref.engine.tables import Tables
from hanabi_ref.engine.variants.ruleset import attainable_heights as attainable_heights


def hand_touch_keys(state: GameState) -> tuple[int, ...]:
    """Each seat's touch key, from its hand: which hints touch a card of it
    [2.16-2a-empty] (:func:`~hanabi_ref.engine.legality.touch_keys`)."""
    return touch_keys(state.tables.touch_bits, state.deck, state.hands)


def is_cards_conserved(state: GameState) -> bool:
    """[2.13-conservation] stack, discard pile, hands and fields hold each card of S0 once.

    The stack is S0 from ``next_card`` on, so the other areas together must hold the
    ids 0 .. next_card - 1, each exactly once."""
    drawn = state.next_card
    if not 0 <= drawn <= len(state.deck):
        return False
    ids = set(state.discard)
    ids.update(state.played)
    count = len(state.discard) + len(state.played)
    for hand in state.hands:
        ids.update(hand)
        count += len(hand)
    return count == drawn and len(ids) == drawn and (drawn == 0 or (min(ids) == 0 and max(ids) == drawn - 1))


def is_fields_gapless(state: GameState) -> bool:
    """[2.13-4] each field stack F[i] is built in order: the values of suit i's played
    cards, in play order, are the start of a complete stack of the game's rule set
    (:meth:`~hanabi_ref.engine.variants.ruleset.RuleSet.ways`: (1, ..., n) under the
    thesis, VAR-up-or-down's four under Up or Down), and F[i] counts them
    (VAR-engine-up-or-down)."""
    config, tables = state.config, state.tables
    ways, suit_of, rank_of = tables.stack_ways, tables.suit_of, tables.rank_of
    if len(ways) == 1:  # one complete stack (the thesis'): each card is the next value of it
        way, heights = ways[0], [0] * config.suit_count
        for card_id in state.played:
            card = state.deck[card_id]
            suit = suit_of[card]
            height = heights[suit]
            if height >= len(way) or rank_of[card] + 1 != way[height]:
                return False
            heights[suit] = height + 1
        return tuple(heights) == state.fireworks
    stacks: list[list[int]] = [[] for _ in range(config.suit_count)]
    for card_id in state.played:
        card = state.deck[card_id]
        stacks[suit_of[card]].append(rank_of[card] + 1)
    if not all(any(way[: len(stack)] == tuple(stack) for way in ways) for stack in stacks):
        return False
    return tuple(map(len, stacks)) == state.fireworks


def is_hand_size_valid(state: GameState) -> bool:
    """[2.13-hand-size] h cards while the stack lasts; h or h - 1 once it is empty, or
    once the game is over (the final move draws nothing under R-3).  Hands of h cards
    each are valid either way, so only a shorter hand asks which case holds."""
    h = state.config.hand_size
    for hand in state.hands:
        if len(hand) != h:
            break
    else:
        return True
    if state.next_card < len(state.deck) and not is_stop_condition(state):
        return all(len(hand) == h for hand in state.hands)
    # [E-6] under the literal reading the first player moves twice after an empty deal.
    lowest = h - 2 if state.tables.is_literal_empty_deal else h - 1
    return all(lowest <= len(hand) <= h for hand in state.hands)


def is_knowledge_sound(state: GameState) -> bool:
    """[2.14-sound] every card in hand has a knowledge set that contains its identity."""
    outside = ~state.tables.all_cards_mask
    deck = state.deck
    if len(state.hands) != len(state.knowledge):
        return False
    return all(_is_hand_sound(hand, known, outside, deck) for hand, known in zip(state.hands, state.knowledge))


def _is_hand_sound(hand: Sequence[int], known: Sequence[int], outside: int, deck: Sequence[int]) -> bool:
    """[2.14-sound] one seat: a knowledge set per card, each holding only identities of
    the configuration (none in ``outside``) and the card's own."""
    if len(hand) != len(known):
        return False
    for card_id, mask in zip(hand, known):
        if mask & outside or not mask >> deck[card_id] & 1:
            return False
    return True


def is_cards_conserved_after(before: GameState, result: GameState) -> bool:
    """[2.13-conservation] :func:`is_cards_conserved` of ``result``, for a ``result`` made
    from ``before`` by one move of the engine, given that ``before`` conserves its cards.

    When the discard pile and the fields of ``result`` start with those of ``before`` and
    its stack has not grown, the cards that ``result`` holds outside the stack are
    ``before``'s, less the hands that changed (any hand not the very object it was), plus
    those hands as they are now and the new ends of D and the fields.  As ``before``
    holds 0 .. b - 1 once each, ``result`` holds 0 .. r - 1 once each exactly when the
    changed hands now and the new ends together are, as a multiset, the changed hands
    before and the cards b .. r - 1 taken from the stack.  Any other ``result`` gets the
    whole check."""
    drawn, before_drawn = result.next_card, before.next_card
    discard, played = result.discard, result.played
    if result.hands is before.hands and discard is before.discard and played is before.played:
        return drawn == before_drawn or is_cards_conserved(result)  # a hint moves no card
    kept_discard, kept_played = len(before.discard), len(before.played)
    if (drawn < before_drawn or len(result.hands) != len(before.hands)
            or (discard is not before.discard and discard[:kept_discard] != before.discard)
            or (played is not before.played and played[:kept_played] != before.played)):
        return is_cards_conserved(result)
    if drawn > len(result.deck):
        return False
    now = [*discard[kept_discard:], *played[kept_played:]]
    then = list(range(before_drawn, drawn))
    for hand, old in zip(result.hands, before.hands):
        if hand is not old:
            now += hand
            then += old
    return sorted(now) == sorted(then)


def is_fields_gapless_after(before: GameState, result: GameState) -> bool:
    """[2.13-4] :func:`is_fields_gapless` of ``result``, given that it holds for
    ``before`` of the same game: it reads F and the played cards only, so if both are
    the very objects of ``before`` it holds; else the whole check decides."""
    if result.played is before.played and result.fireworks is before.fireworks:
        return True
    return is_fields_gapless(result)


def is_knowledge_sound_after(before: GameState, result: GameState) -> bool:
    """[2.14-sound] :func:`is_knowledge_sound` of ``result``, given that it holds for
    ``before`` of the same game: it holds seat by seat, and a seat whose hand and
    knowledge sets are the very objects of ``before`` is sound as it was; the other
    seats are checked in full."""
    hands, knowledge = result.hands, result.knowledge
    if len(hands) != len(knowledge) or len(hands) != len(before.hands):
        return is_knowledge_sound(result)
    outside, deck, old_hands, old_knowledge = ~result.tables.all_cards_mask, result.deck, before.hands, before.knowledge
    for seat, hand in enumerate(hands):
        known = knowledge[seat]
        if (hand is not old_hands[seat] or known is not old_knowledge[seat]) and not _is_hand_sound(hand, known, outside, deck):
            return False
    return True


def is_errors_within_bound(state: GameState) -> bool:
    """[2.16-errors] 0 <= f <= f0."""
    limit = state.config.max_errors
    return 0 <= state.strikes and (limit is None or state.strikes <= limit)


@icontract.invariant(lambda self: is_cards_conserved(self), "2.13-conservation: the cards of S0 are each in exactly one area", enabled=ENABLED)
@icontract.invariant(lambda self: is_fields_gapless(self), "2.13-4: field stacks increase from 1 without gaps", enabled=ENABLED)
@icontract.invariant(lambda self: is_hand_size_valid(self), "2.13-hand-size: hands hold h cards, h - 1 allowed once the stack is empty or the game stops", enabled=ENABLED)
@icontract.invariant(lambda self: is_knowledge_sound(self), "2.14-sound: each card's identity lies in its knowledge set K_c", enabled=ENABLED)
@icontract.invariant(lambda self: 0 <= self.clue_tokens <= self.config.max_hints, "2.16-tokens: 0 <= t <= t0", enabled=ENABLED)
@icontract.invariant(lambda self: is_errors_within_bound(self), "2.16-errors: 0 <= f <= f0", enabled=ENABLED)
@icontract.invariant(lambda self: 0 <= self.current_player < self.config.players, "2.16-2-next: C is a seat", enabled=ENABLED)
@icontract.invariant(
    lambda self: self.remaining is None or -1 <= self.remaining <= self.config.players,
    "2.16-2-R: R is infinite, -1 or in 0..p",
    enabled=ENABLED,
)
@attrs.frozen(slots=False, repr=False)
class GameState:
    """One moment of a game: every variable of Algorithm 2.16 [2.13, 2.14, 2.16-1].

    The fields have the names of the JSON state object (spec/trace.md), the same on a
    view and a :class:`~hanabi_ref.api.Game` (the table above maps the thesis' symbols):
    ``clue_tokens`` is t, ``strikes`` f, ``fireworks`` F, ``current_player`` C,
    ``turns`` the moves made; ``deck_size`` (|S|) and ``score`` are properties
    [API-names].  ``str`` is the board with every card face up, ``repr`` one line
    [SH-board].

    ``tables`` are the configuration's lookup tables (:class:`~hanabi_ref.engine.tables.Tables`),
    which the steps read; set by :func:`~hanabi_ref.engine.transition.initial_state` and
    passed on to every successor, they are no part of the state's value (equality, hash,
    ``repr`` and JSON leave them out).  Nor are ``touch_keys``, each hand's touch key
    (:func:`hand_touch_keys`), which legality reads: derived from the hands, computed
    when a state is built by its constructor (or ``attrs.evolve``) and kept up to date
    by the steps of a move, which change one hand at a time [2.16-2a-empty].

    With contracts on, a state the engine built (the deal, or a move) and checked
    carries a mark beside its fields, a weak reference to itself (:func:`is_checked`,
    CT-state): a copy of its fields is another object, which the mark does not name, and
    ``attrs.evolve``, ``copy`` and pickle leave the mark out."""

    config: GameConfig
    deck: tuple[Identity, ...]
    next_card: int
    hands: tuple[tuple[CardId, ...], ...]
    knowledge: tuple[tuple[int, ...], ...]
    fireworks: tuple[int, ...]
    played: tuple[CardId, ...]
    discard: tuple[CardId, ...]
    clue_tokens: int
    strikes: int
    current_player: int
    remaining: int | None
    turns: int
    history: History
    terminal: bool
    tables: Tables = attrs.field(eq=False, repr=False)
    # Typed as a sequence (a tuple at run time): the compiled build checks a tuple-typed
    # class attribute's value, which here is attrs' field definition.
    touch_keys: Sequence[int] = attrs.field(init=False, eq=False, repr=False,
                                            default=attrs.Factory(hand_touch_keys, takes_self=True))

    @property
    def deck_size(self) -> int:
        """|S|, the cards left in the stack (the JSON's ``deck_size``) [API-names]."""
        return len(self.deck) - self.next_card

    @property
    def score(self) -> int:
        """The score step 3 returns, or would return now (the JSON's ``score``) [2.16-3]."""
        return score(self)

    def __str__(self) -> str:
        from hanabi_ref.engine.show import state_board

        return state_board(self)

    def __getstate__(self) -> dict[str, Any]:
        """The fields, for pickle and copy, without the engine's mark [CT-state]."""
        if CHECKED_MARK in self.__dict__:
            return {name: value for name, value in self.__dict__.items() if name != CHECKED_MARK}
        return self.__dict__

    def __repr__(self) -> str:
        """A one-line summary: turn, score, tokens, strikes, deck; it reads the fields only,
        so it checks no invariant (CT-state)."""
        over = " over" if self.terminal else ""
        return (f"<GameState {self.config.preset} {self.config.players}p turn {self.turns}{over} score {score(self)} "
                f"clue_tokens {self.clue_tokens} strikes {self.strikes} deck {deck_size(self)}>")


INVARIANTS: tuple[Any, ...] = tuple(getattr(GameState, "__invariants__", ()))
"""The invariants of :class:`GameState` as icontract registered them (none with
contracts off)."""


def stack(state: GameState) -> tuple[int, ...]:
    """[2.13-1] the remaining stack S as identities, top card first."""
    return state.deck[state.next_card:]


def deck_size(state: GameState) -> int:
    """|S|, the cards left in the stack (the property :attr:`GameState.deck_size` as a
    function)."""
    return len(state.deck) - state.next_card


def hand_cards(state: GameState, seat: int) -> tuple[int, ...]:
    """[2.13-3] the identities in seat's hand P_j, in slot order."""
    return tuple(state.deck[card_id] for card_id in state.hands[seat])


def fireworks_sum(state: GameState) -> int:
    """The sum of max F[i] over the suits (max of an empty stack is 0) [2.16-3-R0, E-13]."""
    return sum(state.fireworks)


def score(state: GameState) -> int:
    """The score step 3 returns, or would return now: :func:`public_score` of the state
    [2.16-3, 2.16-3-strikeout]."""
    return public_score(state.config, state.fireworks, state.remaining)


def public_score(config: GameConfig, fields: Sequence[int], remaining: int | None) -> int:
    """:func:`score` from what every seat sees: the fields and R [2.16-3, 2.17-view].

    After the last allowed error (R = -1) the score is 0, or the fireworks' sum under
    the option ``strikeout_score = "fireworks"`` [2.16-3-strikeout].
    """
    if remaining == -1 and config.options.strikeout_score == "zero":
        return 0
    return sum(fields)


def max_attainable_score(state: GameState) -> int:
    """[R-1] the best score still reachable given the discard pile: a suit stops below
    the first value whose every copy has been discarded."""
    return attainable_score(state.tables, state.deck, state.fireworks, state.discard, state.played)


def attainable_score(tables: Tables, deck: tuple[Identity, ...], fields: Sequence[int], discard: tuple[int, ...],
                     played: tuple[int, ...] = ()) -> int:
    """[R-1] :func:`max_attainable_score` from the fields and discard pile alone (and the
    played cards, which a variant family's rule set may read: under Up or Down they fix
    each stack's direction), as the game's rule set counts it
    (:meth:`~hanabi_ref.engine.variants.ruleset.RuleSet.attainable`)."""
    config = tables.config
    discarded = [0] * (config.values * config.suit_count)
    for card_id in discard:
        discarded[deck[card_id]] += 1
    return tables.rule_set.attainable(config, deck, fields, played, discarded)


def attainable_from_counts(config: GameConfig, fields: Sequence[int], discarded: Sequence[int]) -> int:
    """[R-1] :func:`attainable_score` from the fields and the copies discarded of each
    identity (public numbers, as a strategy counts them), under the thesis' rules."""
    return sum(attainable_heights(config, fields, discarded))


def is_stop_condition(state: GameState) -> bool:
    """Whether step 3 says STOP for this state [2.16-3-strikeout, 2.16-3-R0, 2.16-3-max, R-1]."""
    return stop_clause(state.tables, state.deck, state.fireworks, state.discard, state.remaining, state.played) is not None


def stop_clause(
    tables: Tables,
    deck: tuple[Identity, ...],
    fields: Sequence[int],
    discard: tuple[int, ...],
    remaining: int | None,
    played: tuple[int, ...] = (),
) -> str | None:
    """Step 3's STOP test, the one place it is decided: the clause that stops the game,
    tried in the order 2.16-3 lists them, or None if the game goes on [2.16-3,
    2.16-3-strikeout, 2.16-3-R0, 2.16-3-max, R-1].  It reads only R, F and D, so a move
    can decide it before its draw (R-3)."""
    if remaining == -1:
        return "2.16-3-strikeout"
    if remaining == 0:
        return "2.16-3-R0"
    total = sum(fields)
    if total == tables.max_score:
        return "2.16-3-max"
    if tables.config.options.end_when_no_points_possible and attainable_score(tables, deck, fields, discard, played) == total:
        return "R-1"
    return None


def is_nothing_playable_left(
    tables: Tables,
    deck: tuple[Identity, ...],
    fields: Sequence[int],
    played: tuple[int, ...],
    hands: Sequence[Sequence[int]],
    current: int,
    remaining: int | None,
) -> bool:
    """[R-4] In the last round (R >= 1: the stack is empty), whether no player who still
    moves (C, C + 1, ..., R of them) holds a card that some field stack may take next:
    then nothing more can be played and, under ``end_when_nothing_playable``, step 3
    stops the game.  What a stack may take next is the rule set's answer
    (:meth:`~hanabi_ref.engine.variants.ruleset.RuleSet.next_identities`)."""
    if remaining is None or remaining < 1:
        return False
    needed = tables.rule_set.next_identities(tables.config, deck, fields, played)
    players = tables.config.players
    return not any(deck[card_id] in needed
                   for step in range(remaining) for card_id in hands[(current + step) % players])


CHECKED_MARK = "_checked"
"""The key of the engine's mark in a state's ``__dict__``, beside the fields [CT-state]."""


def is_checked(state: GameState) -> bool:
    """Whether the engine built ``state`` (by the deal or by a move) and found every
    invariant holding: the mark that :func:`mark_checked` sets names this very object
    [CT-state]."""
    mark = state.__dict__.get(CHECKED_MARK)
    return mark is not None and mark() is state


def check_invariants(state: GameState) -> None:
    """Raise :class:`icontract.ViolationError` naming the first invariant of
    :class:`GameState` that ``state`` breaks [2.13, 2.14-sound, 2.16-tokens, 2.16-errors, CT-state].

    The invariants are the class's own icontract invariants (``__invariants__``), the
    ones ``GameState(...)`` checks; evaluated here directly, without icontract's wrapper,
    which costs more than the checks."""
    for invariant in INVARIANTS:
        if not invariant.condition(state):
            raise icontract.ViolationError(f"{invariant.description} (turn {state.turns})")


SUCCESSOR_CHECKS: dict[str, Callable[[GameState, GameState], bool]] = {
    "2.13-conservation": is_cards_conserved_after,
    "2.13-4": is_fields_gapless_after,
    "2.14-sound": is_knowledge_sound_after,
}
"""The invariants checked incrementally after a move, by clause: each function answers
as the invariant would on the result, given that the state before the move holds it."""


def check_successor_invariants(before: GameState, result: GameState) -> None:
    """:func:`check_invariants` of ``result``, a state the engine made by one move from
    ``before`` (CT-state): the same invariants in the same order, so the first broken
    one is named as the whole check names it, and marks ``result`` as checked.  When
    ``before`` carries the engine's mark (:func:`is_checked`) and ``result`` shares its
    configuration, S0 and tables, the
    invariants of :data:`SUCCESSOR_CHECKS` look only at what the move changed (each
    equals the whole invariant on ``result`` given that ``before`` holds it:
    spec/library.md, CT-state); otherwise ``result`` gets the whole check."""
    if (not is_checked(before) or result.config is not before.config or result.deck is not before.deck
            or result.tables is not before.tables):
        check_invariants(result)
    else:
        for description, condition, incremental in _SUCCESSOR_ORDER:
            if not (incremental(before, result) if incremental is not None else condition(result)):
                raise icontract.ViolationError(f"{description} (turn {result.turns})")
    mark_checked(result)


def mark_checked(state: GameState) -> None:
    """Mark ``state``, whose every invariant the engine has just found holding, as
    checked [CT-state]: a weak reference, so that a state does not keep itself alive, and
    one that names this object only (a copy of the fields names another)."""
    state.__dict__[CHECKED_MARK] = weakref.ref(state)


_SUCCESSOR_ORDER: tuple[tuple[str, Callable[[GameState], bool], Callable[[GameState, GameState], bool] | None], ...] = tuple(
    (invariant.description, invariant.condition, SUCCESSOR_CHECKS.get(invariant.description.partition(":")[0]))
    for invariant in INVARIANTS
)
""":data:`INVARIANTS` in their order, each with its incremental check or None."""
