"""The moves the solver's search tries and their order (spec/solver.md, SV-moves), checked
in states of real games against the clause's list, written here from the engine's
state: plays of playable identities (lowest value first), discards of identities already
played or out of reach, one hint, the other discards (highest value first), then the
plays that fail without ending the game; one move per identity.
"""

from __future__ import annotations

from collections import Counter

import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import SplitMix64, deck_from_seed
from hanabi_ref.engine.legality import is_legal, legal_actions
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.solver.search import moves
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.transition import apply, initial_state


def out_of_reach(state: GameState, suit: int, value: int) -> bool:
    """A lower card of the suit, not yet played, has no copy left (all discarded)."""
    config = state.config
    lost = Counter[int](state.deck[c] for c in state.discard)
    copies = composition_counts(config)
    return any(lost[suit * config.values + lower] >= copies[suit * config.values + lower]
               for lower in range(state.fireworks[suit], value))


def clause_moves(state: GameState) -> list[Action]:
    config, hand = state.config, state.hands[state.current_player]
    first: dict[int, int] = {}
    for slot, card in enumerate(hand):
        first.setdefault(state.deck[card], slot)
    plays, dead, others, misplays = [], [], [], []
    for identity, slot in first.items():
        suit, value = divmod(identity, config.values)
        if state.fireworks[suit] == value:
            plays.append((value, slot))
        elif config.max_errors is None or state.strikes + 1 < config.max_errors:
            misplays.append(Play(slot))
        if is_legal(state, Discard(slot)):
            if value < state.fireworks[suit] or out_of_reach(state, suit, value):
                dead.append(Discard(slot))
            else:
                others.append((-value, slot))
    hint = next((action for action in legal_actions(state) if isinstance(action, Hint)), None)
    return ([Play(slot) for _, slot in sorted(plays)] + dead + ([hint] if hint else [])
            + [Discard(slot) for _, slot in sorted(others)] + misplays)


@pytest.mark.checks("SV-moves")
@pytest.mark.parametrize("preset", ("thesis", "hle", "hanab-live"))
def test_the_moves_are_the_clauses_in_its_order(preset: str) -> None:
    """[SV-moves] in every state of seeded random games (3 players), the moves tried are
    exactly the clause's list in its order; states with two equal cards, a card out of
    reach, and every kind of move occur."""
    config = make_config(3, preset)
    seen: Counter[str] = Counter()
    for seed in range(6):
        rng = SplitMix64(seed)
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            expected = clause_moves(state)
            assert moves(state) == expected, (seed, state.turns)
            seen["equal cards"] += len({state.deck[c] for c in state.hands[state.current_player]}) < len(state.hands[state.current_player])
            seen["out of reach"] += any(out_of_reach(state, c // config.values, c % config.values)
                                        and c % config.values >= state.fireworks[c // config.values]
                                        for c in (state.deck[x] for x in state.hands[state.current_player]))
            for action in expected:
                seen[type(action).__name__] += 1
            state = apply(state, rng.choice(legal_actions(state)))
    assert all(seen[kind] for kind in ("equal cards", "out of reach", "Play", "Discard", "Hint")), seen
