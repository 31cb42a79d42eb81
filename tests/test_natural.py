"""The natural bot (spec/strategies.md section 7, NAT-*): clue readings on hands built here
card by card, the public agreement of every seat's notes, and the giver's promise that
every clue it gives is read right, checked on whole games."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

import pytest

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.history import Event
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import PlayerView, make_view
from hanabi_ref.players.runner import GameMoves, play_game
from hanabi_ref.players.strategies import Value, factory_for, strategy_spec
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.players.strategies.natural import LATE_DECK, NATURAL_SPEC, STALL_DECK, NaturalStrategy
from hanabi_ref.players.strategy import Strategy

R, Y, G, B, P = range(5)


def card(suit: int, value: int) -> int:
    return suit * 5 + value - 1


def deck_with(config: GameConfig, first: Sequence[int]) -> list[int]:
    """A deck whose first cards are ``first`` and the rest the remaining copies, in order."""
    left = Counter({x: n for x, n in enumerate(composition_counts(config))})
    for x in first:
        left[x] -= 1
        assert left[x] >= 0
    return [*first, *(x for x in sorted(left) for _ in range(left[x]))]


def bots(config: GameConfig) -> list[NaturalStrategy]:
    params = NATURAL_SPEC.resolve({})
    return [NaturalStrategy(config, seat, seat, params) for seat in range(config.players)]


def replay(config: GameConfig, deck: Sequence[int], moves: Sequence[Action]) -> tuple[list[NaturalStrategy], object]:
    """Every seat's natural bot after ``moves``, and the state."""
    seats = bots(config)
    state = initial_state(config, deck)
    for move in moves:
        state = apply(state, move)
        for seat in seats:
            seat.observe(make_view(state, seat.seat), state.history[-1])
    return seats, state


# seat 1's cards are ids 5..9 (5 the oldest: the chop); seat 2's are 10..14
HANDS = [card(R, 3), card(Y, 4), card(G, 4), card(B, 3), card(P, 3),
         card(R, 5), card(Y, 3), card(G, 2), card(B, 1), card(R, 1),
         card(Y, 1), card(G, 3), card(B, 4), card(P, 4), card(Y, 2)]


@pytest.mark.checks("NAT-focus", "NAT-play")
def test_a_clue_off_the_chop_is_a_play_clue_on_the_newest_new_card() -> None:
    config = make_config(3, "hanab-live")
    seats, _ = replay(config, deck_with(config, HANDS), [Hint(1, "value", 1)])  # touches 8 (b1) and 9 (r1)
    notes = seats[2].notes
    assert notes.touched >= {8, 9} and 9 in notes.to_play  # the focus: the newest, 9
    assert 8 not in notes.to_play  # the other card is only kept
    assert seats[1].heard == ["seat 1: slot 1 is now playable (play clue on the focus); 1 more card touched, kept"]


@pytest.mark.checks("NAT-focus", "NAT-save")
def test_a_five_on_the_chop_is_saved_not_played() -> None:
    config = make_config(3, "hanab-live")
    seats, _ = replay(config, deck_with(config, HANDS), [Hint(1, "value", 5)])  # touches 5 (r5), the chop
    assert 5 not in seats[0].notes.to_play
    assert seats[1].heard == ["seat 1: slot 5 is saved (save clue on the chop)"]


@pytest.mark.checks("NAT-focus", "NAT-save")
def test_the_chop_is_the_focus_when_touched_for_the_first_time() -> None:
    config = make_config(3, "hanab-live")
    hands = list(HANDS)
    hands[5], hands[9] = card(R, 2), card(R, 1)  # seat 1: r2 on the chop, r1 newest
    seats, _ = replay(config, deck_with(config, hands), [Hint(1, "colour", R)])
    # the focus is the chop (card 5), whose reading is r1 (playable) or r5 (critical): kept
    assert not seats[0].notes.to_play
    assert seats[1].heard == ["seat 1: slot 5 is playable or saved (clue on the chop: play or save); 1 more card touched, kept"]


