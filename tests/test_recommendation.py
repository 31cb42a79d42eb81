"""The recommendation strategy's own clauses (spec/hat.md section 6), each checked from
its text: the eight values and the recommendation of a hand (H-rec-values,
H-rec-action), the code of modulus 8 (H-rec-code) and a player's turn (H-rec-turn).

Expected recommendations are worked out by hand from the clause on hand-built hands,
written as the numbers H-rec-values gives them (play slot s is s, discard slot s is
4 + s), never as the module's constants.  The numbers of hints are computed here from
the target's offset, the kind and whether the hint touches the newest card (masks from
tests.helpers.reference_hint_mask); the turns of whole games are predicted by the rules
of H-rec-turn from the engine's states.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.dealing import SplitMix64, deck_from_seed
from hanabi_ref.engine.legality import is_legal, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.hat.codes import CodeError, seen_hands
from hanabi_ref.players.strategies.hat.player import Snapshot, snapshot_of
from hanabi_ref.players.strategies.hat.recommendation import RecommendationPlayer, recommend, recommendation_code
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import HAT_CONFIGS, card, hat_snapshot, reference_hint_mask

CONFIG = make_config(4, "hanab-live", "no-variant")
RED, YELLOW, GREEN, BLUE, PURPLE = range(5)


def snapshot(fields: dict[int, int] | None = None, discarded: tuple[tuple[int, int], ...] = ()) -> Snapshot:
    return hat_snapshot(CONFIG, 3, fields, discarded)


def hand(*cards: tuple[int, int]) -> list[Identity]:
    return [card(CONFIG, value, suit) for value, suit in cards]


# ------------------------------------------------------------------ H-rec-action, H-rec-values


@pytest.mark.checks("H-rec-action", "H-rec-values")
def test_a_recommendation_follows_the_order_of_the_clause() -> None:
    """[H-rec-action, H-rec-values] red at 1: of the playable yellow 1, green 1 and red 2
    the lowest value in the lowest slot (yellow 1, slot 2: value 2); red at 2 and nothing
    playable: the red 1 already played (slot 1: value 5); else the lower of two equal
    cards (slot 1: 5); else the one card with another copy neither discarded nor played
    (the blue 4, slot 2: 6); with that copy discarded, the last slot (7)."""
    assert recommend(CONFIG, snapshot({RED: 1}), hand((2, RED), (4, BLUE), (1, YELLOW), (1, GREEN))) == 2
    assert recommend(CONFIG, snapshot({RED: 2}), hand((4, BLUE), (1, RED), (3, GREEN), (5, PURPLE))) == 5
    assert recommend(CONFIG, snapshot(), hand((4, BLUE), (3, GREEN), (5, PURPLE), (3, GREEN))) == 5
    fives = hand((5, PURPLE), (5, RED), (4, BLUE), (5, GREEN))
    assert recommend(CONFIG, snapshot(), fives) == 6
    assert recommend(CONFIG, snapshot(discarded=((4, BLUE),)), fives) == 7


# ------------------------------------------------------------------ H-rec-code


def reference_number(state: GameState, cluer: int, hint: Hint) -> int | None:
    """H-rec-code written out for rules without empty hints: parts (3, 3, 2) with 4
    players, (2, 2, 2, 2) with 5; a part of size 2 has no number for a hint avoiding the
    newest card (the highest card id)."""
    players = state.config.players
    sizes = (3, 3, 2) if players == 4 else (2, 2, 2, 2)
    offset = (hint.target - cluer) % players
    mask = reference_hint_mask(state.config, hint)
    cards = state.hands[hint.target]
    on_newest = bool(mask >> state.deck[max(cards)] & 1)
    base = sum(sizes[: offset - 1])
    if on_newest:
        return base + (0 if hint.kind == "colour" else 1)
    return base + 2 if sizes[offset - 1] == 3 else None


def hints_of(state: GameState) -> list[Hint]:
    """The hints the player to move may give (a token assumed)."""
    if state.clue_tokens == 0:
        state = attrs.evolve(state, clue_tokens=1)
    return [action for action in legal_actions(state) if isinstance(action, Hint)]


@pytest.mark.checks("H-rec-code")
@pytest.mark.parametrize("players", (4, 5))
def test_the_code_without_empty_hints_has_the_parts_of_the_clause(players: int) -> None:
    """[H-rec-code] modulus 8; every legal hint decodes to its reference number, or is
    refused when it avoids the newest card of a part of size 2; the sendable numbers are
    exactly the reference numbers of the legal hints (the parts of size 2 always among
    them) and each is sent by a legal hint that has it."""
    config = make_config(players, "hanab-live", "no-variant")
    code = recommendation_code(config)
    assert code.modulus == 8
    always = {0, 1, 3, 4, 6, 7} if players == 4 else set(range(8))
    states = 0
    for seed in range(3):
        rng = SplitMix64(seed)
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            cluer = state.current_player
            seen = seen_hands(make_view(state, cluer))
            expected = set()
            for hint in hints_of(state):
                number = reference_number(state, cluer, hint)
                on_newest = max(state.hands[hint.target]) in [c for c in state.hands[hint.target]
                                                              if reference_hint_mask(config, hint) >> state.deck[c] & 1]
                if number is None:
                    with pytest.raises(CodeError):
                        code.decode(cluer, hint, on_newest)
                    continue
                assert code.decode(cluer, hint, on_newest) == number
                expected.add(number)
            assert always <= expected
            assert code.sendable(cluer, seen) == sum(1 << x for x in expected)
            for number in expected:
                assert reference_number(state, cluer, code.encode(cluer, seen, number)) == number
            states += 1
            quiet = [a for a in legal_actions(state) if not isinstance(a, Play)]
            state = apply(state, rng.choice(quiet if quiet and rng.below(20) else legal_actions(state)))
    assert states > 100


@pytest.mark.checks("H-rec-code")
@pytest.mark.parametrize("players", (4, 5))
def test_with_empty_hints_the_code_is_the_first_eight_hints_of_the_list(players: int) -> None:
    """[H-rec-code] thesis preset: number x is the x-th hint to the other seats in seat
    order after the cluer, colours then values: all eight go to the next seat (five
    colours, then the values 1 to 3)."""
    config = make_config(players, "thesis", "no-variant")
    code = recommendation_code(config)
    for cluer in range(players):
        target = (cluer + 1) % players
        listed = [Hint(target, "colour", c) for c in range(5)] + [Hint(target, "value", v) for v in (1, 2, 3)]
        assert code.sendable(cluer, ()) == 0xFF
        for number, hint in enumerate(listed):
            assert code.encode(cluer, (), number) == hint
            assert code.decode(cluer, hint, False) == number


# ------------------------------------------------------------------ H-rec-turn


def unseen_copies(state: GameState, seat: int, identity: int) -> int:
    """Copies of ``identity`` the seat does not see (S-know): the deck's, less the other
    hands', the discard pile's and the fields'."""
    config = state.config
    seen = Counter[int](state.deck[c] for other, cards in enumerate(state.hands) if other != seat for c in cards)
    seen += Counter(state.deck[c] for c in state.discard)
    seen += Counter(suit * config.values + value for suit, height in enumerate(state.fireworks) for value in range(height))
    return composition_counts(config)[identity] - seen[identity]


