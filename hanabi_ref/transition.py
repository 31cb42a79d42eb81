"""Algorithm 2.16 as pure functions, one per step [2.16].

    step 1   process_initialisation     deal, set D, F, C, t, f, M, R
    step 2a  process_hint               give a hint, update knowledge
    step 2b  process_discard            discard, draw, regain a token
    step 2c  process_play               play or misplay, draw
    step 2   process_turn_end           C := C + 1, R := R - 1
    step 3   process_stop_check         stop, or start the last round

:func:`apply` checks legality (raising :class:`IllegalActionError`), runs the step of the
chosen action, then the end of step 2, then step 3.  Legality lives in
:mod:`hanabi_ref.legality`; contracts here are the spec's conditions and never steer.
"""

from __future__ import annotations

from collections import Counter

import attrs
import icontract

from hanabi_ref.actions import Action, Discard, Hint, Play
from hanabi_ref.contracts import ENABLED
from hanabi_ref.errors import ConfigError, IllegalActionError
from hanabi_ref.legality import hint_mask, illegality, legal_actions
from hanabi_ref.rules import GameConfig
from hanabi_ref.state import Event, GameState, is_stop, is_stop_condition


def replace(state: GameState, **changes: object) -> GameState:
    """A copy of ``state`` with some fields changed (a fast ``attrs.evolve``); the new
    state's invariants are checked as for any state."""
    fields = dict(state.__dict__)
    fields.update(changes)
    return GameState(**fields)


def _unchanged(old: GameState, new: GameState, *changed: str) -> bool:
    """Postcondition helper: every field not named in ``changed`` is equal."""
    return all(
        getattr(old, field.name) == getattr(new, field.name)
        for field in attrs.fields(GameState)
        if field.name not in changed
    )


# ---------------------------------------------------------------- step 1 [2.16-1]


def deal_hands(config: GameConfig) -> tuple[tuple[int, ...], ...]:
    """[2.16-1-deal] the card ids each seat is dealt: consecutive blocks of h, seat 0
    first (erratum E-1), or one card at a time round the table (option ``deal``)."""
    p, h = config.players, config.hand_size
    if config.options.deal == "round-robin":
        hands = [tuple(range(seat, p * h, p)) for seat in range(p)]
    else:
        hands = [tuple(range(seat * h, (seat + 1) * h)) for seat in range(p)]
    if config.options.draw_position == "newest-first":
        # slot 0 holds the newest card, from the deal on.
        hands = [hand[::-1] for hand in hands]
    return tuple(hands)


def check_deck(config: GameConfig, deck: tuple[int, ...]) -> None:
    """[2.9-S0] the deck must be a permutation of the configuration's composition."""
    size = config.values * config.suit_count
    for index, card in enumerate(deck):
        if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < size:
            raise ConfigError(f"deck[{index}]: {card!r} is not a card of this game")
    if Counter(deck) != Counter(config.canonical_deck):
        raise ConfigError(
            f"deck: its {len(deck)} cards are not the composition of variant "
            f"{config.variant!r} ({config.deck_size} cards)"
        )


@icontract.ensure(lambda result: result.discard == () and all(h == 0 for h in result.fields), "2.16-1: D and every F[i] start empty", enabled=ENABLED)
@icontract.ensure(lambda config, result: result.hints == config.hints and result.errors == 0 and result.current == 0, "2.16-1: t = t0, f = 0, C is the first seat", enabled=ENABLED)
@icontract.ensure(lambda config, result: result.next_card == config.players * config.hand_size, "2.16-1-deal: S starts after the p*h dealt cards", enabled=ENABLED)
@icontract.ensure(lambda config, result: all(k == config.all_cards_mask for known in result.knowledge for k in known), "2.14-initial: every K_c is Cards(H)", enabled=ENABLED)
def process_initialisation(config: GameConfig, deck: tuple[int, ...]) -> GameState:
    """Step 1: deal the hands, empty D and F, t := t0, f := 0, C := first seat, R := inf,
    every K_c := Cards(H) [2.16-1, 2.16-1-deal, 2.14-initial, E-22].  Step 3 is then
    evaluated once (erratum E-6): if the stack is already empty, the last round starts
    at once."""
    check_deck(config, deck)
    hands = deal_hands(config)
    state = GameState(
        config=config,
        deck=deck,
        next_card=config.players * config.hand_size,
        hands=hands,
        knowledge=tuple((config.all_cards_mask,) * len(hand) for hand in hands),
        fields=(0,) * config.suit_count,
        played=(),
        discard=(),
        hints=config.hints,
        errors=0,
        current=0,
        remaining=None,
        turn=0,
        history=(),
        terminal=False,
    )
    if config.options.initial_stop_check:
        return process_stop_check(state)
    return state


