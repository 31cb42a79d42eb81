"""The move rules of the learned agents' hand-coded teams (spec/rl.md), checked on whole
games: the recommendation team's (RL-train-turn), every move predicted from the rule's
five steps, with the stale check of step 1 computed here from the engine's state (the
copies a seat does not see) and the cards played since the seat's recommendation,
tracked here from the events; and the information team's (RL-train-info-turn), from the
identities its hats told each seat.
"""

from __future__ import annotations

from collections import Counter

import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import is_legal
from hanabi_ref.tools.rl.encoders import public_observation
from hanabi_ref.tools.rl.train.info import InfoSeat
from hanabi_ref.tools.rl.train.team import TeamStrategy, teacher, teacher_hat
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view


def unseen_copies(state: GameState, seat: int, identity: int) -> int:
    """Copies of ``identity`` the seat does not see: the deck's, less the other hands',
    the discard pile's and the fields'."""
    config = state.config
    seen = Counter[int](state.deck[c] for other, cards in enumerate(state.hands) if other != seat for c in cards)
    seen += Counter(state.deck[c] for c in state.discard)
    seen += Counter(suit * config.values + value for suit, height in enumerate(state.fireworks) for value in range(height))
    return composition_counts(config)[identity] - seen[identity]


def predicted(state: GameState, seat: TeamStrategy, played_since: list[int]) -> tuple[str, Action | None]:
    """RL-train-turn's step and move for the seat to move (None when no step applies:
    every token, no legal message, and no legal reveal that carries no sum)."""
    me, h = state.current_player, seat.code.hand_size
    value = seat.memory.received
    hand = state.hands[me]
    stale = any(unseen_copies(state, me, identity) > 0 for identity in played_since)
    if value is not None and value >= h and value - h < len(hand) and not stale:
        return "play", Play(value - h)
    view = make_view(state, me)
    if state.clue_tokens > 0:
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
@pytest.mark.parametrize("games", [3, pytest.param(6, marks=pytest.mark.deep)])
@pytest.mark.parametrize("players", (4, 5))
def test_every_move_of_the_team_is_the_rules(players: int, games: int) -> None:
    """[RL-train-turn] whole games of the teacher's team under hle: (1) the recommended
    play, unless its slot is empty or a card played since, playable when it was given,
    may have had its identity (a copy unseen by the seat); (2) else with a token the
    reveal of the sum of the others' recommendations, if legal; (3) else the recommended
    discard; (4) else the newest card; (5) else the first legal reveal that carries no
    sum, after which no receiver holds a recommendation (when there is none, a reveal:
    the clause says nothing more).  Every move spends the mover's recommendation.
    Steps 1 to 4 all occur, a stale play declined among them.  3 games (6 in the deep
    set)."""
    config = make_config(players, "hle")
    rule = teacher(config)
    steps: Counter[str] = Counter()
    for seed in range(games):
        seats = [TeamStrategy(config, seat, rule, "modular") for seat in range(players)]
        played_since: list[list[int]] = [[] for _ in range(players)]
        playable_then = [0] * players
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            mover = seats[state.current_player]
            step, expected = predicted(state, mover, played_since[state.current_player])
            received = mover.memory.received
            action = mover.act(make_view(state, state.current_player))
            if expected is None:
                assert isinstance(action, Hint) and state.clue_tokens == config.max_hints, (seed, state.turns)
            else:
                assert action == expected, (seed, state.turns, step, expected, action)
            steps[step] += 1
            steps["stale"] += step != "play" and received is not None and received >= mover.code.hand_size \
                and received - mover.code.hand_size < len(state.hands[state.current_player])
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
                                              for suit, height in enumerate(state.fireworks) if height < config.values)
                    played_since[seat] = []
                elif event.success and event.card is not None and playable_then[seat] >> event.card & 1:
                    played_since[seat].append(event.card)
    assert all(steps[step] for step in ("play", "message", "discard", "newest", "stale")), steps


# ------------------------------------------------------------------ RL-train-info-turn


def info_predicted(seat: InfoSeat, state: GameState) -> tuple[str, Action]:
    """RL-train-info-turn's move for the seat to move, from the identities its hats told
    it (``seat.known``) and the engine's state."""
    config, me = state.config, state.current_player
    n, code, view = config.values, seat.code, make_view(state, me)
    ids = list(state.hands[me])
    known = {slot: seat.known[card] for slot, card in enumerate(ids) if card in seat.known}
    playable = sorted((identity % n, slot) for slot, identity in known.items() if state.fireworks[identity // n] == identity % n)
    if playable:
        return "1 play", Play(playable[0][1])
    hats = seat.hats(view, me)
    total = sum(hats.values()) % code.alphabet
    if state.clue_tokens > 0:
        for encoding in range(code.reveals):
            if encoding % code.alphabet == total and is_legal(state, code.reveal(encoding, me)):
                return "2 message", code.reveal(encoding, me)
    by_age = sorted(range(len(ids)), key=ids.__getitem__)
    played = [slot for slot in by_age if slot in known and state.fireworks[known[slot] // n] > known[slot] % n]
    unknown = [slot for slot in by_age if slot not in known]
    for slot in played + unknown + by_age[:1]:
        if is_legal(state, Discard(slot)):
            return "3 discard", Discard(slot)
    best: tuple[int, int, int] | None = None
    for encoding in range(code.reveals):
        if not is_legal(state, code.reveal(encoding, me)):
            continue
        shift = (encoding % code.alphabet - total) % code.alphabet
        believed = [(hat + shift) % code.alphabet for target, hat in hats.items()
                    if shift and view.knowledge[target][seat.named_slot(view, target)] >> (hat + shift) % code.alphabet & 1]
        key = (sum(state.fireworks[x // n] == x % n for x in believed), len(believed), encoding)
        best = key if best is None or key < best else best
    assert best is not None
    return "4 forced", code.reveal(best[2], me)


@pytest.mark.checks("RL-train-info-turn")
@pytest.mark.parametrize("games", [4, pytest.param(8, marks=pytest.mark.deep)])
def test_every_move_of_the_information_team_is_the_rules(games: int) -> None:
    """[RL-train-info-turn] whole games of the information team (4 players, hle): (1) the
    known playable card of lowest value; (2) else, with a token, the first legal reveal
    whose encoding carries the sum of the others' hats modulo 25; (3) else the first
    discard the rules allow of a known card already played, then the cards not known,
    oldest first, then the oldest; (4) else the legal reveal whose shifted hats make the
    fewest receivers believe a wrong playable identity their knowledge allows, then the
    fewest believe any, then the first.  Every rule occurs.  4 games (8 in the deep
    set)."""
    config = make_config(4, "hle")
    steps: Counter[str] = Counter()
    for seed in range(games):
        seats = [InfoSeat(config, seat) for seat in range(4)]
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            step, expected = info_predicted(seats[state.current_player], state)
            assert seats[state.current_player].act(make_view(state, state.current_player)) == expected, (seed, state.turns, step)
            steps[step] += 1
            state = apply(state, expected)
            for seat, strategy in enumerate(seats):
                strategy.observe(make_view(state, seat), state.history[-1])
    assert all(steps[step] for step in ("1 play", "2 message", "3 discard", "4 forced")), steps