def expected_turn(state: GameState, player: RecommendationPlayer, played_since: list[int]) -> Action | str:
    """H-rec-turn's rules for the player to move: an action, or "hint" (rule 2: the
    number of the recommendations for the state after the hint, sendable) or "nearest"
    (all tokens, the number cannot be sent: the next sendable number, H-rec-code)."""
    seat, value = state.current_player, player.recommended
    size = len(state.hands[seat])
    stale = any(unseen_copies(state, seat, identity) > 0 for identity in played_since)
    if value is not None and value < 4 and value < size and not stale:
        return Play(value)
    view = make_view(state, seat)
    sendable = False
    if state.clue_tokens > 0:
        snap = snapshot_of(view)._replace(tokens=state.clue_tokens - 1)
        others = [recommend(state.config, snap, [state.deck[c] for c in state.hands[s]])
                  for s in range(state.config.players) if s != seat]
        sendable = bool(recommendation_code(state.config).sendable(seat, seen_hands(view)) >> (sum(others) % 8) & 1)
    if sendable:
        return "hint"
    if value is not None and value >= 4 and is_legal(state, Discard(value - 4)):
        return Discard(value - 4)
    newest = state.hands[seat].index(max(state.hands[seat]))
    if is_legal(state, Discard(newest)):
        return Discard(newest)
    return "nearest" if state.clue_tokens > 0 else Play(newest)


@pytest.mark.checks("H-rec-turn", "H-rec-values")
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
def test_every_turn_follows_the_rules_of_the_clause(players: int, preset: str, variant: str) -> None:
    """[H-rec-turn, H-rec-values] whole games: every move is the one H-rec-turn gives the
    player's recommendation (a play of its slot unless a card played since, playable
    when it was given, may have had its identity; else a hint when the number can be
    sent; else the recommended discard or the newest card); every hint recommends the
    sum of the others' recommendations; every move clears the mover's recommendation.
    Each rule is met, the stale play declined among them."""
    config = make_config(players, preset, variant)
    fired: Counter[str] = Counter()
    for seed in range(4):
        seats = [RecommendationPlayer(config, seat) for seat in range(players)]
        played_since: list[list[int]] = [[] for _ in range(players)]
        playable_then = [0] * players
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            mover = seats[state.current_player]
            expected = expected_turn(state, mover, played_since[state.current_player])
            action = mover.act(make_view(state, state.current_player))
            if expected in ("hint", "nearest"):
                assert isinstance(action, Hint), (seed, state.turns, expected, action)
            else:
                assert action == expected, (seed, state.turns, expected, action)
            fired[expected if isinstance(expected, str) else type(expected).__name__] += 1
            fired["stale"] += isinstance(action, Hint | Discard) and mover.recommended is not None and mover.recommended < 4
            state = apply(state, action)
            event = state.history[-1]
            for seat, player in enumerate(seats):
                player.observe(make_view(state, seat), event)
            assert seats[event.player].recommended is None
            for seat in range(players):
                if isinstance(action, Hint) and seat != event.player:
                    playable_then[seat] = sum(1 << (suit * config.values + height)
                                              for suit, height in enumerate(state.fireworks) if height < config.values)
                    played_since[seat] = []
                elif event.success and event.card is not None and playable_then[seat] >> event.card & 1:
                    played_since[seat].append(event.card)
    assert fired["Play"] and fired["hint"] and fired["Discard"] and fired["stale"], fired