@pytest.mark.checks("NAT-focus")
def test_a_clue_touching_only_touched_cards_focuses_the_newest() -> None:
    config = make_config(3, "hanab-live")
    seats, _ = replay(config, deck_with(config, HANDS),
                      [Hint(1, "value", 1), Hint(0, "value", 3), Hint(1, "colour", R)])  # red: 5 (new, chop) and 9
    assert 5 in seats[2].notes.touched
    seats, _ = replay(config, deck_with(config, HANDS),
                      [Hint(1, "value", 1), Hint(0, "value", 3), Hint(1, "colour", B)])  # blue: 8 only, touched before
    assert seats[1].heard[-1].startswith("seat 1: slot 2 ")


@pytest.mark.checks("NAT-good-touch", "NAT-notes")
def test_good_touch_leaves_out_what_was_trash_when_touched() -> None:
    config = make_config(3, "hanab-live")
    hands = list(HANDS)
    hands[0] = card(Y, 1)  # seat 0 plays y1 first
    seats, state = replay(config, deck_with(config, hands), [Play(0), Hint(2, "colour", Y)])  # touches 10 (y1), 14 (y2)
    view = make_view(state, 0)  # type: ignore[arg-type]
    board = seats[0].board(view)
    known = {int(card_id): mask for card_id, mask in zip(view.hands[2], view.knowledge[2])}
    note = seats[0].notes.note(10, known[10], board)
    assert not note >> card(Y, 1) & 1  # y1 was trash when card 10 was touched
    # a card touched before its identity became trash keeps it possible
    moves: list[Action] = [Hint(2, "colour", Y), Hint(0, "value", 3), Hint(1, "value", 5), Play(0)]  # y1 played last
    seats, state = replay(config, deck_with(config, hands), moves)
    assert state.fireworks[Y] == 1  # type: ignore[attr-defined]
    view = make_view(state, 0)  # type: ignore[arg-type]
    known = {int(card_id): mask for card_id, mask in zip(view.hands[2], view.knowledge[2])}
    assert seats[0].notes.note(10, known[10], seats[0].board(view)) >> card(Y, 1) & 1


@pytest.mark.checks("NAT-delayed", "NAT-play")
def test_a_delayed_play_clue_waits_for_its_predecessor() -> None:
    config = make_config(3, "hanab-live")
    hands = list(HANDS)
    hands[14] = card(G, 1)  # seat 2's newest: g1
    hands[9] = card(G, 2)  # seat 1's newest: g2
    moves = [Hint(2, "colour", G), Hint(2, "value", 1), Hint(1, "colour", G)]
    seats, _ = replay(config, deck_with(config, hands), moves)
    # 14 is known g1; green on seat 1 touches 7 (g2... the hand's other g2) and 9: focus 9, delayed via g1
    assert 9 in seats[0].notes.to_play


@pytest.mark.checks("NAT-prompt", "NAT-explain", "NAT-play-own")
def test_a_clue_that_continues_through_a_touched_card_prompts_it() -> None:
    config = make_config(3, "hanab-live")
    hands = list(HANDS)
    hands[5:10] = [card(G, 2), card(Y, 3), card(B, 5), card(B, 1), card(R, 1)]  # seat 1: g2 on the chop
    hands[14] = card(G, 1)  # seat 2: y1, g3, b4, p4, g1 (newest)
    moves: list[Action] = [
        Hint(1, "value", 2),   # seat 0 saves seat 1's chop: card 5, a 2 of any suit
        Hint(2, "colour", G),  # seat 1: green touches 11 (g3, kept) and 14 (g1, the focus: played)
        Play(4),               # seat 2 plays g1; it draws card 15
        Hint(2, "value", 3),   # seat 0: "3" touches only 11, known green before: g3
    ]
    seats, state = replay(config, deck_with(config, hands), moves)
    assert state.fireworks[G] == 1  # type: ignore[attr-defined]
    # By hand: g3 follows g2, which no known card names; walking from seat 1 (after the giver),
    # card 5's note (every 2) holds g2: card 5 is prompted as g2, and card 11 is g3 after it.
    for seat in seats:
        notes = seat.notes
        assert notes.masks[5] == 1 << card(G, 2) and notes.masks[11] == 1 << card(G, 3)
        assert {5, 11} <= notes.to_play
    assert seats[1].heard == ["seat 1: slot 5 is saved (save clue on the chop)", "seat 1: slot 5 is now playable (prompt)"]
    assert seats[2].heard[-1] == "seat 2: slot 4 is to be played once the cards before it are (prompt: 1 touched card plays first)"
    view = make_view(state, 1)  # type: ignore[arg-type]
    assert seats[1].act(view) == Play(0)  # card 5, the oldest: slot 0 (newest last)
    # the same clue from seat 1, the holder of the 2: its own card is never prompted, so no
    # reading fits (g3 is neither playable nor after a known card) and nothing is to be played
    moves = [Hint(1, "value", 2), Hint(2, "colour", G), Play(4), Hint(1, "colour", Y), Hint(2, "value", 3)]
    seats, state = replay(config, deck_with(config, hands), moves)
    assert 5 not in seats[0].notes.to_play and 11 not in seats[0].notes.to_play
    assert seats[2].heard[-1] == "seat 2: slot 4 is as the clue says (no convention reading fits)"