def initial_state(config: GameConfig, deck: tuple[int, ...] | list[int]) -> GameState:
    """The state before the first move for a configuration and a deck (S0, top first)."""
    return process_initialisation(config, tuple(deck))


# ---------------------------------------------------------------- step 2a [2.16-2a]


def _hint_postcondition(state: GameState, hint: Hint, result: GameState) -> bool:
    mask = hint_mask(state.config, hint)
    for seat, (old, new) in enumerate(zip(state.knowledge, result.knowledge)):
        if seat != hint.target and old != new:
            return False
    for card_id, old_k, new_k in zip(state.hands[hint.target], state.knowledge[hint.target], result.knowledge[hint.target]):
        touched = mask >> state.deck[card_id] & 1
        if new_k != (old_k & mask if touched else old_k & ~mask):
            return False
    return True


@icontract.require(lambda state, hint: illegality(state, hint) is None, "2.16-2a: the hint is legal", enabled=ENABLED)
@icontract.ensure(lambda state, result: result.hints == state.hints - 1, "2.16-2a-cost: t := t - 1", enabled=ENABLED)
@icontract.ensure(lambda state, hint, result: _hint_postcondition(state, hint, result), "2.16-2a-value, 2.16-2a-suit: only the target's knowledge changes, as 2a says", enabled=ENABLED)
@icontract.ensure(lambda state, result: _unchanged(state, result, "knowledge", "hints", "history"), "2.16-2a: a hint changes nothing but K and t", enabled=ENABLED)
def process_hint(state: GameState, hint: Hint) -> GameState:
    """Step 2a: a hint on a value or a clue colour [2.16-2a, 2.16-2a-value, 2.16-2a-suit,
    2.16-2a-cost].

    A card the hint touches keeps only identities the hint would touch; every other card
    of the target loses all of them (negative information).  A hint touching no card is
    legal only under the option ``empty_hints`` [2.16-2a-empty].
    """
    mask = hint_mask(state.config, hint)
    target_hand = state.hands[hint.target]
    new_knowledge = []
    touched = []
    for card_id, known in zip(target_hand, state.knowledge[hint.target]):
        if mask >> state.deck[card_id] & 1:
            new_knowledge.append(known & mask)
            touched.append(card_id)
        else:
            new_knowledge.append(known & ~mask)
    knowledge = list(state.knowledge)
    knowledge[hint.target] = tuple(new_knowledge)
    event = Event(turn=state.turn, player=state.current, action=hint, touched=tuple(touched))
    return replace(
        state,
        knowledge=tuple(knowledge),
        hints=state.hints - 1,
        history=state.history + (event,),
    )


# ---------------------------------------------------- steps 2b and 2c: the draw


def _remove_slot(state: GameState, slot: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """P_C := P_C minus a; its knowledge set leaves the knowledge base with it (2b, 2c) [E-12]."""
    seat = state.current
    hands = list(state.hands)
    knowledge = list(state.knowledge)
    hands[seat] = hands[seat][:slot] + hands[seat][slot + 1 :]
    knowledge[seat] = knowledge[seat][:slot] + knowledge[seat][slot + 1 :]
    return tuple(hands), tuple(knowledge)


def _ends_game(state: GameState, fields: tuple[int, ...], discard: tuple[int, ...], remaining: int | None) -> bool:
    """Whether step 3 will stop right after this move (asked before the draw, for R-3)."""
    return is_stop(state.config, state.deck, fields, discard, remaining)


def _drawn_into(
    state: GameState,
    hands: tuple[tuple[int, ...], ...],
    knowledge: tuple[tuple[int, ...], ...],
    ends_game: bool,
) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...], int | None]:
    """[2.16-2b-draw] P_C := P_C with the top card added, its K = Cards(H), S := S minus
    it (s_1 is the current top card, E-23); nothing is drawn from an empty stack (E-5),
    nor by the move that ends the game when ``draw_after_final_move`` is off [R-3]."""
    if state.next_card >= len(state.deck):
        return hands, knowledge, None
    if ends_game and not state.config.options.draw_after_final_move:
        return hands, knowledge, None
    seat, drawn, fresh = state.current, state.next_card, state.config.all_cards_mask
    new_hands, new_knowledge = list(hands), list(knowledge)
    if state.config.options.draw_position == "newest-first":
        new_hands[seat] = (drawn,) + hands[seat]
        new_knowledge[seat] = (fresh,) + knowledge[seat]
    else:
        new_hands[seat] = hands[seat] + (drawn,)
        new_knowledge[seat] = knowledge[seat] + (fresh,)
    return tuple(new_hands), tuple(new_knowledge), drawn


