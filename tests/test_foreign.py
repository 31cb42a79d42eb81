"""Convention bots beside partners who do not keep their convention (spec/strategies.md
section 6, S-foreign): they never raise, the team leaves the code on a public break,
the guard stops impossible plays, and self-play is the unwrapped bots' game for game.

The partners and seeds below are ones on which the bots raised before S-foreign (an
``AssertionError`` "Lemma 4", a ``CodeError`` or a ``ValueError`` out of ``play_game``), or
before the hint choice of the information strategy learnt to see a card's public knowledge
lose the card (a ``ZeroDivisionError``, seeds 446 and 401, found by ``crossplay``);
the self-play comparisons play the bots' own classes without the wrapper.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.history import Event
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.view import PlayerView, make_view, view_is_legal
from hanabi_ref.players.runner import play_game
from hanabi_ref.players.strategies import factory_for, strategy_spec
from hanabi_ref.players.strategies.adapt import (
    KEPT_TOKENS, Adaptive, Careful, ForeignMove, is_guarded, is_off_rule, mover_before, reckless_seats, thesis_fallback, is_public_break,
    is_surely_unplayable,
)
from hanabi_ref.players.strategies.hat.codes import CodeError, UndecodableHint, check_choice, decode_event, hat_code, seen_hands
from hanabi_ref.players.strategies.info.knowledge import BoardReader, Moment
from hanabi_ref.players.strategies.info.reading import codes_of, number_of_hint
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.players.strategies.hat.recommendation import recommendation_code
from hanabi_ref.players.strategies.hat.values import IS_PLAY
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyFactory

CONVENTIONS = ("hat", "hat-classic", "recommendation", "info", "info-source", "learned-recommendation")


def team(partner: str, bot: str, partner_seats: int = 1) -> tuple[StrategyFactory, list[Adaptive]]:
    """Seats 0 .. partner_seats - 1 play ``partner``, the others ``bot``; the bot's seats
    (wrapped) are collected."""
    made: list[Adaptive] = []
    own, other = factory_for(bot), factory_for(partner)

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        if seat < partner_seats:
            return other(config, seat, seed)
        strategy = own(config, seat, seed)
        assert isinstance(strategy, Adaptive)
        made.append(strategy)
        return strategy

    return factory, made


def unwrapped(bot: str) -> tuple[StrategyFactory, list[Adaptive]]:
    """The bot's own strategies, without the wrapper (the wrappers are collected)."""
    made: list[Adaptive] = []
    wrapped = factory_for(bot)

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        strategy = wrapped(config, seat, seed)
        assert isinstance(strategy, Adaptive)
        made.append(strategy)
        return strategy.convention

    return factory, made


RAISED_BEFORE = [
    ("hat", "random", (4, 7, 9)),
    ("recommendation", "random", (2, 4, 7)),
    ("recommendation", "thesis", (0, 2, 3)),
    ("info", "random", (14, 15, 446)),
    ("info", "thesis", (1, 6)),
    ("info", "hat-classic", (401,)),
]


@pytest.mark.checks("S-foreign", "S-foreign-detect", "H-code-error")
@pytest.mark.parametrize("bot, partner, seeds", RAISED_BEFORE)
def test_no_bot_raises_where_it_raised_before(bot: str, partner: str, seeds: tuple[int, ...]) -> None:
    config = make_config(4, "hanab-live")
    for seed in seeds:
        factory, made = team(partner, bot)
        record = play_game(config, factory, seed=seed)
        assert record.final.terminal
        # each game broke the code: some seat of the bot left it, and said why
        assert any(seat.left is not None for seat in made)


@pytest.mark.checks("S-foreign")
@pytest.mark.parametrize("bot", CONVENTIONS)
def test_every_bot_plays_on_beside_every_kind_of_partner(bot: str) -> None:
    config = make_config(4, "hanab-live")
    for partner in ("random", "simple", "thesis", *(name for name in CONVENTIONS if name != bot)):
        factory, _ = team(partner, bot, partner_seats=2 if partner == "random" else 1)
        assert play_game(config, factory, seed=3).final.terminal


