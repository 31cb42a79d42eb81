"""Exhaustive search over tiny games, shared by the machine checks of proofs/ [PR-legal-action, PR-length].

The checks do not trust the engine's own enumeration of moves: every *conceivable*
action (a hint to every seat, including the mover, on every value and every clue
colour, and a play or discard of every slot up to h) is offered to
:func:`hanabi_ref.engine.legality.is_legal`, and the result is compared with
:func:`hanabi_ref.engine.legality.legal_actions`.  Successor states come from
:func:`hanabi_ref.engine.transition.apply`, the function the claims are about.

States are identified by :func:`state_key`, which keeps everything a later move can
depend on and drops only what no legality rule and no step of Algorithm 2.16 reads: the
card ids (only their identities matter, so games dealt from different orders of the same
multiset share their futures), the move counter ``turn``, the public ``history`` and,
unless asked for, the knowledge sets (:func:`check_knowledge_abstraction` confirms that
this changes nothing).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from itertools import product
from typing import Any

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play, describe
from hanabi_ref.engine.legality import is_legal, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.tables import tables_for

Composition = tuple[tuple[int, ...], ...]


def distinct_orders(cards: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every distinct ordering of a multiset of cards, each once (lexicographic
    next-permutation, so repeated copies do not repeat orders)."""
    order = sorted(cards)
    while True:
        yield tuple(order)
        i = len(order) - 2
        while i >= 0 and order[i] >= order[i + 1]:
            i -= 1
        if i < 0:
            return
        j = len(order) - 1
        while order[j] <= order[i]:
            j -= 1
        order[i], order[j] = order[j], order[i]
        order[i + 1 :] = reversed(order[i + 1 :])


def multiset_permutation_count(counts: Sequence[int]) -> int:
    """N! / (c_1! c_2! ...), the number of distinct orders of a multiset."""
    total, result = 0, 1
    for count in counts:
        for i in range(1, count + 1):
            total += 1
            result = result * total // i
    return result


def state_key(state: GameState, with_knowledge: bool = False) -> Hashable:
    """Everything the future of a state depends on, with card ids replaced by identities.

    The knowledge sets K_c are left out unless ``with_knowledge``: no legality rule, no
    step of Algorithm 2.16 and no stopping rule reads them (a hint is legal or not by
    the *cards* it touches, 2a writes K_c but reads only the hand), so states that differ
    only in knowledge have the same moves, the same successors up to knowledge and the
    same outcomes.  :func:`check_knowledge_abstraction` confirms this on small games."""
    deck = state.deck
    return (
        tuple(tuple(deck[c] for c in hand) for hand in state.hands),
        state.knowledge if with_knowledge else None,
        deck[state.next_card :],
        state.fireworks,
        tuple(sorted(deck[c] for c in state.discard)),
        state.clue_tokens,
        state.strikes,
        state.current_player,
        state.remaining,
        state.terminal,
    )


def conceivable_actions(config: GameConfig) -> list[Action]:
    """Every action with in-range shape, legal or not: hints to every seat (the mover's
    own seat included), every value and clue colour, plays and discards of slots 0..h-1."""
    actions: list[Action] = []
    for target in range(config.players):
        actions.extend(Hint(target, "value", v) for v in range(1, config.values + 1))
        actions.extend(Hint(target, "colour", c) for c in range(len(config.colours)))
    for slot in range(config.hand_size):
        actions.append(Discard(slot))
        actions.append(Play(slot))
    return actions


def checked_legal_actions(state: GameState, candidates: Sequence[Action]) -> list[Action]:
    """The candidates ``is_legal`` accepts, after asserting that ``legal_actions``
    lists exactly these (as a set, without duplicates)."""
    legal = [action for action in candidates if is_legal(state, action)]
    listed = legal_actions(state)
    assert len(set(listed)) == len(listed), f"legal_actions repeats an action: {listed}"
    assert set(listed) == set(legal), f"legal_actions {listed} != is_legal {legal}"
    return legal


def initial_states(config: GameConfig) -> Iterator[GameState]:
    """The state after step 1 (and step 3, if the option says so) for every deck order."""
    for deck in distinct_orders(tables_for(config).canonical_deck):
        yield initial_state(config, deck)


def tiny_config(
    players: int,
    composition: Composition,
    hand_size: int,
    hints: int,
    errors: int | None,
    options: Mapping[str, bool | str],
) -> GameConfig:
    """A custom configuration on the thesis preset with overridden rule options."""
    overrides: dict[str, Any] = dict(options)  # rule options only, never preset/variant
    return make_config(
        players,
        composition=[list(suit) for suit in composition],
        hand_size=hand_size,
        hints=hints,
        errors=errors,
        **overrides,
    )


OPTION_NAMES = (
    "empty_hints",
    "discard_at_max_hints",
    "end_when_no_points_possible",
    "self_hints",
    "draw_after_final_move",
)


def option_combinations(initial_stop_check: bool = True) -> list[dict[str, bool]]:
    """Every combination of the boolean rule options that bear on legality, on stopping
    or on the hands (self_hints needs empty_hints, as the configuration validator
    requires): 24 combinations.  The presets hle and hanab-live are among them; they
    cannot be named directly because they admit only their own variants, not a custom
    composition.  The other options (deal, draw_position, strikeout_score) only permute
    slots or change a score; :data:`SLOT_AND_SCORE_OPTIONS` covers them separately."""
    combinations = []
    for values in product((True, False), repeat=len(OPTION_NAMES)):
        options = dict(zip(OPTION_NAMES, values))
        if options["self_hints"] and not options["empty_hints"]:
            continue
        options["initial_stop_check"] = initial_stop_check
        combinations.append(options)
    return combinations


