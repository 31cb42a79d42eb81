"""Algorithm 2.16 as one function per step [2.16].

    step 1   process_initialisation     deal, set D, F, C, t, f, M, R
    step 2a  process_hint               give a hint, update knowledge
    step 2b  process_discard            discard, regain a token
    step 2c  process_play               play or misplay
    2b, 2c   process_draw               draw the top card of the stack
    step 2   process_turn_end           C := C + 1, R := R - 1
    step 3   process_stop_check         stop, or start the last round
    2.17     record_event               the move's public record

:func:`apply` first refuses an illegal action with :class:`IllegalActionError` naming the
clause; :func:`apply_legal` is the trusted path for actions taken from the legal list.
Both run :func:`successor`: the steps in the algorithm's order, on the variables of one
move (:class:`~hanabi_ref.engine.fastpath.MoveVariables`, made into one state at the end;
the speed idioms are all in :mod:`hanabi_ref.engine.fastpath`).  What a variant family
changes, the steps ask the game's rule set (``state.tables.rule_set``,
:class:`~hanabi_ref.engine.variants.ruleset.RuleSet`): whether a play succeeds and what
F[x] becomes, whether a played or discarded card is carried out as the other step
(orange suits), when a field is complete.  No step tests a variant.

One reordering, which changes nothing: the draw of 2b and 2c is made after the end of
the move and step 3's STOP test.  The draw reads and writes only S, P_C and K_C; the end
of the move reads and writes only C, R and the move count, and the STOP test reads only
R, F and D; so every order of the three gives the same state.  Made in this order, the
test is decided once and serves both step 3 and the draw, which under
``draw_after_final_move = false`` [R-3] is skipped by the move that ends the game.

With contracts on, :mod:`hanabi_ref.engine.conditions` checks every move against the clauses it
touches, written from the clause text and independent of the helpers here, and the
result's invariants once; with contracts off nothing is checked and nothing is paid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from hanabi_ref.engine import conditions
from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError, IllegalActionError
from hanabi_ref.engine.legality import hint_mask, illegality, touch_keys
from hanabi_ref.engine.cards import CardId, Identity, as_identities
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.fastpath import MoveVariables, build_state, new_event, replaced
from hanabi_ref.engine.state import GameState, History, is_nothing_playable_left, stop_clause
from hanabi_ref.engine.tables import Tables, tables_for

# ---------------------------------------------------------------- step 1 [2.16-1]


def check_deck(config: GameConfig, deck: tuple[int, ...]) -> None:
    """[2.9-S0] the deck must be a permutation of the configuration's composition.

    A sorted copy equal to the sorted composition, of plain integers, is the whole
    check; only a deck that fails it is gone through card by card for the message."""
    tables = tables_for(config)
    if len(deck) == tables.deck_size and all(type(card) is int for card in deck) and sorted(deck) == tables.sorted_deck:
        return
    size = config.values * config.suit_count
    for index, card in enumerate(deck):
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < size:
            raise ConfigError(f"deck[{index}]: {card!r} is not a card of this game")
    raise ConfigError(
        f"deck: its {len(deck)} cards are not the composition of variant "
        f"{config.variant!r} ({tables.deck_size} cards)"
    )


def process_initialisation(config: GameConfig, deck: tuple[Identity, ...]) -> GameState:
    """Step 1: deal the hands, empty D and F, t := t0, f := 0, C := first seat, R := inf,
    every K_c := Cards(H) [2.16-1, 2.16-1-deal, 2.14-initial, E-22].  Step 3 is then
    evaluated once (erratum E-6): if the stack is already empty, the last round starts
    at once.  ``deck`` must be a permutation of the composition (:func:`check_deck`)."""
    tables = tables_for(config)
    hands = tables.dealt_hands  # [2.16-1-deal]
    next_card = config.players * config.hand_size
    remaining: int | None = None
    terminal = False
    if config.options.initial_stop_check:
        # [E-6] step 3 once after step 1, on the variables just set (D and F empty).
        stop = stop_clause(tables, deck, (0,) * config.suit_count, (), None)
        remaining, terminal = stop_check(config, stop, None, next_card == len(deck))
        if not terminal and config.options.end_when_nothing_playable:
            terminal = is_nothing_playable_left(tables, deck, (0,) * config.suit_count, (), hands, 0, remaining)
    result = build_state(
        config=config, deck=deck, next_card=next_card, hands=hands,
        knowledge=tables.dealt_knowledge,
        fireworks=(0,) * config.suit_count, played=(), discard=(), clue_tokens=config.max_hints, strikes=0,
        current_player=0, remaining=remaining, turns=0, history=History(), terminal=terminal, tables=tables,
        touch_keys=touch_keys(tables.touch_bits, deck, hands),
    )
    if ENABLED:
        conditions.check_deal(config, result)  # [CT-move] 2.16-1, 2.16-1-deal, 2.14-initial
    return result


def initial_state(config: GameConfig, deck: Sequence[int]) -> GameState:
    """The state before the first move for a configuration and a deck (S0, top first);
    a deck that is not a permutation of the composition is refused [2.9-S0]."""
    cards = tuple(deck)
    check_deck(config, cards)
    return process_initialisation(config, tuple(as_identities(cards)))


def new_game(config: GameConfig, seed: int) -> GameState:
    """The state before the first move of the game dealt from ``seed`` [D-seed]: the deck
    comes from :func:`~hanabi_ref.engine.dealing.deck_from_seed`, a permutation of the
    composition by construction, so it is not checked again."""
    return process_initialisation(config, deck_from_seed(config, seed))


# ---------------------------------------------------------------- 2b, 2c: the card


def _take_from_hand(move: MoveVariables, slot: int) -> CardId:
    """P_C := P_C minus the card in ``slot``; its knowledge set leaves with it (2b, 2c)
    [E-12].  Returns the card's id."""
    hand, known = move.hand, move.known
    move.hand = hand[:slot] + hand[slot + 1 :]
    move.known = known[:slot] + known[slot + 1 :]
    card_id = hand[slot]
    move.left_hand, move.card = card_id, move.deck[card_id]
    return card_id