@pytest.mark.checks("NAT-finesse", "NAT-explain", "NAT-turn", "NAT-give")
def test_a_play_clue_on_a_card_after_a_missing_one_finesses_the_seat_between() -> None:
    config = make_config(3, "hanab-live")
    hands = list(HANDS)
    hands[14] = card(R, 2)  # seat 2: y1, g3, b4, p4, r2 (newest); seat 1's newest untouched card, 9, is r1
    seats = bots(config)
    view = make_view(initial_state(config, deck_with(config, hands)), 0)
    values = {hint: value for value, hint, _ in seats[0].clues_to(view, seats[0].board(view), 2)}
    # By hand: red touches only card 14 (r2); its note says r1, the only red card playable; r1 is
    # missing (red's field is empty, no touched card), and seat 1, the only seat between seat 0
    # and seat 2, holds it on its finesse position: a finesse, worth 3 + 2
    assert values[Hint(2, "colour", R)] >= 5.0
    seats, after = replay(config, deck_with(config, hands), [Hint(2, "colour", R)])
    assert seats[1].finesse == 9 and seats[0].finesse is None and seats[2].finesse is None
    assert seats[1].heard == ["seat 1: slot 1 is now playable (finesse)"]
    assert seats[1].act(make_view(after, 1)) == Play(4)  # type: ignore[arg-type]
    seats, after = replay(config, deck_with(config, hands), [Hint(2, "colour", R), Play(4)])  # the blind play
    assert after.fireworks[R] == 1  # type: ignore[attr-defined]
    for seat in seats:  # every seat now reads card 14 as r2, to be played
        assert seat.notes.masks[14] == 1 << card(R, 2) and 14 in seat.notes.to_play
    assert seats[2].act(make_view(after, 2)) == Play(4)  # type: ignore[arg-type]
    # with seat 1's newest card not r1, no seat holds the missing card: the giver does not give it
    hands[9], hands[8] = card(G, 4), card(R, 1)  # r1 is seat 1's second newest: not its finesse position
    view = make_view(initial_state(config, deck_with(config, hands)), 0)
    giver = bots(config)[0]
    assert Hint(2, "colour", R) not in {hint for _, hint, _ in giver.clues_to(view, giver.board(view), 2)}


@pytest.mark.checks("NAT-trust")
def test_a_seat_that_breaks_the_conventions_is_trusted_with_no_prompt_or_finesse() -> None:
    config = make_config(3, "hanab-live")
    # seat 0 gives seat 2 a play clue on its chop (y1): pending; then seat 1 tells seat 0 "blue",
    # which touches only card 3 (b3), read as b1 (the only blue card playable): a clue read wrong
    # with tokens to spare, and not a finesse (one is pending)
    seats, _ = replay(config, deck_with(config, HANDS), [Hint(2, "value", 1), Hint(0, "colour", B)])
    assert seats[2].distrust == {1} and not seats[0].distrust and not seats[1].distrust
    assert all(seat.notes.prompting and seat.notes.finessing for seat in seats)
    # a miss with the deck full: every seat stops reading prompts and finesses at once
    seats, _ = replay(config, deck_with(config, HANDS), [Play(0)])  # seat 0's card 0 is r3
    assert not any(seat.notes.prompting or seat.notes.finessing for seat in seats)


