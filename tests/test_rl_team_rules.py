"""The move rule of the recommendation team (spec/rl.md, RL-train-turn), checked on whole
games of the teacher's team: every move is predicted from the rule's five steps, with
the stale check of step 1 computed here from the engine's state (the copies a seat does
not see) and the cards played since the seat's recommendation, tracked here from the
events.
"""

from __future__ import annotations

from collections import Counter

import pytest

from hanabi_ref.actions import Action, Discard, Hint, Play
from hanabi_ref.dealing import deck_from_seed
from hanabi_ref.legality import is_legal
from hanabi_ref.rl.encoders import public_observation
from hanabi_ref.rl.train.team import TeamStrategy, teacher, teacher_hat
from hanabi_ref.rules import make_config
from hanabi_ref.state import GameState
from hanabi_ref.strategies.knowledge import composition_counts
from hanabi_ref.transition import apply, initial_state
from hanabi_ref.view import make_view


def unseen_copies(state: GameState, seat: int, identity: int) -> int:
    """Copies of ``identity`` the seat does not see: the deck's, less the other hands',
    the discard pile's and the fields'."""
    config = state.config
    seen = Counter(state.deck[c] for other, cards in enumerate(state.hands) if other != seat for c in cards)
    seen += Counter(state.deck[c] for c in state.discard)
    seen += Counter(suit * config.values + value for suit, height in enumerate(state.fields) for value in range(height))
    return composition_counts(config)[identity] - seen[identity]


def predicted(state: GameState, seat: TeamStrategy, played_since: list[int]) -> tuple[str, Action | None]:
    """RL-train-turn's step and move for the seat to move (None when no step applies:
    every token, no legal message, and no legal reveal that carries no sum)."""
    me, h = state.current, seat.code.hand_size
    value = seat.memory.received
    hand = state.hands[me]
    stale = any(unseen_copies(state, me, identity) > 0 for identity in played_since)
    if value is not None and value >= h and value - h < len(hand) and not stale:
        return "play", Play(value - h)
    view = make_view(state, me)
    if state.hints > 0:
        total = sum(teacher_hat(view, target) for target in seat.code.receivers(me)) % seat.code.alphabet
        reveal = seat.code.reveal(seat.code.encoding_for(total, view), me)
        if is_legal(state, reveal):
            return "message", reveal
    if value is not None and value < len(hand) and is_legal(state, Discard(value)):
        return "discard", Discard(value)
    newest = hand.index(max(hand))
    if is_legal(state, Discard(newest)):
        return "newest", Discard(newest)
    code = seat.code
    silent = [e for e in range(code.reveals) if is_legal(state, code.reveal(e, me))
              and code.embedding.recover(e, lambda: public_observation(view, me)) >= code.alphabet]
    # With no legal reveal that carries no sum the clause prescribes nothing (None).
    return ("silent", code.reveal(silent[0], me)) if silent else ("no silent reveal", None)


@pytest.mark.checks("RL-train-turn")
@pytest.mark.parametrize("players", (4, 5))
def test_every_move_of_the_team_is_the_rules(players: int) -> None:
    """[RL-train-turn] whole games of the teacher's team under hle: (1) the recommended
    play, unless its slot is empty or a card played since, playable when it was given,
    may have had its identity (a copy unseen by the seat); (2) else with a token the
    reveal of the sum of the others' recommendations, if legal; (3) else the recommended
    discard; (4) else the newest card; (5) else the first legal reveal that carries no
    sum, after which no receiver holds a recommendation (when there is none, a reveal:
    the clause says nothing more).  Every move spends the mover's recommendation.
    Steps 1 to 4 all occur, a stale play declined among them."""
    config = make_config(players, "hle")
    rule = teacher(config)
    steps: Counter[str] = Counter()
    for seed in range(6):
        seats = [TeamStrategy(config, seat, rule, "modular") for seat in range(players)]
        played_since: list[list[int]] = [[] for _ in range(players)]
        playable_then = [0] * players
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            mover = seats[state.current]
            step, expected = predicted(state, mover, played_since[state.current])
            received = mover.memory.received
            action = mover.act(make_view(state, state.current))
            if expected is None:
                assert isinstance(action, Hint) and state.hints == config.max_hints, (seed, state.turn)
            else:
                assert action == expected, (seed, state.turn, step, expected, action)
            steps[step] += 1
            steps["stale"] += step != "play" and received is not None and received >= mover.code.hand_size \
                and received - mover.code.hand_size < len(state.hands[state.current])
            state = apply(state, action)
            event = state.history[-1]
            for seat, strategy in enumerate(seats):
                strategy.observe(make_view(state, seat), event)
            assert seats[event.player].memory.received is None
            if step == "silent":
                assert all(seats[seat].memory.received is None for seat in mover.code.receivers(event.player))
            for seat in range(players):
                if isinstance(action, Hint) and seat != event.player:
                    playable_then[seat] = sum(1 << (suit * config.values + height)
                                              for suit, height in enumerate(state.fields) if height < config.values)
                    played_since[seat] = []
                elif event.success and event.card is not None and playable_then[seat] >> event.card & 1:
                    played_since[seat].append(event.card)
    assert all(steps[step] for step in ("play", "message", "discard", "newest", "stale")), steps