def _drew_one(state: GameState, result: GameState) -> bool:
    """Postcondition of 2b and 2c: one card was drawn if the stack had one (and, under
    R-3, the move did not end the game)."""
    skipped = not state.config.options.draw_after_final_move and _ends_game(
        state, result.fields, result.discard, result.remaining
    )
    if state.next_card < len(state.deck) and not skipped:
        return result.next_card == state.next_card + 1 and state.next_card in result.hands[state.current]
    return result.next_card == state.next_card


# ---------------------------------------------------------------- step 2b [2.16-2b]


@icontract.require(lambda state, discard: illegality(state, discard) is None, "2.16-2b: the discard is legal", enabled=ENABLED)
@icontract.ensure(lambda state, discard, result: result.discard == state.discard + (state.hands[state.current][discard.slot],), "2.16-2b-discard: D := (d_1, ..., d_M, a)", enabled=ENABLED)
@icontract.ensure(lambda state, result: result.hints == min(state.hints + 1, state.config.hints), "2.16-2b-token: t := t + 1 if t < t0", enabled=ENABLED)
@icontract.ensure(lambda state, result: _drew_one(state, result), "2.16-2b-draw: the top card of S is drawn", enabled=ENABLED)
@icontract.ensure(lambda state, result: _unchanged(state, result, "hands", "knowledge", "next_card", "discard", "hints", "history"), "2.16-2b: a discard changes only P_C, K_C, S, D and t", enabled=ENABLED)
def process_discard(state: GameState, discard: Discard) -> GameState:
    """Step 2b: discard card a, draw, regain a hint token if t < t0 [2.16-2b,
    2.16-2b-discard, 2.16-2b-draw, 2.16-2b-token].

    With t = t0 the discard is legal under the thesis (no token is gained) and illegal
    under the option ``discard_at_max_hints = False`` (erratum E-2)."""
    card_id = state.hands[state.current][discard.slot]
    hands, knowledge = _remove_slot(state, discard.slot)
    discard_pile = state.discard + (card_id,)
    ends = _ends_game(state, state.fields, discard_pile, state.remaining)
    hands, knowledge, drawn = _drawn_into(state, hands, knowledge, ends)
    event = Event(turn=state.turn, player=state.current, action=discard, card_id=card_id, card=state.deck[card_id], drawn=drawn)
    return replace(
        state,
        hands=hands,
        knowledge=knowledge,
        next_card=state.next_card if drawn is None else drawn + 1,
        discard=discard_pile,
        hints=min(state.hints + 1, state.config.hints),
        history=state.history + (event,),
    )


# ---------------------------------------------------------------- step 2c [2.16-2c]


def _play_postcondition(state: GameState, play: Play, result: GameState) -> bool:
    card_id = state.hands[state.current][play.slot]
    card = state.deck[card_id]
    n = state.config.values
    suit, value = card // n, card % n + 1
    if state.fields[suit] == value - 1:
        bonus = 1 if value == n and state.hints < state.config.hints else 0
        return (
            result.fields[suit] == value
            and result.played == state.played + (card_id,)
            and result.hints == state.hints + bonus
            and result.discard == state.discard
            and result.errors == state.errors
        )
    strikeout = state.config.errors is not None and state.errors + 1 == state.config.errors
    return (
        result.fields == state.fields
        and result.discard == state.discard + (card_id,)
        and result.errors == state.errors + 1
        and result.hints == state.hints
        and (result.remaining == -1) == strikeout
    )


@icontract.require(lambda state, play: illegality(state, play) is None, "2.16-2c: the play is legal", enabled=ENABLED)
@icontract.ensure(lambda state, play, result: _play_postcondition(state, play, result), "2.16-2c-success, 2.16-2c-five, 2.16-2c-fail, 2.16-2c-strikeout: the field, D, t, f and R change as 2c says", enabled=ENABLED)
@icontract.ensure(lambda state, result: _drew_one(state, result), "2.16-2c-draw: the top card of S is drawn", enabled=ENABLED)
@icontract.ensure(lambda state, result: _unchanged(state, result, "hands", "knowledge", "next_card", "fields", "played", "discard", "hints", "errors", "remaining", "history"), "2.16-2c: a play changes only P_C, K_C, S, F, D, t, f and R", enabled=ENABLED)
def process_play(state: GameState, play: Play) -> GameState:
    """Step 2c: play card a = (value y, suit x) [2.16-2c, 2.16-2c-success, 2.16-2c-five,
    2.16-2c-fail, 2.16-2c-strikeout, 2.16-2c-draw].

    If F[x] = (1, ..., y - 1) the card extends the field stack (erratum E-3: the thesis
    writes the pair as (suit, value) here), and completing a suit with y = n regains a
    token if t < t0.  Otherwise the card goes to D and f := f + 1; at f = f0, R := -1.
    """
    config = state.config
    card_id = state.hands[state.current][play.slot]
    card = state.deck[card_id]
    suit, value = card // config.values, card % config.values + 1
    hands, knowledge = _remove_slot(state, play.slot)
    changes: dict[str, object] = {}
    # [E-25] one success test: a 1 on an empty field is the case value = 1.
    success = state.fields[suit] == value - 1
    if success:
        fields = list(state.fields)
        fields[suit] = value
        changes["fields"] = tuple(fields)
        changes["played"] = state.played + (card_id,)
        if value == config.values and state.hints < config.hints:
            changes["hints"] = state.hints + 1
    else:
        # [E-10] "Otherwise" is the failure branch of the success test.
        changes["discard"] = state.discard + (card_id,)
        changes["errors"] = state.errors + 1
        if config.errors is not None and state.errors + 1 == config.errors:
            changes["remaining"] = -1
    ends = _ends_game(
        state,
        changes.get("fields", state.fields),  # type: ignore[arg-type]
        changes.get("discard", state.discard),  # type: ignore[arg-type]
        changes.get("remaining", state.remaining),  # type: ignore[arg-type]
    )
    hands, knowledge, drawn = _drawn_into(state, hands, knowledge, ends)
    event = Event(turn=state.turn, player=state.current, action=play, card_id=card_id, card=card, success=success, drawn=drawn)
    return replace(
        state,
        hands=hands,
        knowledge=knowledge,
        next_card=state.next_card if drawn is None else drawn + 1,
        history=state.history + (event,),
        **changes,
    )


