"""A turn of the re-cluing hat player (spec/hat.md, H-reclue-turn) and its choice between a
discard and a clue (H-reclue-discard), checked on whole games: every move is predicted
from the clauses' rules, read off the values the seat resolved for the clues it holds
(their resolution is H-reclue-decode's, checked elsewhere), the public numbers of the
engine's state and, for H-reclue-discard, the clue the seat would give (its draft).

The cards still to play are counted here from the discard pile: each field can grow up
to the first value whose copies are all discarded.
"""

from __future__ import annotations

from collections import Counter

import attrs
import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import is_legal
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.hat import reclue_rules as rules
from hanabi_ref.players.strategies.hat.reclue import ReclueHatPlayer
from hanabi_ref.players.strategies.hat.values import HatValue
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import HAT_CONFIGS


def discarded_counts(state: GameState) -> Counter[int]:
    return Counter(state.deck[c] for c in state.discard)


def cards_to_play(state: GameState) -> int:
    """The cards the fields still need for the highest reachable score."""
    config, lost = state.config, discarded_counts(state)
    copies = composition_counts(config)
    total = 0
    for suit, height in enumerate(state.fireworks):
        top = height
        while top < config.values and lost[suit * config.values + top] < copies[suit * config.values + top]:
            top += 1
        total += top - height
    return total


def gamble_slot(state: GameState, useless: int | None) -> int | None:
    """[H-reclue-endgame] the slot the seat to move gambles, if the gamble's conditions
    hold: the stack empty, two strikes to spare, a card some field needs next that the
    seat sees in no other hand and that is not dead; its oldest card, or the second
    oldest when the oldest is the card it knows useless."""
    config, seat = state.config, state.current_player
    if len(state.deck) > state.next_card or (config.max_errors is not None and state.strikes > config.max_errors - 2):
        return None
    seen = {state.deck[c] for other, cards in enumerate(state.hands) if other != seat for c in cards}
    lost, copies = discarded_counts(state), composition_counts(config)
    needed = [suit * config.values + height for suit, height in enumerate(state.fireworks) if height < config.values]
    if not any(card not in seen and lost[card] < copies[card] for card in needed):
        return None
    ids = state.hands[seat]
    order = sorted(range(len(ids)), key=ids.__getitem__)
    return order[1] if len(order) > 1 and ids[order[0]] == useless else order[0]


def may_carry_out(config: GameConfig, state: GameState, value: HatValue) -> bool:
    if value is HatValue.CLUE:
        return state.clue_tokens >= 1
    if value.slot >= len(state.hands[state.current_player]):
        return False
    return value.is_play or is_legal(state, Discard(value.slot))


def is_gamble_readable(player: ReclueHatPlayer, state: GameState, slot: int, seen: list[int], pile: tuple[int, ...]) -> bool:
    """[H-reclue-endgame] the seat's own check that the others would read its gamble of
    ``slot`` right (Lemma 6), on the clues it holds and its knowledge of the slot."""
    view = make_view(state, state.current_player)
    return rules.is_gamble_readable(player.facts, player.pending[state.current_player], state.current_player, view.own_knowledge[slot], view.fireworks, seen, pile)


def prefers_clue(player: ReclueHatPlayer, state: GameState) -> bool:
    """[H-reclue-discard] a seat that may discard clues instead when its clue gives the
    modified seat a play; else it discards when the modified seat would have no token,
    when the cards still to play do not exceed the stack, when it has at most one token,
    or when the clue makes nobody play; else it clues."""
    clue, values, first, tokens_at = player.draft(make_view(state, state.current_player))
    if clue.modified is not None and first.is_play:
        return True
    nobody_plays = not first.is_play and not any(value.is_play for value in values.values())
    stack = len(state.deck) - state.next_card
    return not (tokens_at == 0 or cards_to_play(state) <= stack or state.clue_tokens <= 1 or nobody_plays)


