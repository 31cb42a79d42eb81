"""What a hat clue is, checked from spec/hat.md: a newest-card code reads one target's
hand for that target's numbers (H-code-local), which player counts the code of modulus 9
is refused for (H-code-select), and what every hint of the re-cluing hat player is: a
clue of modulus 9 to every other seat (H-reclue).

Hands come from states reached by legal play; the numbers a hint sends are read from
what the cluer encoded and compared with the sum the clause defines.
"""

from __future__ import annotations

import pytest

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.dealing import SplitMix64, deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.hat.codes import CodeError, NewestCardCode, SeenHand, decode_event, hat_code, seen_hands
from hanabi_ref.players.strategies.hat.player import DecodeLog
from hanabi_ref.players.strategies.hat.reclue import ReclueHatPlayer
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import HAT_CONFIGS, HANAB_LIVE_VARIANTS


def states_of(players: int, variant: str, seed: int) -> list[GameState]:
    """The states of a game of seeded random legal moves (hints favoured, so that games
    last), the game going on in each."""
    config = make_config(players, "hanab-live", variant)
    rng = SplitMix64(seed)
    state = initial_state(config, deck_from_seed(config, seed))
    states = []
    while not state.terminal:
        states.append(state)
        actions = legal_actions(state)
        hints = [action for action in actions if isinstance(action, Hint)]
        state = apply(state, rng.choice(hints if hints and rng.below(3) else actions))
    return states


@pytest.mark.checks("H-code-local")
@pytest.mark.parametrize("players", (4, 5))
@pytest.mark.parametrize("variant", HANAB_LIVE_VARIANTS)
def test_a_targets_numbers_read_that_targets_hand_alone(players: int, variant: str) -> None:
    """[H-code-local] for every number of target i's part, whether it can be sent and the
    hint that sends it stay the same when every other hand is replaced by the hands of
    another game's state: they are computed from the cluer, the number and that target's
    hand alone.  (With 5 players the pooled number 8 reads the other hands, each alone:
    the hint goes to the first of them, in seat order after the cluer, that can take
    one, and is the hint that player's hand alone gives.)"""
    code = hat_code(make_config(players, "hanab-live", variant))
    assert isinstance(code, NewestCardCode)
    ours = [state for seed in (1, 2, 3) for state in states_of(players, variant, seed)]
    theirs = [state for seed in (4, 5, 6) for state in states_of(players, variant, seed)]
    # Broken hands (no hint avoids the newest card, H-avoid) are rare in play: the three
    # red 1s of the last round, put in every seat of some tables.
    red_one = SeenHand(0, 1 << 0)
    compared = 0
    tables = []
    for index, (state, other) in enumerate(zip(ours, theirs[::-1])):
        cluer = state.current_player
        seen, elsewhere = seen_hands(make_view(state, cluer)), seen_hands(make_view(other, cluer))
        if index % 7 == 0:
            broken = (cluer + 1 + index // 7 % (players - 1)) % players
            seen = tuple(red_one if seat == broken else hand for seat, hand in enumerate(seen))
        tables.append((cluer, seen, elsewhere))
    for cluer, seen, elsewhere in tables:
        mask = code.sendable(cluer, seen)
        for number in range(code.modulus):  # [H-code-error] a number is sendable iff encode finds its hint
            try:
                code.encode(cluer, seen, number)
            except CodeError:
                assert not mask >> number & 1, (cluer, seen, number)
            else:
                assert mask >> number & 1, (cluer, seen, number)
        base = 0
        for offset, size in enumerate(code.sizes, start=1):
            target = (cluer + offset) % players
            mixed = list(elsewhere)
            mixed[target] = seen[target]
            for number in range(base, base + size):
                sendable = code.sendable(cluer, seen) >> number & 1
                assert code.sendable(cluer, mixed) >> number & 1 == sendable
                if sendable:
                    assert code.encode(cluer, mixed, number) == code.encode(cluer, seen, number)
                    compared += 1
            base += size
        if code.pooled and code.sendable(cluer, seen) >> 8 & 1:
            hint = code.encode(cluer, seen, 8)
            alone: list[SeenHand | None] = [None] * players
            alone[hint.target] = seen[hint.target]
            earlier = [(cluer + offset) % players for offset in range(1, (hint.target - cluer) % players)]
            assert not any(code.sendable(cluer, [seen[s] if s == seat else None for s in range(players)]) >> 8 & 1
                           for seat in earlier)
            assert code.encode(cluer, alone, 8) == hint
    assert compared > 200


@pytest.mark.checks("H-code-select")
@pytest.mark.parametrize("players", (2, 3, 6))
def test_other_player_counts_are_refused_without_empty_hints(players: int) -> None:
    """[H-code-select] without empty hints the code of modulus 9 exists for 4 and 5
    players only: another count is a ConfigError naming the supported counts; with empty
    hints the list code serves any count."""
    with pytest.raises(ConfigError, match="4 and 5 players"):
        hat_code(make_config(players, "hanab-live"))
    assert hat_code(make_config(players, "thesis")).modulus == 9


@pytest.mark.checks("H-reclue")
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
def test_every_hint_is_a_clue_to_every_other_seat(players: int, preset: str, variant: str) -> None:
    """[H-reclue] in games of the re-cluing hat player every hint is a clue: its cluer
    encoded one value in range(9) for every other seat (the seats after it, all of them),
    and the hint sends their sum modulo 9 through the code of H-code-select, whenever
    that sum can be sent."""
    config = make_config(players, preset, variant)
    code = hat_code(config)
    hints = unsendable = 0
    for seed in range(3):
        log = DecodeLog(strict=False)
        record = play_game(config, lambda config, seat, seed: ReclueHatPlayer(config, seat, log), seed=seed)
        state = initial_state(config, record.trace.deck)
        for action in record.trace.actions:
            before, cluer = state, state.current_player
            state = apply(state, action)
            if not isinstance(action, Hint):
                continue
            encoded = log.encoded[before.turns]
            assert sorted(encoded) == sorted((cluer + offset) % players for offset in range(1, players))
            assert all(value in range(9) for value in encoded.values())
            number = decode_event(code, state.history[-1], before.hands[action.target])
            total = sum(encoded.values()) % 9
            if code.sendable(cluer, seen_hands(make_view(before, cluer))) >> total & 1:
                assert number == total, (seed, before.turns)
                hints += 1
            else:  # no value of the modified seat made the sum sendable (H-code-rainbow, H-code-end)
                unsendable += 1
    assert hints > 30 and unsendable <= hints // 50