# -------------------------------------------------------- end of step 2 [2.16-2]


@icontract.ensure(lambda state, result: result.current == (state.current + 1) % state.config.players, "2.16-2-next: C := C + 1 (mod p)", enabled=ENABLED)
@icontract.ensure(lambda state, result: result.remaining == (state.remaining - 1 if state.remaining is not None and state.remaining > 0 else state.remaining), "2.16-2-R: R := R - 1 if R > 0, infinity - 1 = infinity", enabled=ENABLED)
@icontract.ensure(lambda state, result: _unchanged(state, result, "current", "remaining", "turn"), "2.16-2: the end of a move changes only C, R and the turn count", enabled=ENABLED)
def process_turn_end(state: GameState) -> GameState:
    """After making a move: C := C + 1 (mod p, erratum E-7), and R := R - 1 if R > 0
    [2.16-2-next, 2.16-2-R]."""
    remaining = state.remaining
    if remaining is not None and remaining > 0:
        remaining -= 1
    return replace(
        state,
        current=(state.current + 1) % state.config.players,
        remaining=remaining,
        turn=state.turn + 1,
    )


# ---------------------------------------------------------------- step 3 [2.16-3]


@icontract.ensure(lambda state, result: result.terminal == is_stop_condition(state), "2.16-3: STOP exactly when R = -1, R = 0, or every field is complete", enabled=ENABLED)
@icontract.ensure(
    lambda state, result: result.remaining
    == (state.config.players if not is_stop_condition(state) and state.remaining is None and state.next_card == len(state.deck) else state.remaining),
    "2.16-3-last-round: R := p when R is infinite and S is empty",
    enabled=ENABLED,
)
@icontract.ensure(lambda state, result: _unchanged(state, result, "remaining", "terminal"), "2.16-3: step 3 changes only R and whether the game stopped", enabled=ENABLED)
def process_stop_check(state: GameState) -> GameState:
    """Step 3: STOP if R = -1 (score 0), R = 0 (score the fields) or every field is
    complete (score n*k); otherwise, if R is infinite and S is empty, R := p
    [2.16-3, 2.16-3-strikeout, 2.16-3-R0, 2.16-3-max, 2.16-3-last-round].

    Under the option ``end_when_no_points_possible`` the game also stops once no
    further point can be scored [R-1]."""
    if is_stop_condition(state):
        return replace(state, terminal=True)
    if state.remaining is None and state.next_card == len(state.deck):
        return replace(state, remaining=state.config.players)
    return state


# ---------------------------------------------------------------- apply [2.16-2]


def _has_legal_action(state: GameState) -> bool:
    """[PR-legal-action] a state that has not stopped offers its player an action."""
    return state.terminal or bool(legal_actions(state))


@icontract.ensure(lambda result: _has_legal_action(result), "PR-legal-action: the player to move has a legal action", enabled=ENABLED)
def apply(state: GameState, action: Action) -> GameState:
    """One pass through steps 2 and 3: the action's step, the end of the move, step 3.

    Raises :class:`IllegalActionError` naming the clause an illegal action breaks
    [2.16-2]."""
    problem = illegality(state, action)
    if problem is not None:
        raise IllegalActionError(*problem)
    if isinstance(action, Hint):
        moved = process_hint(state, action)
    elif isinstance(action, Discard):
        moved = process_discard(state, action)
    else:
        moved = process_play(state, action)
    return process_stop_check(process_turn_end(moved))