# The option bundles of the presets (spec/rules.md, P-presets), plus self hints.
PRESET_OPTIONS: dict[str, dict[str, bool]] = {
    "thesis": {},
    "hle": {"empty_hints": False, "discard_at_max_hints": False, "draw_after_final_move": False},
    "hanab-live": {"empty_hints": False, "discard_at_max_hints": False, "end_when_no_points_possible": True,
                   "end_when_nothing_playable": True},
    "self-hints": {"self_hints": True},
}

# The options that are not booleans, each set away from its default once.
SLOT_AND_SCORE_OPTIONS: list[dict[str, str]] = [
    {"deal": "round-robin"},
    {"draw_position": "newest-first"},
    {"strikeout_score": "fireworks"},
]


def length_bound(config: GameConfig) -> int:
    """[PR-length] t0 + 2 (N - p h) + p."""
    return config.max_hints + 2 * (tables_for(config).deck_size - config.players * config.hand_size) + config.players


def successors(state: GameState, candidates: Sequence[Action]) -> Iterator[GameState]:
    """The states one legal move away."""
    for action in checked_legal_actions(state, candidates):
        yield apply(state, action)


def explore(
    config: GameConfig,
    visit: Callable[[GameState], None],
    with_knowledge: bool = False,
) -> int:
    """Breadth-first search over every state reachable by legal play from every deck
    order; ``visit`` sees each distinct state once (terminal ones included).  Returns the
    number of distinct states."""
    candidates = conceivable_actions(config)
    seen: set[Hashable] = set()
    queue: deque[GameState] = deque()
    for state in initial_states(config):
        key = state_key(state, with_knowledge)
        if key not in seen:
            seen.add(key)
            queue.append(state)
    while queue:
        state = queue.popleft()
        visit(state)
        if state.terminal:
            continue
        for successor in successors(state, candidates):
            key = state_key(successor, with_knowledge)
            if key not in seen:
                seen.add(key)
                queue.append(successor)
    return len(seen)


@attrs.frozen
class LongestGame:
    """The result of a longest-path search: the most moves any legal game takes, and
    one game (deck and actions) that takes them."""

    moves: int
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    states: int


class DeadEndError(AssertionError):
    """A non-terminal state without a legal action: the game could not go on."""


def longest_game(config: GameConfig, with_knowledge: bool = False) -> LongestGame:
    """Depth-first longest path, memoised on :func:`state_key`, from every deck order.

    The graph of states is acyclic (every move either puts a card on a field stack or
    the discard pile, or spends a hint token without changing those areas), so the
    recursion terminates; a non-terminal state without moves raises DeadEndError."""
    candidates = conceivable_actions(config)
    memo: dict[Hashable, tuple[int, Action | None]] = {}

    def longest_from(state: GameState) -> int:
        key = state_key(state, with_knowledge)
        if key in memo:
            return memo[key][0]
        if state.terminal:
            memo[key] = (0, None)
            return 0
        best, best_action = -1, None
        for action in checked_legal_actions(state, candidates):
            length = 1 + longest_from(apply(state, action))
            if length > best:
                best, best_action = length, action
        if best_action is None:
            raise DeadEndError(f"no legal action in a non-terminal state: {describe_state(state)}")
        memo[key] = (best, best_action)
        return best

    best_length, best_state = -1, None
    for state in initial_states(config):
        length = longest_from(state)
        if length > best_length:
            best_length, best_state = length, state
    assert best_state is not None
    actions: list[Action] = []
    state = best_state
    while not state.terminal:
        action = memo[state_key(state, with_knowledge)][1]
        assert action is not None
        actions.append(action)
        state = apply(state, action)
    assert len(actions) == best_length
    return LongestGame(best_length, best_state.deck, tuple(actions), len(memo))


def describe_state(state: GameState) -> str:
    """A one-line account of a state for failure messages."""
    n = state.config.values
    hands = [[f"{state.deck[c] % n + 1}/S{state.deck[c] // n + 1}" for c in hand] for hand in state.hands]
    return (
        f"deck={list(state.deck)} hands={hands} stack={len(state.deck) - state.next_card} "
        f"fields={list(state.fireworks)} hints={state.clue_tokens} errors={state.strikes} "
        f"current={state.current_player} R={'inf' if state.remaining is None else state.remaining} "
        f"moves={[describe(e.action) for e in state.history]}"
    )


def check_knowledge_abstraction(config: GameConfig) -> None:
    """Leaving K_c out of the state key changes nothing: searching with the full key
    reaches exactly the same knowledge-free states and the same longest game."""
    with_full: set[Hashable] = set()
    without: set[Hashable] = set()
    explore(config, lambda state: with_full.add(state_key(state)), with_knowledge=True)
    explore(config, lambda state: without.add(state_key(state)), with_knowledge=False)
    assert with_full == without, "the knowledge sets change which states are reachable"
    full_longest = longest_game(config, with_knowledge=True).moves
    assert full_longest == longest_game(config, with_knowledge=False).moves