@pytest.mark.checks("NAT-urgent", "NAT-turn")
def test_the_next_seats_critical_chop_is_saved_first() -> None:
    config = make_config(3, "hanab-live", hints=1)  # one token: after a clue seat 1 must play or discard
    seats, state = replay(config, deck_with(config, HANDS), [])
    view = make_view(state, 0)  # type: ignore[arg-type]
    action = seats[0].act(view)
    assert isinstance(action, Hint) and action.target == 1
    mask = dict(view.tables.action_catalogue.hints[1])[action]
    assert mask >> card(R, 5) & 1  # the clue touches the r5 on seat 1's chop
    # with seat 1 holding a known play, it will not discard: no save
    config = make_config(3, "hanab-live")
    seats, state = replay(config, deck_with(config, HANDS), [Hint(1, "value", 1), Hint(2, "value", 1), Hint(0, "value", 3)])
    view = make_view(state, 0)  # type: ignore[arg-type]
    assert view.seat == state.current_player == 0  # type: ignore[attr-defined]
    assert seats[0].urgent_save(view, seats[0].board(view)) is None


@pytest.mark.checks("NAT-chop", "NAT-play-own")
def test_a_seat_discards_its_oldest_untouched_card() -> None:
    config = make_config(3, "hanab-live")
    seats, state = replay(config, deck_with(config, HANDS), [Hint(1, "value", 1), Hint(0, "value", 3)])
    # seat 0's cards 0 (r3), 3 (b3) and 4 (p3) are touched: its chop is card 1
    view = make_view(state, 2)  # type: ignore[arg-type]
    seat0 = seats[0]
    view0 = make_view(state, 0)  # type: ignore[arg-type]
    board = seat0.board(view0)
    assert seat0.discard(view0, board, seat0.own_notes(view0, board)) == Discard(view0.own_hand.index(1))
    assert view.seat == 2


@pytest.mark.checks("NAT-configs")
def test_the_natural_bot_refuses_what_it_cannot_read() -> None:
    spec = strategy_spec("natural")
    with pytest.raises(ConfigError, match="natural"):
        spec.check_config(make_config(3, "hanab-live", "Up or Down (5 Suits)"))
    spec.check_config(make_config(3, "hanab-live", "Rainbow (6 Suits)"))


# ------------------------------------------------------------------ whole games


class Watch:
    """Natural seats that check, after every event, what NAT-notes and NAT-give promise."""

    def __init__(self) -> None:
        self.seats: list[NaturalStrategy] = []
        self.hints = self.misread = self.plays = self.forced = self.told_to_play = self.prompted = 0
        self.finesses = self.blind = 0
        self.early_plays: set[int] = set()
        """turns of plays made with more than LATE_DECK cards in the deck: none may miss"""
        self.forced_turns: set[int] = set()

    def factory(self, config: GameConfig, seat: int, seed: int) -> Strategy:
        if seat == 0:
            self.seats = []
            self.forced_turns = set()
            self.early_plays = set()
        strategy = Checked(config, seat, seed, NATURAL_SPEC.resolve({}), self)
        self.seats.append(strategy)
        return strategy