def _take_from_stack(move: MoveVariables) -> CardId:
    """[R-deck-plays] the stack's last card, played unseen: it leaves the stack (S := S
    minus it) without entering the hand, so the draw that follows finds the stack
    empty.  Returns the card's id."""
    card_id = cast(CardId, move.next_card)
    move.next_card = card_id + 1
    move.left_hand = card_id
    move.card = move.deck[card_id]
    return card_id


# ---------------------------------------------------------------- step 2a [2.16-2a]


def process_hint(move: MoveVariables, hint: Hint) -> None:
    """Step 2a: a hint on a value or a clue colour [2.16-2a, 2.16-2a-value, 2.16-2a-suit,
    2.16-2a-cost].

    A card the hint touches keeps only identities the hint would touch; every other card
    of the target loses all of them (negative information).  A hint touching no card is
    legal only under the option ``empty_hints`` [2.16-2a-empty]."""
    mask = hint_mask(move.tables, hint)
    deck = move.deck
    new_knowledge = []
    touched = []
    for card_id, known in zip(move.hands[hint.target], move.knowledge[hint.target]):
        if mask >> deck[card_id] & 1:
            new_knowledge.append(known & mask)
            touched.append(card_id)
        else:
            new_knowledge.append(known & ~mask)
    move.knowledge = replaced(move.knowledge, hint.target, tuple(new_knowledge))
    move.clue_tokens -= 1
    move.touched = tuple(touched)


# ---------------------------------------------------------------- step 2b [2.16-2b]


def process_discard(move: MoveVariables, discard: Discard) -> None:
    """Step 2b: discard card a, regain a hint token if t < t0 [2.16-2b, 2.16-2b-discard,
    2.16-2b-token]; the draw follows in :func:`process_draw` [2.16-2b-draw].

    With t = t0 the discard is legal under the thesis (no token is gained) and illegal
    under the option ``discard_at_max_hints = False`` (erratum E-2).  A card the rule
    set swaps (an orange card) is played instead [VAR-engine-orange]."""
    card_id = _take_from_hand(move, discard.slot)
    if move.tables.rule_set.is_swapped(move.config, move.deck[card_id]):
        _judge_play(move, card_id)
    else:
        _to_discard(move, card_id)