@pytest.mark.checks("S-foreign-selfplay", "S-foreign-team", "S-foreign-guard")
@pytest.mark.parametrize("bot, players", [(name, p) for name in CONVENTIONS for p in (4, 5)
                                          if not (name == "learned-recommendation" and p == 5)])
def test_self_play_is_the_unwrapped_bots_game_for_game(bot: str, players: int) -> None:
    presets = [preset for preset in ("thesis", "hle", "hanab-live")
               if strategy_spec(bot).unsupported is None or strategy_spec(bot).unsupported(make_config(players, preset)) is None]  # type: ignore[misc]
    assert "hanab-live" in presets
    for preset in presets:
        config = make_config(players, preset)
        for seed in range(3):
            ours, seats = team(bot, bot, partner_seats=0)
            theirs, _ = unwrapped(bot)
            assert play_game(config, ours, seed=seed).trace == play_game(config, theirs, seed=seed).trace
            assert all(seat.left is None and seat.guarded == 0 for seat in seats)


def test_python_O_plays_the_same_games() -> None:
    """[S-foreign] no protocol condition is an ``assert``: under ``python -O`` the games on
    which the hat bots once failed an assertion are the same, move for move."""
    script = (
        "from hanabi_ref.players.runner import play_game\n"
        "from hanabi_ref.engine.configs import make_config\n"
        "from tests.test_foreign import team\n"
        "config = make_config(4, 'hanab-live')\n"
        "for seed in (4, 7, 9):\n"
        "    print(play_game(config, team('random', 'hat')[0], seed=seed).trace.actions)\n"
    )
    runs = [subprocess.run([sys.executable, *flags, "-c", script], capture_output=True, text=True, check=True).stdout
            for flags in ([], ["-O"])]
    assert runs[0] == runs[1] and runs[0].count("\n") == 3


# ------------------------------------------------------------------ the wrapper, unit by unit


class Scripted(BaseStrategy):
    """A stand-in convention: plays the given actions, raising what it is told to raise."""

    def __init__(self, actions: list[Action | Exception], on_observe: Exception | None = None) -> None:
        self.actions = actions
        self.on_observe = on_observe
        self.observed = 0

    def observe(self, view: PlayerView, event: Event) -> None:
        self.observed += 1
        if self.on_observe is not None:
            raise self.on_observe

    def act(self, view: PlayerView) -> Action:
        action = self.actions.pop(0)
        if isinstance(action, Exception):
            raise action
        return action


class Fixed(BaseStrategy):
    """A fallback that always makes one move."""

    def __init__(self, action: Action) -> None:
        self.action = action

    def act(self, view: PlayerView) -> Action:
        return self.action


def position(config: GameConfig, moves: list[Action], seed: int = 1) -> tuple[PlayerView, Event]:
    """The view of the seat to move after ``moves``, and the last move's event."""
    state = initial_state(config, deck_from_seed(config, seed))
    for move in moves:
        state = apply(state, move)
    return make_view(state, state.current_player), state.history[-1]


@pytest.mark.checks("S-foreign-guard")
def test_the_guard_replaces_a_play_the_knowledge_rules_out() -> None:
    config = make_config(2, "hle")
    state = initial_state(config, deck_from_seed(config, 1))
    # a value hint on a card of value v >= 2 tells its holder it cannot be played on empty fields
    slot, card = next((slot, card) for slot, card in enumerate(state.hands[1]) if state.deck[card] % config.values != 0)
    view, _ = position(config, [Hint(1, "value", state.deck[card] % config.values + 1)])
    assert view.seat == 1 and view.deck_size > 0
    assert is_guarded(view, slot)
    ones = [s for s, c in enumerate(state.hands[1]) if state.deck[c] % config.values == 0 and s != slot]
    fallback = Discard(0)
    seat = Adaptive(Scripted([Play(slot)]), lambda: Fixed(fallback))
    assert seat.act(view) == fallback
    assert seat.guarded == 1 and seat.left is None  # the seat keeps its convention
    if ones:  # a card its holder knows nothing of may be playable: it is not guarded
        assert not is_guarded(view, ones[0]) or view.own_knowledge[ones[0]] != view.tables.all_cards_mask