class Checked(NaturalStrategy):
    def __init__(self, config: GameConfig, seat: int, seed: int, params: Mapping[str, Value], watch: Watch) -> None:
        super().__init__(config, seat, seed, params)
        self.watch = watch

    def observe(self, view: PlayerView, event: Event) -> None:
        playing = set(self.notes.to_play)
        super().observe(view, event)
        if (isinstance(event.action, Hint) and self.seat == (event.action.target + 1) % self.config.players
                and event.turn not in self.watch.forced_turns):
            # [NAT-give] the clue is read right: this seat sees the target's cards
            self.watch.hints += 1
            board = self.board(view)
            target = event.action.target
            pending = self.notes.pending
            for card_id, x, known in zip(view.hands[target], view.cards[target], view.knowledge[target]):
                if card_id in event.touched and x is not None and not self.notes.note(card_id, known, board) >> x & 1:
                    if pending is not None and pending[2] == card_id:
                        self.watch.finesses += 1  # [NAT-finesse] read right once the blind play is seen
                    else:
                        self.watch.misread += 1
            # [NAT-prompt] a card the clue tells to play, in any hand this seat sees, is what its note says
            for seat, (hand, cards, knowledge) in enumerate(zip(view.hands, view.cards, view.knowledge)):
                for card_id, x, known in zip(hand, cards, knowledge):
                    if card_id in self.notes.to_play and card_id not in playing and x is not None:
                        self.watch.told_to_play += 1
                        if not self.notes.note(card_id, known, board) >> x & 1 and not (pending and pending[2] == card_id):
                            self.watch.misread += 1
                        if card_id not in event.touched:
                            self.watch.prompted += 1

    def act(self, view: PlayerView) -> Action:
        # [NAT-notes] every seat drew the same notes from the moves so far
        for other in self.watch.seats:
            assert other.notes.touched == self.notes.touched and other.notes.masks == self.notes.masks
            assert other.notes.to_play == self.notes.to_play and other.notes.trash_then == self.notes.trash_then
        # [NAT-turn] step 7: no clue passes NAT-give and no discard is allowed (every token in
        # hand): the least misleading clue, which NAT-give does not promise is read right
        forced = view.clue_tokens == self.config.max_hints and self.best_clue(view, self.board(view)) is None
        action = super().act(view)
        if forced and isinstance(action, Hint):
            assert action == self.least_harmful_clue(view, self.board(view))
            self.watch.forced_turns.add(view.turns)
            self.watch.forced += 1
        if isinstance(action, Play) and view.deck_size > LATE_DECK:
            # [NAT-play-own, NAT-endgame, NAT-finesse] with more than LATE_DECK cards in the
            # deck, a card is played only when its note says playable or a finesse says so
            board = self.board(view)
            if view.own_hand[action.slot] == self.finesse:
                self.watch.blind += 1
            else:
                assert self.own_notes(view, board)[action.slot] & ~board.playable == 0
            self.watch.plays += 1
            self.watch.early_plays.add(view.turns)
        return action


@pytest.mark.checks("NAT-notes", "NAT-give", "NAT-play-own", "NAT-turn")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_seat_reads_every_clue_alike_and_as_the_giver_meant(players: int) -> None:
    config = make_config(players, "hanab-live")
    watch = Watch()
    for seed in range(3):
        record = play_game(config, watch.factory, seed=seed)
        assert record.final.terminal
        missed = [event.turn for event in record.final.history if isinstance(event.action, Play) and not event.success]
        assert not watch.early_plays & set(missed)  # no play before the endgame misses, blind ones included
    assert watch.hints > 20 and watch.plays > 20 and watch.told_to_play > 10
    assert watch.prompted > 0 or players == 2  # [NAT-prompt] prompts happen, and are read right
    assert watch.misread == 0
    assert watch.finesses == watch.blind if players > 2 else watch.finesses == 0  # [NAT-finesse] each finesse is played


@pytest.mark.checks("NAT-explain")
def test_each_received_clue_leaves_one_line() -> None:
    config = make_config(3, "hanab-live")
    made: list[NaturalStrategy] = []

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        strategy = factory_for("natural")(config, seat, seed)
        assert isinstance(strategy, NaturalStrategy)
        made.append(strategy)
        return strategy

    record = play_game(config, factory, seed=4)
    received = Counter(event.action.target for event in record.final.history if isinstance(event.action, Hint))
    line = re.compile(r"^seat (\d): (slot \d is (now playable|to be played once the cards before it are((, slot \d)+ first)?|saved|"
                      r"playable or saved|as the clue says)|none of my cards is touched \(an empty clue\)) ?(\(.*\))?"
                      r"(; \d more cards? touched, kept)?$")
    # [NAT-prompt, NAT-finesse] a clue to another seat that prompts or finesses this seat's cards leaves a line too
    prompted = re.compile(r"^seat (\d): slot \d is (now playable|to be played once the cards before it are)"
                          r"(, slot \d is (now playable|to be played once the cards before it are))* \((prompt|finesse)\)$")
    for seat in made:
        own = [text for text in seat.heard if not prompted.match(text)]
        assert len(own) == received[seat.seat]
        assert all(line.match(text) and text.startswith(f"seat {seat.seat}: ") for text in seat.heard)