def predicted(player: ReclueHatPlayer, state: GameState, useless: int | None) -> tuple[str, Action | type, int | None]:
    """H-reclue-turn's rule for the seat to move, the move it gives (Hint for any hint)
    and the card it then knows useless; the seat's clues are resolved.  Whether the
    others would read a gamble right is the seat's own check (proofs/hat_decoding.md,
    Lemma 6): an unreadable gamble waits, and the rules after it apply."""
    seat, ids = state.current_player, state.hands[state.current_player]
    last = None
    for clue in player.pending[seat]:
        assert clue.values is not None
        value = clue.values[seat]
        if value.is_play and value.slot < len(ids):
            return "1 play", Play(value.slot), useless
        if value.is_discard:
            useless = ids[value.slot]
        last = clue
    slot = gamble_slot(state, useless)
    if slot is not None:
        seen: list[int] = [state.deck[c] for other, cards in enumerate(state.hands) if other != seat for c in cards]
        lost = discarded_counts(state)
        pile = tuple(lost[x] for x in range(len(composition_counts(state.config))))
        if is_gamble_readable(player, state, slot, seen, pile):  # the others read it right
            return "2 gamble", Play(slot), useless
    newest_value = None if last is None else last.values[seat]  # type: ignore[index]
    if last is not None and last.modified == seat and may_carry_out(state.config, state, newest_value):  # type: ignore[arg-type]
        return "3 modified", Hint if newest_value is HatValue.CLUE else Discard(newest_value.slot), useless  # type: ignore[union-attr]
    known = newest_value.slot if newest_value is not None and newest_value.is_discard else (
        ids.index(useless) if useless in ids else None)
    newest = ids.index(max(ids))
    if state.clue_tokens == 0:
        for candidate in (known, newest):
            if candidate is not None and is_legal(state, Discard(candidate)):
                return "4 no token", Discard(candidate), useless
        return "4 no token", Play(newest), useless
    if known is not None and is_legal(state, Discard(known)):
        return ("5 clue for a play", Hint, useless) if prefers_clue(player, state) else ("5 discard", Discard(known), useless)
    return "6 clue", Hint, useless


def check_gambles(player: ReclueHatPlayer, state: GameState, useless: int | None) -> int:
    """With the stack empty, the seat's gamble with each number of errors made: a play of
    the slot :func:`gamble_slot` names exactly when its conditions hold and the others
    would read it right, else none; how many gambles that allowed."""
    assert state.config.max_errors is not None
    allowed = 0
    for errors in range(state.config.max_errors):
        struck = attrs.evolve(state, strikes=errors)
        view = make_view(struck, struck.current_player)
        slot = gamble_slot(struck, useless)
        seen: list[int] = [state.deck[c] for other, cards in enumerate(state.hands) if other != state.current_player for c in cards]
        lost = discarded_counts(state)
        pile = tuple(lost[x] for x in range(len(composition_counts(state.config))))
        expected = None if slot is None or not is_gamble_readable(player, struck, slot, seen, pile) else Play(slot)
        assert player.gamble(view) == expected, (state.turns, errors)
        allowed += expected is not None
    return allowed


def checked_turns(config: GameConfig, seeds: range) -> Counter[str]:
    """Play the games of ``seeds``, checking every move against :func:`predicted`; how
    often each rule gave the move."""
    rules: Counter[str] = Counter()
    for seed in seeds:
        seats = [ReclueHatPlayer(config, seat) for seat in range(config.players)]
        useless: list[int | None] = [None] * config.players
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            seat = state.current_player
            action = seats[seat].act(make_view(state, seat))
            rule, expected, useless[seat] = predicted(seats[seat], state, useless[seat])
            if expected is Hint:
                assert isinstance(action, Hint), (seed, state.turns, rule, action)
            else:
                assert action == expected, (seed, state.turns, rule, expected, action)
            rules[rule] += 1
            if len(state.deck) == state.next_card and rule != "1 play":
                rules["gamble checked"] += check_gambles(seats[seat], state, useless[seat])
            state = apply(state, action)
            for other, strategy in enumerate(seats):
                strategy.observe(make_view(state, other), state.history[-1])
    return rules


@pytest.mark.checks("H-reclue-turn", "H-reclue-discard")
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
def test_every_turn_follows_the_rules_of_the_clause(players: int, preset: str, variant: str) -> None:
    """[H-reclue-turn, H-reclue-discard] whole games: the first held clue that gives the
    seat a play is played; else the gamble when its conditions hold (and its reading is
    safe); else the modified seat carries out its value exactly; else with no token the
    discard its newest value names, or the card it last learned useless, or the newest;
    else a known discard, unless H-reclue-discard's conditions make it clue; else a clue.
    Rules 1, 3, 5 both ways and 6 all occur."""
    rules = checked_turns(make_config(players, preset, variant), range(5))
    assert all(rules[rule] for rule in ("1 play", "3 modified", "5 discard", "5 clue for a play", "6 clue")), rules


@pytest.mark.checks("H-reclue-turn")
@pytest.mark.parametrize(("players", "games"), [
    (4, 20), (5, 20),
    pytest.param(4, 60, marks=pytest.mark.deep), pytest.param(5, 60, marks=pytest.mark.deep),
])
def test_the_rare_rules_occur_in_longer_runs(players: int, games: int) -> None:
    """[H-reclue-turn] twenty games of Black (6 Suits) (sixty in the deep set), where the
    gamble (rule 2) and the turn without a token (rule 4) occur, each move as the rules
    give it."""
    rules = checked_turns(make_config(players, "hanab-live", "black"), range(games))
    assert rules["2 gamble"] and rules["4 no token"] and rules["gamble checked"] > rules["2 gamble"], rules
