"""An exact solver for open Hanabi [SV-open, SV-moves, SV-bounds, SV-late, SV-key,
SV-result, SV-best] (spec/solver.md).

The open game is the game of a configuration and a deck in which every player sees every
card and the order of the stack (Definition 3.1 ff.); a hint then tells nothing, so it is
a pass that costs a token.  :func:`solve_deck` answers "can this deck reach the target?"
with the solver of :mod:`hanabi_ref.tools.solver.core` on positions of its own: a winning line
(the engine's actions from the deal, replayed by the engine: the certificate), "no" after
a completed search, or "undecided" when the budget ran out.  :func:`plain_search` is the
reference it is tested against: depth first over the engine's own states (every move is
:func:`hanabi_ref.engine.transition.apply_legal`), remembering the positions proven lost.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.cards import rank_of, suit_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.tools.solver.core import OpenGame, late_draws_fit, solve_open, to_engine_line
from hanabi_ref.engine.state import GameState, attainable_heights, max_attainable_score, score
from hanabi_ref.engine.transition import apply, apply_legal, check_deck, initial_state
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.variants.ruleset import THESIS

Key = tuple[object, ...]


@attrs.frozen
class Solution:
    """[SV-result] what the solver found for one deck and one target score."""

    target: int
    reachable: bool | None
    """True: ``line`` reaches the target; False: the search completed without reaching
    it; None: the budget ran out first (undecided, never guessed)"""
    line: tuple[Action, ...] | None
    nodes: int
    """positions expanded"""
    seconds: float
    reason: str | None = None
    """for an unreachable target found without search, the cheap reason"""
    cuts: dict[str, int] = attrs.field(factory=dict, eq=False)
    """how often each rule cut a position (the rule's clause id)"""


class _OutOfBudget(Exception):
    pass


def key_of(state: GameState) -> Key:
    """[SV-key] what decides the rest of an open game: the fields, every hand as a
    multiset of identities, how much of the stack is drawn, tokens, errors, the seat to
    move and the last round's count.  The discard pile is implied (every card drawn that
    is neither in a hand nor on a field), and the order of cards in a hand does not
    matter when every card is seen."""
    deck = state.deck
    hands = tuple(tuple(sorted(deck[card] for card in hand)) for hand in state.hands)
    return (state.fireworks, hands, state.next_card, state.clue_tokens, state.strikes, state.current_player, state.remaining)


def plays_left_bound(state: GameState) -> int:
    """[SV-bounds] at most this many cards can still be played: every play is a turn;
    before the stack runs out every play draws a card, and once it is empty the last
    round gives each seat one more turn."""
    if state.remaining is not None:
        return state.remaining
    return len(state.deck) - state.next_card + state.config.players


def late_cards_fit(state: GameState) -> bool:
    """[SV-late] whether the cards still needed for the maximum can be played in time
    (:func:`hanabi_ref.tools.solver.core.late_draws_fit`, with the first draws read from the
    state's stack)."""
    if state.remaining is not None:
        return True  # the stack is empty: plays_left_bound says it all
    config, deck = state.config, state.deck
    stack = len(deck) - state.next_card
    first = [stack + 1] * (config.values * config.suit_count)
    for depth in range(stack, 0, -1):
        first[deck[state.next_card + depth - 1]] = depth
    for hand in state.hands:
        for card in hand:
            first[deck[card]] = 0
    return late_draws_fit(config.values, config.players, state.fireworks, first, stack)


def needed(state: GameState, target: int) -> int:
    return target - score(state)


def moves(state: GameState) -> list[Action]:
    """[SV-moves] the moves the search tries, in order, one per identity (two equal
    cards in a hand have the same future): plays of playable cards, lowest value first;
    discards of cards already played or out of reach; one hint (every hint is the same
    pass in an open game); the other discards, highest value first; plays that fail,
    when they cannot end the game."""
    config = state.config
    hand = state.hands[state.current_player]
    legal = legal_actions(state)
    legal_set = set(legal)
    seen: dict[int, int] = {}
    for slot, card in enumerate(hand):
        seen.setdefault(state.deck[card], slot)
    reach = _reachable_heights(state)
    plays: list[tuple[int, Action]] = []
    misplays: list[Action] = []
    dead: list[Action] = []
    other: list[tuple[int, Action]] = []
    for identity, slot in seen.items():
        suit, value = state.tables.suit_of[identity], state.tables.rank_of[identity]
        if state.fireworks[suit] == value:
            plays.append((value, Play(slot)))
        elif config.max_errors is None or state.strikes + 1 < config.max_errors:
            misplays.append(Play(slot))
        if Discard(slot) in legal_set:
            if value < state.fireworks[suit] or value >= reach[suit]:
                dead.append(Discard(slot))
            else:
                other.append((-value, Discard(slot)))
    hints = [action for action in legal if isinstance(action, Hint)][:1]
    return ([action for _, action in sorted(plays, key=lambda pair: pair[0])] + dead + hints
            + [action for _, action in sorted(other, key=lambda pair: pair[0])] + misplays)


def _reachable_heights(state: GameState) -> list[int]:
    """The height each suit can still reach (R-1's, from the discard pile)."""
    discarded = [0] * (state.config.values * state.config.suit_count)
    for card in state.discard:
        discarded[state.deck[card]] += 1
    return attainable_heights(state.config, state.fireworks, discarded)


def _prepare(config: GameConfig, deck: Sequence[int], target: int | None, max_nodes: int,
             seconds: float | None) -> tuple[int, float, GameState, Solution | None]:
    """What both searches do first: the target, the input checked (SV-input), the clock
    started, the deal, and the answer when a cheap reason (SV-bounds, SV-late) settles it."""
    goal = tables_for(config).max_score if target is None else target
    check_input(config, deck, goal, max_nodes, seconds)
    start = time.monotonic()
    state = initial_state(config, tuple(deck))
    reason = impossibility(state, goal)
    cheap = None if reason is None else Solution(goal, False, None, 0, time.monotonic() - start, reason)
    return goal, start, state, cheap


def solve_deck(config: GameConfig, deck: Sequence[int], target: int | None = None, max_nodes: int = 1_000_000,
               seconds: float | None = None, without: frozenset[str] = frozenset()) -> Solution:
    """[SV-result, SV-restarts] can the open game of ``deck`` reach ``target`` (default:
    the maximum score)?  A winning line (the engine's actions, replayed here by the
    engine before it is returned), a completed search, or undecided when ``max_nodes``
    positions (or ``seconds`` of wall time) were not enough.  The search runs on the
    solver's own positions (:mod:`hanabi_ref.tools.solver.core`) with restarts; ``without``
    leaves ideas out to measure them (:data:`hanabi_ref.tools.solver.core.IDEAS`)."""
    goal, start, _, cheap = _prepare(config, deck, target, max_nodes, seconds)
    if cheap is not None:
        return cheap
    game = OpenGame(config, deck)
    deadline = None if seconds is None else start + seconds
    found, moves, stats = solve_open(game, goal, max_nodes, deadline, without=without)
    line = None
    if found:
        assert moves is not None
        line, final = to_engine_line(game, moves)
        if score(final) < goal:  # never expected: the model's moves are the engine's
            raise AssertionError(f"the winning line replays to {score(final)}, not {goal}")
    return Solution(goal, found, line, stats.nodes, time.monotonic() - start, None, dict(stats.cuts))


def best_score(config: GameConfig, deck: Sequence[int], max_nodes: int = 1_000_000) -> tuple[int | None, Solution]:
    """[SV-best] the best score the open game of ``deck`` can reach: the maximum when it
    is reachable, else the highest lower target the solver reaches, each target searched
    within ``max_nodes`` positions.  (None, the undecided solution) when a target on the
    way was undecided; the solution returned is that of the best target."""
    solution = solve_deck(config, deck, max_nodes=max_nodes)
    if solution.reachable is not False:
        return (tables_for(config).max_score if solution.reachable else None), solution
    best, solution, _ = best_below(config, deck, max_nodes)
    return best, solution


def best_below(config: GameConfig, deck: Sequence[int], max_nodes: int,
               seconds: float | None = None) -> tuple[int | None, Solution, int]:
    """[SV-best] for a deck that cannot reach the maximum: its best score (None when a
    target was undecided), the solution of the last target searched and the positions
    all the targets took.  The targets are tried downward from the maximum - 1."""
    nodes = 0
    goal = tables_for(config).max_score - 1
    while True:
        solution = solve_deck(config, deck, goal, max_nodes, seconds)
        nodes += solution.nodes
        if solution.reachable is None:
            return None, solution, nodes
        if solution.reachable or goal == 0:
            return (goal if solution.reachable else 0), solution, nodes
        goal -= 1


def plain_search(config: GameConfig, deck: Sequence[int], target: int | None = None, max_nodes: int = 1_000_000,
                 seconds: float | None = None) -> Solution:
    """[SV-result] the reference search the tests compare :func:`solve_deck` with: depth
    first over the engine's own states (every move is
    :func:`hanabi_ref.engine.transition.apply_legal`) in SV-moves' order, with SV-bounds, SV-late
    and SV-key's memory of lost positions and nothing else."""
    goal, start, state, cheap = _prepare(config, deck, target, max_nodes, seconds)
    if cheap is not None:
        return cheap
    lost: set[Key] = set()
    line: list[Action] = []
    nodes = [0]
    deadline = None if seconds is None else start + seconds

    def search(state: GameState) -> bool:
        if score(state) >= goal:
            return True
        if state.terminal:
            return False
        if max_attainable_score(state) < goal or needed(state, goal) > plays_left_bound(state):
            return False
        if goal == state.tables.max_score and not late_cards_fit(state):
            return False
        key = key_of(state)
        if key in lost:
            return False
        nodes[0] += 1
        if nodes[0] > max_nodes or (deadline is not None and nodes[0] % 1024 == 0 and time.monotonic() > deadline):
            raise _OutOfBudget
        for action in moves(state):
            line.append(action)
            if search(apply_legal(state, action)):
                return True
            line.pop()
        lost.add(key)
        return False

    try:
        found = search(state)
    except _OutOfBudget:
        return Solution(goal, None, None, nodes[0], time.monotonic() - start)
    return Solution(goal, found, tuple(line) if found else None, nodes[0], time.monotonic() - start)


def check_input(config: GameConfig, deck: Sequence[int], goal: int, max_nodes: int, seconds: float | None) -> None:
    """[SV-input] :class:`ConfigError`, one line naming what is wrong: a deck that is
    not a permutation of the configuration's cards (the engine's own check, 2.9-S0), a
    target outside 0 .. maximum, a budget that is not positive, a variant whose stacks or
    plays the bounds do not model (Up or Down, orange suits): any rule set but the
    thesis' (:data:`~hanabi_ref.engine.variants.ruleset.THESIS`)."""
    tables = tables_for(config)
    if tables.rule_set is not THESIS:
        raise ConfigError(f"variant: {config.variant!r} is not supported by the solver (its bounds assume stacks built "
                          "upwards and plays that play; Up or Down and orange suits break both)")
    check_deck(config, tuple(deck))
    if not 0 <= goal <= tables.max_score:
        raise ConfigError(f"target: must be 0 .. {tables.max_score}, got {goal}")
    if max_nodes < 1:
        raise ConfigError(f"node budget: must be at least 1, got {max_nodes}")
    if seconds is not None and not seconds > 0:
        raise ConfigError(f"time limit: must be more than 0 seconds, got {seconds}")


def impossibility(state: GameState, goal: int) -> str | None:
    """[SV-bounds] a reason, found without search, why ``goal`` cannot be reached: a
    card still needed whose every copy is gone, or more cards to play than turns that can
    play."""
    if max_attainable_score(state) < goal:
        return "a card still needed has no copy left"
    if needed(state, goal) > plays_left_bound(state):
        return f"{needed(state, goal)} cards still to play but at most {plays_left_bound(state)} turns that play"
    if goal == state.tables.max_score and not late_cards_fit(state):
        return "the cards that wait for late draws outnumber the turns after them"
    return None


def replay(config: GameConfig, deck: Sequence[int], line: Sequence[Action]) -> GameState:
    """[SV-result] the certificate checked: the engine plays the line from the deal
    (every action checked for legality) and returns the final state."""
    state = initial_state(config, tuple(deck))
    for action in line:
        state = apply(state, action)
    return state


def narrate(config: GameConfig, deck: Sequence[int], line: Sequence[Action]) -> list[str]:
    """[SV-result] a line told move by move, as the engine replays it: the turn, the seat,
    what it did (a hint is a pass in the open game, so only its cost is told), and then
    the score, the tokens, the errors and the cards left in the stack."""
    from hanabi_ref.formats.hanablive import card_name

    state = initial_state(config, tuple(deck))
    told = []
    for action in line:
        seat, hand = state.current_player, state.hands[state.current_player]
        if isinstance(action, Hint):
            what = "passes (a hint)"
        else:
            identity = state.deck[hand[action.slot]]
            card = card_name(config, identity)
            playable = state.fireworks[suit_of(identity, config.values)] == rank_of(identity, config.values)
            what = f"discards {card}" if isinstance(action, Discard) else (f"plays {card}" if playable else f"misplays {card}")
        state = apply(state, action)
        told.append(f"{state.turns:>3} seat {seat} {what:<16} score {score(state):>2}, tokens {state.clue_tokens}, "
                    f"errors {state.strikes}, stack {len(state.deck) - state.next_card}")
    return told