@pytest.mark.checks("NAT-endgame")
def test_the_endgame_gamble_needs_a_nearly_empty_deck_and_a_spare_strike() -> None:
    config = make_config(3, "hanab-live")
    record = play_game(config, factory_for("natural"), seed=1)
    state = initial_state(config, record.final.deck)
    seat = NaturalStrategy(config, 0, 0, {"gamble": 0.0})
    seen_sizes = set()
    for action in record.trace.actions:
        if state.terminal:
            break
        view = make_view(state, state.current_player)
        seat.seat = state.current_player
        board = seat.board(view)
        notes = [seat.possible(view) & known for known in view.own_knowledge]
        gambled = seat.endgame_play(view, board, notes, 0.0)
        if state.deck_size > 3:  # [NAT-endgame] more than 3 cards left: never
            assert gambled is None
        elif any(note & board.playable for note in notes):
            seen_sizes.add(state.deck_size)
            assert gambled is not None and notes[gambled.slot] & board.playable
            # the chance asked for: none above 1
            assert seat.endgame_play(view, board, notes, 1.01) is None
        state = apply(state, action)
    assert seen_sizes  # some moment with 3 cards or fewer had a possibly playable card
    # no strike to spare: no gamble
    spent = NaturalStrategy(make_config(3, "hanab-live", errors=1), 0, 0, {"gamble": 0.0})
    last = make_view(initial_state(make_config(3, "hanab-live", errors=1), record.final.deck), 0)
    assert spent.endgame_play(last, spent.board(last), list(last.own_knowledge), 0.0) is None


@pytest.mark.checks("NAT-last", "NAT-give", "R-3")
@pytest.mark.parametrize("players", [2, 5])
def test_the_last_turn_is_the_seats_last_move_and_clues_go_only_to_seats_that_move_again(players: int) -> None:
    """[NAT-last] a seat's last turn, from the countdown, is the last move of that seat in
    the trace (a game that runs its countdown out); [NAT-give] a clue then goes only to a
    seat that moves again."""
    config = make_config(players, "hanab-live")
    checked = 0
    for seed in range(6):
        record = play_game(config, factory_for("natural"), seed=seed)
        if record.final.deck_size or record.final.remaining != 0:
            continue  # ended by its score, not by the countdown
        movers = [turn % players for turn in range(len(record.trace.actions))]  # seats move in turn
        state = initial_state(config, record.final.deck)
        for index, action in enumerate(record.trace.actions):
            seat = NaturalStrategy(config, state.current_player, 0, {"gamble": 0.5})
            view = make_view(state, state.current_player)
            last = state.current_player not in movers[index + 1:]
            assert seat.is_last_turn(view) == last, (seed, index)
            if view.remaining is not None:
                best = seat.best_clue(view, seat.board(view))
                if best is not None:
                    assert best[1].target in movers[index + 1:]
                checked += 1
            state = apply(state, action)
    assert checked >= players


@pytest.mark.checks("NAT-distinct", "NAT-notes")
def test_a_seat_leaves_out_of_its_touched_cards_the_touched_cards_it_sees() -> None:
    config = make_config(3, "hanab-live")
    # seat 0 clues seat 2's g3 (card 11), then seat 1 clues seat 0's three 3s (cards 0, 3, 4)
    seats, state = replay(config, deck_with(config, HANDS), [Hint(2, "value", 3), Hint(0, "value", 3)])
    view = make_view(state, 2)  # type: ignore[arg-type]
    view0 = make_view(state, 0)  # type: ignore[arg-type]
    assert view.current_player == 2
    seat0 = seats[0]
    board = seat0.board(view0)
    mine = {int(c): note for c, note in zip(view0.own_hand, seat0.own_notes(view0, board))}
    public = {int(c): known for c, known in zip(view0.own_hand, view0.own_knowledge)}
    threes = {card(suit, 3) for suit in range(5)}
    for card_id in (0, 3, 4):
        # the public note keeps g3 (one of its two copies is unseen by seat 0) ...
        assert seat0.notes.note(card_id, public[card_id], board) >> card(G, 3) & 1
        # ... the seat's own note leaves it out: seat 2's touched card 11 is g3
        assert {x for x in threes if mine[card_id] >> x & 1} == threes - {card(G, 3)}
    # a seat whose touched card is seen nowhere as touched keeps its note: seat 2 sees
    # no other touched 3 but seat 0's, which are r3, b3 and p3
    view2 = make_view(state, 2)  # type: ignore[arg-type]
    note11 = seats[2].own_notes(view2, seats[2].board(view2))[view2.own_hand.index(11)]
    assert {x for x in threes if note11 >> x & 1} == {card(Y, 3), card(G, 3)}