@pytest.mark.checks("S-foreign-guard")
def test_the_guard_lets_a_free_miss_through() -> None:
    """With the deck empty and strikes to spare, a card known dead may be played; on the
    last strike it may not."""
    config = make_config(3, "hle")
    found = 0
    for seed in range(20):
        record = play_game(config, factory_for("thesis"), seed=seed)
        state = initial_state(config, deck_from_seed(config, seed))
        for action in record.trace.actions:
            if state.deck_size == 0 or state.terminal:
                break
            state = apply(state, action)
        if state.terminal or state.deck_size > 0:
            continue
        view = make_view(state, state.current_player)
        for slot in range(len(view.own_hand)):
            if is_surely_unplayable(view, slot):
                found += 1
                assert is_guarded(view, slot) == (state.strikes + 1 >= config.max_errors)  # type: ignore[operator]
    assert found > 0


@pytest.mark.checks("S-foreign-detect", "S-foreign-fallback")
def test_a_foreign_move_makes_the_seat_leave_for_good() -> None:
    config = make_config(2, "hle")
    view, event = position(config, [Hint(1, "value", 1)])
    fallback = Fixed(Hint(0, "value", 2))
    seat = Adaptive(Scripted([Discard(0)], on_observe=ForeignMove("Q-test", "a move no honest cluer makes")),
                    lambda: fallback)
    seat.observe(view, event)
    assert seat.left is not None and "Q-test" in seat.left
    assert seat.act(view) == fallback.action  # the convention is not asked again
    assert seat.convention.actions == [Discard(0)]  # type: ignore[attr-defined]


@pytest.mark.checks("S-foreign-detect")
def test_an_act_that_finds_the_code_broken_falls_back_at_once() -> None:
    config = make_config(2, "hle")
    view, _ = position(config, [Hint(1, "value", 1)])
    seat = Adaptive(Scripted([ForeignMove("Q-test", "no reading")]), lambda: Fixed(Discard(1)))
    assert seat.act(view) == Discard(1) and seat.left is not None


@pytest.mark.checks("S-foreign")
def test_a_bug_of_the_bot_is_not_taken_for_a_foreign_move() -> None:
    config = make_config(2, "hle")
    view, _ = position(config, [Hint(1, "value", 1)])
    seat = Adaptive(Scripted([ValueError("a bug")]), lambda: Fixed(Discard(1)))
    with pytest.raises(ValueError, match="a bug"):
        seat.act(view)


@pytest.mark.checks("S-foreign-team")
def test_a_failed_play_with_cards_left_breaks_the_code_for_everyone() -> None:
    config = make_config(3, "hle")
    state = initial_state(config, deck_from_seed(config, 5))
    slot = next(slot for slot, card in enumerate(state.hands[0]) if state.deck[card] % config.values != 0)
    state = apply(state, Play(slot))
    event = state.history[-1]
    assert event.success is False and event.drawn is not None
    seats = [Adaptive(Scripted([]), lambda: Fixed(Discard(0))) for _ in range(3)]
    for seat, strategy in enumerate(seats):
        strategy.observe(make_view(state, seat), event)
    assert all(strategy.left is not None and "S-foreign-team" in strategy.left for strategy in seats)
    assert all(strategy.convention.observed == 0 for strategy in seats)  # type: ignore[attr-defined]
    # a convention that may miss honestly is not broken by it
    assert not is_public_break(make_view(state, 1), event, lambda view, event: True)


@pytest.mark.checks("H-code-error", "S-foreign-detect")
def test_an_undecodable_hint_is_a_foreign_move_and_a_code_error() -> None:
    code = recommendation_code(make_config(4, "hanab-live"))
    sizes = getattr(code, "sizes")
    offset = sizes.index(2) + 1  # a part of size 2 has no class for a hint avoiding the newest card
    with pytest.raises(UndecodableHint) as caught:
        code.decode(0, Hint(offset, "value", 1), False)
    assert isinstance(caught.value, CodeError) and isinstance(caught.value, ForeignMove)



# ------------------------------------------------------------------ S-foreign-order


