"""Playing the stack's last card unseen: the rule option ``deck_plays`` [R-deck-plays].

Each expectation is read off the clause: the play of slot h' exists only with the
option on and exactly one card in the stack, it is listed after the hand's plays, the
card is judged as any played card, the hand keeps its cards, nothing is drawn and the
last round starts.
"""

from __future__ import annotations

import attrs
import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.legality import illegality, legal_actions
from hanabi_ref.engine.configs import config_from_json, config_to_json, make_config
from hanabi_ref.engine.show import card_name, state_event_text
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply, new_game
from hanabi_ref.tools.verify.explain import move_text as explain_move
from hanabi_ref.engine.view import make_view, view_legal_actions


def _to_last_card(players: int, seed: int, deck_plays: bool = False) -> GameState:
    """Discard or hint (never play) until one card is left in the stack."""
    config = make_config(players, "hanab-live", deck_plays=deck_plays)
    state = new_game(config, seed)
    while len(state.deck) - state.next_card > 1:
        actions = legal_actions(state)
        safe: list[Action] = [a for a in actions if isinstance(a, Discard)] or [a for a in actions if isinstance(a, Hint)]
        state = apply(state, safe[0])
    return state


@pytest.mark.parametrize("seed", range(6))
def test_deck_play_only_with_one_card_left(seed: int) -> None:
    """[R-deck-plays] slot h' is legal, and listed last, exactly when the option is on and
    the stack holds one card; without the option it is refused under 2.16-2c."""
    state = _to_last_card(3, seed, deck_plays=True)
    hand = len(state.hands[state.current_player])
    actions = legal_actions(state)
    assert actions[-1] == Play(hand) and actions.count(Play(hand)) == 1
    assert illegality(state, Play(hand)) is None
    view = make_view(state, state.current_player)
    assert view_legal_actions(view) == actions
    off = _to_last_card(3, seed)
    assert Play(len(off.hands[off.current_player])) not in legal_actions(off)
    assert illegality(off, Play(len(off.hands[off.current_player])))[0] == "2.16-2c"  # type: ignore[index]
    earlier = new_game(state.config, seed)
    assert Play(len(earlier.hands[earlier.current_player])) not in legal_actions(earlier)
    assert illegality(earlier, Play(len(earlier.hands[earlier.current_player])))[0] == "2.16-2c"  # type: ignore[index]


@pytest.mark.parametrize("seed", range(6))
def test_deck_play_takes_the_stack_card(seed: int) -> None:
    """[R-deck-plays, 2.16-2c, 2.16-3-last-round] the card played is the stack's last; it
    succeeds exactly when its suit's field is one below its value; the hand is unchanged,
    nothing is drawn, the stack is empty and R = p."""
    state = _to_last_card(3, seed, deck_plays=True)
    seat, card_id = state.current_player, state.next_card
    suit, value = divmod(state.deck[card_id], state.config.values)
    after = apply(state, Play(len(state.hands[seat])))
    event = after.history[-1]
    assert (event.card_id, event.card, event.drawn) == (card_id, state.deck[card_id], None)
    assert after.hands[seat] == state.hands[seat] and after.knowledge[seat] == state.knowledge[seat]
    assert after.next_card == len(after.deck)
    success = state.fireworks[suit] == value
    assert event.success == success
    if success:
        assert after.played == state.played + (card_id,) and after.fireworks[suit] == value + 1
    else:
        assert after.discard == state.discard + (card_id,) and after.strikes == state.strikes + 1
    if not after.terminal:
        assert after.remaining == state.config.players


def test_option_written_only_when_on() -> None:
    """[R-deck-plays, P-options] the configuration's JSON names ``deck_plays`` only when
    true, and reads it back."""
    off = make_config(3, "hanab-live")
    on = attrs.evolve(off, options=attrs.evolve(off.options, deck_plays=True))
    assert "deck_plays" not in config_to_json(off)["options"]
    assert config_to_json(on)["options"]["deck_plays"] is True
    assert config_from_json(config_to_json(on)) == on


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.checks("SH-move")
def test_a_deck_play_reads_as_a_play_from_the_stack(seed: int) -> None:
    """[SH-move, R-deck-plays] the sentence of a deck play names the stack, not a slot the
    hand does not have; the card is the stack's last (read from the deck here), and the
    outcome is the event's."""
    state = _to_last_card(3, seed, deck_plays=True)
    seat, card = state.current_player, state.deck[state.next_card]
    after = apply(state, Play(len(state.hands[seat])))
    outcome = "success" if after.history[-1].success else "fails: a strike"
    assert state_event_text(after) == f"seat {seat} plays {card_name(state.config, card)} from the stack ({outcome})"
    assert "(the stack's last card)" in explain_move(state.config, state, Play(len(state.hands[seat])), after)
    last_slot = len(state.hands[seat]) - 1
    assert state_event_text(apply(state, Play(last_slot))).startswith(f"seat {seat} plays ")
    assert f"from slot {last_slot} " in state_event_text(apply(state, Play(last_slot)))