def _to_discard(move: MoveVariables, card_id: CardId) -> None:
    """D := (d_1, ..., d_M, a) and t := t + 1 if t < t0 [2.16-2b-discard, 2.16-2b-token]."""
    move.discard = move.discard + (card_id,)
    if move.clue_tokens < move.config.max_hints:
        move.clue_tokens += 1


# ---------------------------------------------------------------- step 2c [2.16-2c]


def process_play(move: MoveVariables, play: Play) -> None:
    """Step 2c: play card a = (value y, suit x) [2.16-2c, 2.16-2c-success, 2.16-2c-five,
    2.16-2c-fail, 2.16-2c-strikeout, E-10, E-25]; the draw follows in
    :func:`process_draw` [2.16-2c-draw].

    If F[x] = (1, ..., y - 1) the card extends the field stack (erratum E-3: the thesis
    writes the pair as (suit, value) here), and completing a suit with y = n regains a
    token if t < t0.  Otherwise the card goes to D and f := f + 1; at f = f0, R := -1.
    Slot h', one past the hand, is the stack's last card [R-deck-plays]; a card the rule
    set swaps (an orange card) is discarded instead [VAR-engine-orange].
    """
    if play.slot == len(move.hand):
        card_id = _take_from_stack(move)
    else:
        card_id = _take_from_hand(move, play.slot)
    if move.tables.rule_set.is_swapped(move.config, move.deck[card_id]):
        _to_discard(move, card_id)
    else:
        _judge_play(move, card_id)


def _judge_play(move: MoveVariables, card_id: CardId) -> None:
    """Step 2c's test and its two branches for the card ``card_id`` [2.16-2c-success,
    2.16-2c-five, 2.16-2c-fail, 2.16-2c-strikeout, E-10]: the game's rule set says
    whether the play succeeds and what F[x] becomes
    (:meth:`~hanabi_ref.engine.variants.ruleset.RuleSet.played_height`)."""
    config = move.config
    card = move.deck[card_id]
    suit, value = move.tables.suit_of[card], move.tables.rank_of[card] + 1
    height = move.tables.rule_set.played_height(config, move.deck, move.played, move.fireworks, suit, value)
    if height is not None:
        move.fireworks = replaced(move.fireworks, suit, height)
        move.played = move.played + (card_id,)
        if height == move.tables.stack_height and move.clue_tokens < config.max_hints:
            move.clue_tokens += 1
    else:
        # [E-10] "Otherwise" is the failure branch of the success test.
        move.discard = move.discard + (card_id,)
        move.strikes += 1
        if config.max_errors is not None and move.strikes == config.max_errors:
            move.remaining = -1
    move.success = height is not None


# ---------------------------------------------------- steps 2b and 2c: the draw


def process_draw(move: MoveVariables, ends_game: bool) -> None:
    """[2.16-2b-draw, 2.16-2c-draw] P_C := P_C with the top card added, its K = Cards(H),
    S := S minus it (s_1 is the current top card, E-23); nothing is drawn from an empty
    stack (E-5), nor by the move that ends the game when ``draw_after_final_move`` is
    off [R-3]."""
    if move.next_card >= len(move.deck):
        return
    if ends_game and not move.config.options.draw_after_final_move:
        return
    drawn, fresh = cast(CardId, move.next_card), move.tables.all_cards_mask
    if move.config.options.draw_position == "newest-first":
        move.hand, move.known = (drawn,) + move.hand, (fresh,) + move.known
    else:
        move.hand, move.known = move.hand + (drawn,), move.known + (fresh,)
    move.next_card = drawn + 1
    move.drawn = drawn


# -------------------------------------------------------- end of step 2 [2.16-2]


def process_turn_end(move: MoveVariables) -> None:
    """After making a move: C := C + 1 (mod p, erratum E-7), and R := R - 1 if R > 0
    [2.16-2-next, 2.16-2-R]."""
    if move.remaining is not None and move.remaining > 0:
        move.remaining -= 1
    move.current_player = (move.current_player + 1) % move.config.players
    move.turns += 1