@pytest.mark.checks("S-foreign-order")
def test_is_off_rule_follows_the_clause_case_by_case() -> None:
    # 1. a recommended play that surely stands: that play and nothing else
    assert not is_off_rule(Play(2), 2, True, 0, True)
    for move in (Play(1), Discard(2), Hint(1, "value", 1)):
        assert is_off_rule(move, 2, True, 0, True)
    # a play that may be stale allows the play and the rule's other moves
    for move in (Play(2), Discard(0), Hint(1, "value", 1)):
        assert not is_off_rule(move, 2, False, 0, True)
    # 2. a play of another slot, unless it is the last resort
    assert is_off_rule(Play(3), 2, False, 0, True)
    assert is_off_rule(Play(3), None, False, None, True)
    assert not is_off_rule(Play(3), None, False, None, True, last_play=3)
    # 3. a discard of another slot than the rule's, or where the rule discards nothing
    assert is_off_rule(Discard(1), None, False, 0, False)
    assert is_off_rule(Discard(0), None, False, None, True)
    assert not is_off_rule(Discard(0), None, False, 0, False)
    # 4. a hint without a token
    assert is_off_rule(Hint(1, "value", 1), None, False, 0, False)


def _rec_stands(seat: object) -> bool:
    own = getattr(seat, "own")
    return own.received is not None and IS_PLAY[own.received] and not own.played_since


def _learned_stands(seat: object) -> bool:
    memory, code = getattr(seat, "memory"), getattr(seat, "code")
    return memory.received is not None and memory.received >= code.hand_size and not memory.played_since


class Deviant(BaseStrategy):
    """A seat of the convention that keeps it until it holds a recommended play that surely
    stands, and then discards that card instead (once)."""

    def __init__(self, inner: Adaptive, stands: Callable[[object], bool]) -> None:
        self.inner, self.stands = inner, stands
        self.turn: int | None = None

    def observe(self, view: PlayerView, event: Event) -> None:
        self.inner.observe(view, event)

    def act(self, view: PlayerView) -> Action:
        action = self.inner.act(view)
        if (self.turn is None and self.inner.left is None and isinstance(action, Play) and self.stands(self.inner.convention)
                and view_is_legal(view, Discard(action.slot))):
            self.turn = view.turns
            return Discard(action.slot)
        return action


@pytest.mark.checks("S-foreign-order", "S-foreign-team")
@pytest.mark.parametrize("bot, stands", [("recommendation", _rec_stands), ("learned-recommendation", _learned_stands)])
def test_a_move_off_the_rule_makes_every_other_seat_leave_at_once(bot: str, stands: Callable[[object], bool]) -> None:
    config = make_config(4, "hanab-live")
    deviated = 0
    for seed in range(4):
        made: list[Adaptive] = []
        deviants: list[Deviant] = []
        own = factory_for(bot)

        def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
            strategy = own(config, seat, seed)
            assert isinstance(strategy, Adaptive)
            if seat == 0:
                deviants.append(Deviant(strategy, stands))
                return deviants[0]
            made.append(strategy)
            return strategy

        play_game(config, factory, seed=seed)
        turn = deviants[0].turn
        if turn is None:
            assert all(seat.left is None for seat in made)
            continue
        deviated += 1
        # every other seat saw the same move break the rule, at that move
        assert all(seat.left is not None and seat.left.startswith(f"turn {turn}: S-foreign-order") for seat in made), \
            [seat.left for seat in made]
    assert deviated >= 2


# ------------------------------------------------------------------ the code's own choice of hint


@pytest.mark.checks("H-code-choice", "S-foreign-detect")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_hint_that_is_not_the_codes_choice_is_foreign_to_the_seats_that_see_the_target(seed: int) -> None:
    config = make_config(4, "hanab-live")
    code = hat_code(config)
    state = initial_state(config, deck_from_seed(config, seed))
    target, hand = 1, state.hands[1]
    newest = max(hand)
    identities = [state.deck[card] for card in hand]
    # by hand, in catalogue order (colours, then values): the hints to seat 1 that touch some
    # card but not its newest card; the code sends each such number by the first of them
    avoiding = [hint for hint, mask in tables_for(config).action_catalogue.hints[target]
                if any(mask >> x & 1 for x in identities) and not mask >> state.deck[newest] & 1]
    assert len(avoiding) >= 2
    for rank, hint in enumerate(avoiding):
        after = apply(state, hint)
        event = after.history[-1]
        number = decode_event(code, event, after.hands[target])
        for seat in (2, 3):  # they see seat 1's hand
            if rank == 0:
                check_choice(code, event, number, seen_hands(make_view(after, seat)))
            else:
                with pytest.raises(ForeignMove, match="H-code-choice"):
                    check_choice(code, event, number, seen_hands(make_view(after, seat)))