def turns_of(players: int, seeds: range) -> Iterator[tuple[NaturalStrategy, PlayerView, Action]]:
    """Every turn of natural self-play: the acting seat (before it acts), its view and its action."""
    config = make_config(players, "hanab-live")
    factory = factory_for("natural")
    for seed in seeds:
        game = GameMoves(config, factory, seed=seed)
        while game.turn is not None:
            seat, view = game.turn
            strategy = game.strategies[seat]
            assert isinstance(strategy, NaturalStrategy)
            action = strategy.act(view)
            yield strategy, view, action
            game.send(action)


@pytest.mark.checks("NAT-stall", "NAT-turn")
def test_a_seat_stalls_with_a_clue_only_when_the_deck_is_nearly_out() -> None:
    stalled = low_clue_discards = 0
    for seat, view, action in turns_of(5, range(40, 50)):  # seeds with a stall: rarer since NAT-prompt and NAT-finesse
        if view.clue_tokens == 0 or view.remaining is not None or isinstance(action, Play):
            continue
        board = seat.board(view)
        best = seat.best_clue(view, board)
        value = -1.0 if best is None else best[0]
        if isinstance(action, Discard):
            if view.deck_size <= STALL_DECK:  # [NAT-stall] a discard only when no clue is worth 0.01
                assert value < 0.01, (view.turns, value)
            elif 0.01 <= value < 1:
                low_clue_discards += 1  # earlier in the deck such a clue is not given
        elif view.deck_size <= STALL_DECK and 0.01 <= value < 1 and action == best[1]:  # type: ignore[index]
            stalled += 1
    assert stalled > 0 and low_clue_discards > 0


@pytest.mark.checks("NAT-give", "R-3")
def test_once_the_deck_is_out_a_clue_is_worth_only_the_plays_it_tells() -> None:
    checked = 0
    for seat, view, _ in turns_of(5, range(6)):
        if view.remaining is None or view.clue_tokens == 0:
            continue
        board = seat.board(view)
        seen = seat.touched_identities(view, board)
        for offset in range(1, 5):
            target = (seat.seat + offset) % 5
            cards = view.hands[target]
            for _, touched, every, reading in seat.readings(view, board, target):
                score = seat.value_of(view, board, target, reading, touched, every, seen)
                told = any(view.cards[target][cards.index(c)] is not None
                           and board.playable >> view.cards[target][cards.index(c)] & 1  # type: ignore[operator]
                           for c in touched)
                if score is not None and not told and not reading.play:
                    assert score == 0.0, (view.turns, touched, score)  # touching and narrowing count nothing
                    checked += 1
    assert checked >= 10


@pytest.mark.deep  # 300 whole games: about 10 CPU seconds
@pytest.mark.checks("NAT-finesse", "NAT-prompt", "NAT-trust")
@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_blind_or_prompted_play_misses_over_many_games(players: int) -> None:
    config = make_config(players, "hanab-live")
    factory = factory_for("natural")
    blind = 0
    for seed in range(100):
        game = GameMoves(config, factory, seed=seed)
        while game.turn is not None:
            seat, view = game.turn
            strategy = game.strategies[seat]
            assert isinstance(strategy, NaturalStrategy)
            action = strategy.act(view)
            told = isinstance(action, Play) and (view.own_hand[action.slot] == strategy.finesse
                                                 or view.own_hand[action.slot] in strategy.notes.prompted_by)
            before = sum(view.fireworks)
            game.send(action)
            if told:  # a finesse's blind play, or a prompted card: the giver checked it, it must succeed
                blind += 1
                after = game.record().final.fireworks if game.turn is None else game.turn[1].fireworks
                assert sum(after) == before + 1, (seed, view.turns)
    assert blind > 50