# ---------------------------------------------------------------- step 3 [2.16-3]


def process_stop_check(move: MoveVariables, stop: str | None) -> None:
    """Step 3: STOP if R = -1 (score 0), R = 0 (score the fields) or every field is
    complete (score n*k), under the option ``end_when_no_points_possible`` once no
    further point can be scored [R-1], and under ``end_when_nothing_playable`` once in the
    last round no player who still moves holds a card a stack may take [R-4]; ``stop`` is the clause that stops the game, as
    :func:`~hanabi_ref.engine.state.stop_clause` decided it once for this move.  Otherwise, if
    R is infinite and S is empty, R := p [2.16-3, 2.16-3-strikeout, 2.16-3-R0,
    2.16-3-max, 2.16-3-last-round]."""
    stack_empty = move.next_card == len(move.deck)
    move.remaining, move.terminal = stop_check(move.config, stop, move.remaining, stack_empty)
    if not move.terminal and move.config.options.end_when_nothing_playable:
        # in the last round, nobody who still moves holds a card a stack may take
        move.terminal = is_nothing_playable_left(move.tables, move.deck, move.fireworks, move.played, move.all_hands(),
                                                 move.current_player, move.remaining)


def stop_check(config: GameConfig, stop: str | None, remaining: int | None, stack_empty: bool) -> tuple[int | None, bool]:
    """Step 3 on plain values: (R, whether the game stopped), given the clause that stops
    it or None; if it goes on with R infinite and S empty, R := p [2.16-3,
    2.16-3-last-round].  Used after every move and once after step 1 (E-6)."""
    if stop is not None:
        return remaining, True
    if remaining is None and stack_empty:
        return config.players, False
    return remaining, False


# ---------------------------------------------------------------- the record [2.17-history]


def record_event(move: MoveVariables, action: Action, turn: int) -> None:
    """The move's public record joins the history: the action, the card played or
    discarded and its identity, whether a play succeeded, the ids a hint touched and
    the id of the card drawn; ``turn`` is the move's number [2.17-history]."""
    event = new_event(turn, move.mover, action, move.left_hand, move.card, move.success, move.touched, move.drawn)
    move.history = move.history.appended(event)


# ---------------------------------------------------------------- apply [2.16-2]


def apply(state: GameState, action: Action) -> GameState:
    """One pass through steps 2 and 3: the action's step, the end of the move, step 3.

    Raises :class:`IllegalActionError` naming the clause an illegal action breaks
    [2.16-2]."""
    problem = illegality(state, action)
    if problem is not None:
        raise IllegalActionError(*problem)
    return successor(state, action)


def apply_legal(state: GameState, action: Action) -> GameState:
    """:func:`apply` for an action known to be legal, such as one taken from
    :func:`~hanabi_ref.engine.legality.legal_actions` of ``state``: legality is not decided a
    second time [2.16-2].  With contracts on it is still checked, as a precondition
    whose violation is a bug of the caller, and the move is checked against every clause
    it touches (:func:`hanabi_ref.engine.conditions.check_move`)."""
    if ENABLED:
        conditions.check_legal(state, action)
    return successor(state, action)


def successor(state: GameState, action: Action) -> GameState:
    """The state after a legal ``action``: the action's step, the end of the move and
    step 3, on plain values, then one state [2.16-2, 2.16-3]; with contracts on, the move
    is checked against every clause it touches [CT-move]."""
    move = MoveVariables(state)
    if isinstance(action, Hint):
        process_hint(move, action)  # step 2a
    elif isinstance(action, Discard):
        process_discard(move, action)  # step 2b
    else:
        process_play(move, action)  # step 2c
    process_turn_end(move)  # the end of step 2
    stop = stop_clause(move.tables, move.deck, move.fireworks, move.discard, move.remaining, move.played)
    if move.left_hand is not None:
        process_draw(move, stop is not None)  # 2b, 2c: the draw, after step 3's test
    process_stop_check(move, stop)  # step 3
    record_event(move, action, state.turns)  # 2.17-history
    result = move.finish()
    if ENABLED:
        conditions.check_move(state, action, result)
    return result