@pytest.mark.checks("I-hint-choice", "S-foreign-detect")
def test_an_information_hint_other_than_the_best_of_its_type_is_foreign() -> None:
    config = make_config(4, "hanab-live")
    checked = 0
    for seed in range(6):
        state = initial_state(config, deck_from_seed(config, seed))
        seats = [factory_for("info")(config, seat, seed) for seat in range(4)]
        hinter = seats[0]
        assert isinstance(hinter, Adaptive)
        action = hinter.act(make_view(state, 0))
        if not isinstance(action, Hint):
            continue
        # every other hint to the same seat that sends the same number, as seat 0 reads it
        public = hinter.convention.public  # type: ignore[attr-defined]
        before = Moment.of(make_view(state, 0), BoardReader(config).of(make_view(state, 0)))
        codes = codes_of(public, before, 0)
        honest = apply(state, action)
        same = []
        for hint, _ in tables_for(config).action_catalogue.hints[action.target]:
            if hint == action or not view_is_legal(make_view(state, 0), hint):
                continue
            other = apply(state, hint)
            if number_of_hint(codes, before, hint, other.history[-1].touched) == \
                    number_of_hint(codes, before, action, honest.history[-1].touched):
                same.append(other)
        for after, foreign in [(honest, False)] + [(other, True) for other in same]:
            for seat in range(1, 4):
                reader = factory_for("info")(config, seat, seed)
                assert isinstance(reader, Adaptive)
                reader.observe(make_view(after, seat), after.history[-1])
                checked += foreign and seat != action.target
                assert (reader.left is not None and "I-hint-choice" in reader.left) == (foreign and seat != action.target)
    assert checked >= 2


@pytest.mark.checks("RL-hat-offsets", "S-foreign-detect")
def test_a_learned_reveal_other_than_the_first_legal_one_of_its_sum_is_foreign() -> None:
    config = make_config(4, "hanab-live")
    checked = 0
    for seed in range(8):
        # turn 0: seat 0 plays its code's move (a hint, spending a token), so that seat 1 (the
        # sender) may discard and so sends its message
        start = initial_state(config, deck_from_seed(config, seed))
        opener = factory_for("learned-recommendation")(config, 0, seed)
        first = apply(start, opener.act(make_view(start, 0)))
        if not isinstance(first.history[-1].action, Hint):
            continue
        sender = factory_for("learned-recommendation")(config, 1, seed)
        assert isinstance(sender, Adaptive)
        sender.observe(make_view(first, 1), first.history[-1])
        code = sender.convention.code  # type: ignore[attr-defined]
        view = make_view(first, 1)
        encoding, hats = code.message(view)
        if sender.act(view) != code.reveal(encoding, 1):
            continue  # seat 1 does not send its message here (it plays)
        info = sum(hats.values()) % code.alphabet
        assert encoding % code.alphabet == info
        # by hand: the reveals that carry the same sum, in order, and which of them are legal
        legal = [e for e in range(info, code.reveals, code.alphabet) if view_is_legal(view, code.reveal(e, 1))]
        assert legal[0] == encoding
        for rank, e in enumerate(legal):
            after = apply(first, code.reveal(e, 1))
            for seat in (0, 2, 3):
                reader = factory_for("learned-recommendation")(config, seat, seed)
                assert isinstance(reader, Adaptive)
                reader.observe(make_view(first, seat), first.history[-1])
                reader.observe(make_view(after, seat), after.history[-1])
                # the reader can tell while the earlier reveals go to other seats: it sees
                # the break if one of them, legal (as the sender saw), comes before any to it
                foreign = False
                for c in range(info, e, code.alphabet):
                    if code.reveal(c, 1).target == seat:
                        break
                    if c in legal:
                        foreign = True
                        break
                checked += foreign
                assert (reader.left is not None and "RL-hat-offsets" in reader.left) == foreign, (seed, rank, seat)
    assert checked >= 2


@pytest.mark.checks("S-foreign-fallback", "4.6-omega-p")
def test_the_fallback_plays_only_sure_cards_once_a_strike_is_made() -> None:
    config = make_config(3, "thesis")
    fallback = thesis_fallback(config, 0, 0)()
    assert isinstance(fallback, Careful)
    state = initial_state(config, deck_from_seed(config, 5))
    calm = Careful(Fixed(Play(0)), Fixed(Discard(0)), Fixed(Discard(1)))
    assert calm.act(make_view(state, 0)) == Play(0)  # no strike yet: the default parameters
    slot = next(slot for slot, card in enumerate(state.hands[0]) if state.deck[card] % config.values != 0)
    state = apply(state, Play(slot))  # a strike
    state = apply(state, Discard(0))
    state = apply(state, Discard(0))
    assert state.strikes == 1 and state.current_player == 0
    assert calm.act(make_view(state, 0)) == Discard(0)
    # the fallback's halves are thesis with the spec's omega_p (0.6, 4.6-params) and omega_p = 1
    assert getattr(fallback.bold, "omega_p") == (3, 5) and getattr(fallback.sure, "omega_p") == (1, 1)


@pytest.mark.checks("S-foreign-keep", "4.6-omega-h")
def test_the_fallback_leaves_a_reckless_next_seat_a_token() -> None:
    """[S-foreign-keep] seat 0 misses with a card no clue touched: it is reckless, and seat 2
    (before it, of 3) keeps its last 2 tokens; a miss with a clued card makes nobody
    reckless."""
    config = make_config(3, "hanab-live")
    state = initial_state(config, deck_from_seed(config, 5))
    values = config.values
    slot = next(slot for slot, card in enumerate(state.hands[0]) if state.deck[card] % values != 0)
    state = apply(state, Play(slot))  # seat 0: a blind miss
    assert reckless_seats(make_view(state, 1)) == {0}
    calm = Careful(Fixed(Play(0)), Fixed(Discard(0)), Fixed(Discard(1)))
    while not (state.current_player == 2 and state.clue_tokens <= KEPT_TOKENS):
        seat = state.current_player
        target = (seat + 1) % 3
        state = apply(state, Hint(target, "value", state.deck[state.hands[target][0]] % values + 1))
        if state.current_player == 2 and state.clue_tokens > KEPT_TOKENS:
            assert calm.act(make_view(state, 2)) == Discard(0)  # tokens to spare: the careful play
    assert calm.act(make_view(state, 2)) == Discard(1)  # the thrifty half
    assert calm.act(make_view(state, 1)) == Discard(0)  # seat 1's next seat (2) is not reckless
    # a miss with a card a clue touched: not reckless
    clued = initial_state(config, deck_from_seed(config, 5))
    card = next(card for card in clued.hands[1] if clued.deck[card] % values != 0)
    clued = apply(clued, Hint(1, "value", clued.deck[card] % values + 1))
    clued = apply(clued, Play(clued.hands[1].index(card)))
    assert clued.history[-1].success is False and reckless_seats(make_view(clued, 0)) == set()
    # the thrifty half is thesis with omega_p = 1 and omega_h = 0
    fallback = thesis_fallback(config, 2, 0)()
    assert isinstance(fallback, Careful)
    assert getattr(fallback.thrifty, "omega_p") == (1, 1) and getattr(fallback.thrifty, "omega_h") == 0


@pytest.mark.checks("S-foreign-order")
@pytest.mark.parametrize("preset", ["hanab-live", "thesis"])
def test_the_first_moves_hand_and_tokens_are_read_back_from_the_view_after_it(preset: str) -> None:
    """[S-foreign-order] no seat has a view before the game's first move; the mover's card
    ids and tokens then are those of the deal, for a play, a discard or a hint."""
    config = make_config(4, preset)
    start = initial_state(config, deck_from_seed(config, 8))
    moves: list[Action] = [Play(2), Hint(1, "value", start.deck[start.hands[1][0]] % config.values + 1)]
    if preset == "thesis":
        moves.append(Discard(1))  # a discard with every token: allowed by the thesis rules
    for move in moves:
        after = apply(start, move)
        for seat in range(1, 4):
            assert mover_before(make_view(after, seat), after.history[-1]) == (tuple(start.hands[0]), start.clue_tokens)
