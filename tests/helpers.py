"""Shared test helpers: decks built by hand, independent reference computations, and the
Hypothesis strategies that reach game states by legal play.

Everything named ``expected_*`` or ``reference_*`` here is computed from the sources
(the thesis' definitions, the variant tables of spec/rules.md section 6) without calling
the engine function it is compared with; the engine supplies only the representation of
a card identity (``hanabi_ref.engine.cards.identity``, itself tested in test_config.py).
"""

from __future__ import annotations

from collections import Counter
import functools
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import attrs
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity, as_identities, identity
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, deck_size
from hanabi_ref.players.strategies.hat.player import Snapshot
from hanabi_ref.engine.transition import apply, initial_state

# ------------------------------------------------------------------ cards and decks

CLASSIC_COUNTS: Final = (3, 2, 2, 2, 1)  # Example 2.10: three 1s, two 2s, 3s, 4s, one 5
SINGLE_COUNTS: Final = (1, 1, 1, 1, 1)  # Example 2.12's sixth suit, V-black
RAINBOW_VARIANT: Final = "Rainbow (6 Suits)"

# spec/rules.md section 6, transcribed: the per-suit counts of each named variant.
VARIANT_COUNTS: Final[dict[str, tuple[tuple[int, ...], ...]]] = {
    "No Variant": (CLASSIC_COUNTS,) * 5,
    "6 Suits": (CLASSIC_COUNTS,) * 6,
    "Black (6 Suits)": (CLASSIC_COUNTS,) * 5 + (SINGLE_COUNTS,),
    "Rainbow (6 Suits)": (CLASSIC_COUNTS,) * 6,
    "Dutch Rainbow (Example 2.12)": (CLASSIC_COUNTS,) * 5 + (SINGLE_COUNTS,),
}


HAT_VARIANTS = ("no-variant", "6-suits", "rainbow", "black")
HAT_CONFIGS = [(players, "hanab-live", variant) for players in (4, 5) for variant in HAT_VARIANTS] + [
    (4, "thesis", "no-variant"),  # empty hints allowed: the list code (H-code-empty)
    (5, "thesis", "no-variant"),
]
"""(players, preset, variant) of every configuration the hat strategies play in tests."""


def card(config: GameConfig, value: int, suit: int) -> Identity:
    """The identity of (value, suit) in ``config``; suit counted from 0."""
    return identity(value, suit, config.values)


def hat_snapshot(config: GameConfig, tokens: int, fields: dict[int, int] | None = None,
                 discarded: tuple[tuple[int, int], ...] = ()) -> Snapshot:
    """A hat player's public snapshot of a board of five suits: the fields' heights by suit
    (0 elsewhere), the (value, suit) cards discarded, ``tokens`` clue tokens, 30 cards in
    the stack, no strikes."""
    heights = [0] * 5
    for suit, height in (fields or {}).items():
        heights[suit] = height
    lost = [0] * 25
    for value, suit in discarded:
        lost[card(config, value, suit)] += 1
    return Snapshot(tuple(heights), tuple(lost), tokens, 30, 0)


def expected_counts(config: GameConfig) -> tuple[tuple[int, ...], ...]:
    """The per-suit counts the configuration should have, from the variant table (or the
    composition a custom configuration was given, which the test itself chose)."""
    if config.variant == "Custom":
        return tuple(suit.counts for suit in config.suits)
    return VARIANT_COUNTS[config.variant]


def expected_multiset(config: GameConfig) -> Counter[int]:
    """The multiset of identities of S0 [2.9-composition], from :func:`expected_counts`."""
    result: Counter[int] = Counter()
    for suit, counts in enumerate(expected_counts(config)):
        for value, count in enumerate(counts, start=1):
            if count:
                result[card(config, value, suit)] += count
    return result


def all_cards(config: GameConfig) -> int:
    """Cards(H) = {1..n} x {1..k} as a bitmask, built pair by pair [2.9-cards]."""
    mask = 0
    for suit in range(config.suit_count):
        for value in range(1, config.values + 1):
            mask |= 1 << card(config, value, suit)
    return mask


def stacked_deck(config: GameConfig, top: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """A deck whose first cards are the given (value, suit) pairs, followed by the rest
    of the composition in (value-major) order; raises if ``top`` is not a sub-multiset."""
    rest = expected_multiset(config)
    deck = []
    for value, suit in top:
        c = card(config, value, suit)
        if rest[c] <= 0:
            raise ValueError(f"({value}, {suit}) is not left in the composition")
        rest[c] -= 1
        deck.append(c)
    for value in range(1, config.values + 1):
        for suit in range(config.suit_count):
            c = card(config, value, suit)
            deck.extend([c] * rest[c])
    return tuple(deck)


def suit_and_value(config: GameConfig, identity_: int) -> tuple[int, int]:
    """(suit, value) of an identity, inverted by search over Cards(H) (independent of
    ``cards.suit_of`` / ``cards.value_of``)."""
    for suit in range(config.suit_count):
        for value in range(1, config.values + 1):
            if card(config, value, suit) == identity_:
                return suit, value
    raise ValueError(identity_)


# ------------------------------------------------------------------ hints, independently


def colour_suits(config: GameConfig, colour: int) -> set[int]:
    """The suits a clue colour touches, from spec/rules.md section 6: colour c touches
    suit c; under Rainbow (6 Suits) it also touches the rainbow suit 5 [V-suit, V-rainbow]."""
    suits = {colour}
    if config.variant == RAINBOW_VARIANT:
        suits.add(5)
    return suits


def reference_hint_mask(config: GameConfig, hint: Hint) -> int:
    """The identities a hint names: {(a, y)} for a value hint on a, {(x, y) : y in T} for
    a colour touching the suits T [2.16-2a-value, 2.16-2a-suit]."""
    mask = 0
    touched = colour_suits(config, hint.subject) if hint.kind == "colour" else set()
    for suit in range(config.suit_count):
        for value in range(1, config.values + 1):
            if (hint.kind == "value" and value == hint.subject) or suit in touched:
                mask |= 1 << card(config, value, suit)
    return mask


def reference_knowledge(state: GameState, seat: int) -> tuple[int, ...]:
    """K_c of every card of ``seat``, recomputed from the public history alone: start from
    Cards(H) when the card was dealt or drawn, then for each later hint to ``seat`` keep
    the hint's identities if the card is one of them, else remove them [2.14, 2.16-2a]."""
    config = state.config
    dealt = config.players * config.hand_size
    drawn_at = {event.drawn: index for index, event in enumerate(state.history) if event.drawn is not None}
    masks: dict[Hint, int] = {}  # each hint's identities, worked out once per call
    everything = all_cards(config)
    result = []
    for card_id in state.hands[seat]:
        start = -1 if card_id < dealt else drawn_at[card_id]
        known = everything
        for event in state.history[start + 1 :]:
            action = event.action
            if isinstance(action, Hint) and action.target == seat:
                if action not in masks:
                    masks[action] = reference_hint_mask(config, action)
                mask = masks[action]
                if mask >> state.deck[card_id] & 1:
                    known &= mask
                else:
                    known &= ~mask
        result.append(known)
    return tuple(result)


# ------------------------------------------------------------------ playing


def is_playable(state: GameState, slot: int) -> bool:
    """Whether the current player's card in ``slot`` extends its field stack (an open
    check: it looks at the card)."""
    suit, value = suit_and_value(state.config, state.deck[state.hands[state.current_player][slot]])
    return state.fireworks[suit] == value - 1


def play_all(state: GameState, actions: Sequence[Action]) -> list[GameState]:
    """The states after each action, in order (the first element is ``state``)."""
    states = [state]
    for action in actions:
        states.append(apply(states[-1], action))
    return states


def greedy_open_action(state: GameState) -> Action:
    """An open (cheating) rule: play a playable card if there is one; else hint the next
    seat if a hint is legal; else discard slot 0 if legal; else the first legal action."""
    legal = legal_actions(state)
    for action in legal:
        if isinstance(action, Play) and is_playable(state, action.slot):
            return action
    for action in legal:
        if isinstance(action, Hint):
            return action
    for action in legal:
        if isinstance(action, Discard):
            return action
    return legal[0]


def play_out(state: GameState, rule: Callable[[GameState], Action], limit: int = 10_000) -> list[GameState]:
    """Play ``rule`` until the game stops; every state on the way."""
    states = [state]
    while not states[-1].terminal:
        assert len(states) < limit, "the game did not end"
        states.append(apply(states[-1], rule(states[-1])))
    return states


# ------------------------------------------------------------------ hidden rearrangements


def hidden_rearrangement(state: GameState, seat: int, order: Sequence[int]) -> tuple[int, ...]:
    """A deck for ``state`` in which the identities of the cards ``seat`` cannot see (its
    own hand and the stack) are redistributed among those positions, each of its hand
    cards receiving an identity in its knowledge set K_c.

    ``order`` (a permutation of the hidden cards) says which identities to try first; the
    assignment of hand cards is a bipartite matching (Kuhn's augmenting paths), which
    exists because the true deck is one.  The remaining identities fill the stack in
    ``order``."""
    hand = state.hands[seat]
    stack_ids = list(range(state.next_card, len(state.deck)))
    pool = [state.deck[c] for c in hand] + [state.deck[i] for i in stack_ids]
    assert sorted(order) == list(range(len(pool)))
    knowledge = state.knowledge[seat]
    owner: dict[int, int] = {}  # pool index -> hand slot

    def augment(slot: int, seen: set[int]) -> bool:
        for index in order:
            if index in seen or not knowledge[slot] >> pool[index] & 1:
                continue
            seen.add(index)
            if index not in owner or augment(owner[index], seen):
                owner[index] = slot
                return True
        return False

    for slot in range(len(hand)):
        assert augment(slot, set()), "no assignment consistent with the knowledge sets"
    deck = list(state.deck)
    for index, slot in owner.items():
        deck[hand[slot]] = pool[index]
    leftovers = [pool[index] for index in order if index not in owner]
    for position, identity_ in zip(stack_ids, leftovers, strict=True):
        deck[position] = identity_
    return tuple(deck)


def visible_swap(state: GameState, seat: int) -> tuple[int, ...] | None:
    """A deck that changes one card ``seat`` can see: a card of another seat's hand is
    exchanged with a stack card of a different identity that its owner's knowledge still
    allows (so the state stays valid).  None if no such exchange exists."""
    for other, hand in enumerate(state.hands):
        if other == seat:
            continue
        for slot, card_id in enumerate(hand):
            known = state.knowledge[other][slot]
            for position in range(state.next_card, len(state.deck)):
                candidate = state.deck[position]
                if candidate != state.deck[card_id] and known >> candidate & 1:
                    deck = list(state.deck)
                    deck[card_id], deck[position] = candidate, state.deck[card_id]
                    return tuple(deck)
    return None


def with_deck(state: GameState, deck: tuple[int, ...]) -> GameState:
    """``state`` with another deck; the state's invariants are re-checked."""
    return attrs.evolve(state, deck=tuple(as_identities(deck)))


def drawn_rearrangement(state: GameState, data: st.DataObject) -> GameState:
    """``state`` with the cards its seat to move cannot see redistributed
    (:func:`hidden_rearrangement`) in an order Hypothesis draws from ``data``."""
    seat = state.current_player
    order = data.draw(st.permutations(range(len(state.hands[seat]) + deck_size(state))))
    return with_deck(state, hidden_rearrangement(state, seat, order))


# ------------------------------------------------------------------ Hypothesis strategies

NAMED_VARIANTS: Final = ("no-variant", "6-suits", "black", "rainbow", "dutch-rainbow")
HANAB_LIVE_VARIANTS: Final = ("no-variant", "6-suits", "black", "rainbow")


@st.composite
def compositions(draw: st.DrawFn) -> list[list[int]]:
    """Small custom compositions: 1-3 suits, 1-4 values, 0-3 copies, at least one card."""
    suits = draw(st.integers(1, 3))
    values = draw(st.integers(1, 4))
    counts = [[draw(st.integers(0, 3)) for _ in range(values)] for _ in range(suits)]
    if sum(map(sum, counts)) == 0:
        counts[0][0] = 1
    return counts


@st.composite
def thesis_options(draw: st.DrawFn, literal_e6_allowed: bool = True) -> dict[str, Any]:
    """Rule options for the thesis preset, every option varied [P-options]."""
    empty_hints = draw(st.booleans())
    return {
        "empty_hints": empty_hints,
        "discard_at_max_hints": draw(st.booleans()),
        "self_hints": empty_hints and draw(st.booleans()),
        "strikeout_score": draw(st.sampled_from(["zero", "fireworks"])),
        "end_when_no_points_possible": draw(st.booleans()),
        "deal": draw(st.sampled_from(["blocks", "round-robin"])),
        "draw_position": draw(st.sampled_from(["newest-last", "newest-first"])),
        "draw_after_final_move": draw(st.booleans()),
        # The literal reading of E-6 (matters only when the deal takes the whole stack) is
        # refused with h = 1 in that case (PR-legal-action; see test_config.py).
        "initial_stop_check": not literal_e6_allowed or draw(st.booleans()),
    }


@st.composite
def configs(draw: st.DrawFn) -> GameConfig:
    """Configurations across presets, variants, player counts (thesis p = 1 .. 6,
    hanab-live up to 6) and small custom compositions [P-presets, V-names]."""
    preset = draw(st.sampled_from(["thesis", "hle", "hanab-live"]))
    if preset == "hle":
        return make_config(draw(st.integers(2, 5)), "hle")
    if preset == "hanab-live":
        return make_config(draw(st.integers(2, 6)), "hanab-live", draw(st.sampled_from(HANAB_LIVE_VARIANTS)))
    hints = draw(st.integers(0, 8))
    errors = draw(st.one_of(st.none(), st.integers(1, 3)))
    if draw(st.booleans()):
        composition = draw(compositions())
        size = sum(map(sum, composition))
        hand_size = draw(st.integers(1, min(3, size)))
        players = draw(st.integers(1, min(3, size // hand_size)))
        options = draw(thesis_options(not (size == players * hand_size and hand_size == 1)))
        return make_config(
            players, composition=composition, hand_size=hand_size, hints=hints, errors=errors, **options
        )
    variant = draw(st.sampled_from(NAMED_VARIANTS))
    players = draw(st.integers(1, 6))
    chosen_hand = draw(st.one_of(st.none(), st.integers(1, 5)))
    options = draw(thesis_options())
    return make_config(players, "thesis", variant, hand_size=chosen_hand, hints=hints, errors=errors, **options)


@attrs.frozen
class Run:
    """A game reached by legal play: ``states[i + 1] = apply(states[i], actions[i])``."""

    config: GameConfig
    seed: int
    actions: tuple[Action, ...]
    states: tuple[GameState, ...]

    @property
    def final(self) -> GameState:
        return self.states[-1]


def choose_action(draw: st.DrawFn, state: GameState) -> Action:
    """A legal action: uniformly among all of them, or among the playable plays (so that
    fields grow), or among hints and discards (so that games last) [2.16-actions]."""
    legal = legal_actions(state)
    mode = draw(st.integers(0, 9))
    pool = legal
    if 1 <= mode <= 3:
        pool = [a for a in legal if isinstance(a, Play) and is_playable(state, a.slot)] or legal
    elif mode >= 4:
        pool = [a for a in legal if not isinstance(a, Play)] or legal
    return pool[draw(st.integers(0, len(pool) - 1))]


@st.composite
def runs(draw: st.DrawFn, max_moves: int | None = 200, config: GameConfig | None = None) -> Run:
    """A configuration, a seeded deck and up to ``max_moves`` legal moves (None: until
    the game stops)."""
    if config is None:
        config = draw(configs())
    seed = draw(st.integers(0, 2**64 - 1))
    moves = 10**9 if max_moves is None else draw(st.integers(0, max_moves))
    states = [initial_state(config, deck_from_seed(config, seed))]
    actions: list[Action] = []
    while len(actions) < moves and not states[-1].terminal:
        action = choose_action(draw, states[-1])
        actions.append(action)
        states.append(apply(states[-1], action))
    return Run(config, seed, tuple(actions), tuple(states))


# ------------------------------------------------------------------ engines and JSON for verify's tests

SCRIPTED_ENGINE: Final = Path(__file__).resolve().parent / "engines" / "scripted.py"


def scripted_engine(directory: Path, lines: list[str]) -> str:
    """The command of ``tests/engines/scripted.py`` answering request i with ``lines[i]``
    (the lines are written to ``directory/answers.txt``)."""
    answers = directory / "answers.txt"
    answers.write_text("\n".join(lines), encoding="utf-8")
    return f"{sys.executable} {SCRIPTED_ENGINE} {answers}"


def drawn_node(data: st.DataObject, root: Any) -> Any:
    """A dict or list somewhere inside ``root``, reached by keys Hypothesis draws (``root``
    itself possibly), for tests that damage one place of a JSON document."""
    node = root
    while isinstance(node, (dict, list)) and node and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(node) if isinstance(node, dict) else range(len(node))))
        if not isinstance(node[key], (dict, list)) or not node[key]:
            break
        node = node[key]
    return node


# ------------------------------------------------------------------ examples that reach the assertion


class ReachCount:
    """The examples a Hypothesis test ran (calls of its body) and those that reached
    its final assertion (called :func:`reached`)."""

    def __init__(self) -> None:
        self.runs = 0
        self.reached = 0
        self.marked = False


_COUNTING: list[ReachCount] = []
"""The counter of the example running now (a stack: one test at a time per process)."""

REACH_LOG: Final = "HANABI_REF_REACH_LOG"
"""Set to a file name, each test under :func:`reaches_assertion` appends a line
``module::test reached runs`` to it (for measuring, never read by the tests)."""


def reached() -> None:
    """Mark the running example as one that reached its test's assertion: call it just
    before the final assertion of a test under :func:`reaches_assertion`."""
    if _COUNTING:
        _COUNTING[-1].marked = True


def reaches_assertion(minimum: float = 0.5) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Fail a Hypothesis test (placed above ``@given`` and ``@settings``) when fewer than
    ``minimum`` of the examples it ran reached its assertion: a test that returns early,
    or assumes away, most of what Hypothesis draws checks less than it seems to.  Every
    call of the test body counts as a run (an example ``assume`` rejects too); one that
    called :func:`reached` counts as reached; one Hypothesis abandons because its draws
    ran out of data counts as neither.  The counts are on ``test.reach``."""

    def decorate(test: Callable[..., None]) -> Callable[..., None]:
        handle = getattr(test, "hypothesis", None)
        if handle is None:
            raise TypeError(f"{test.__name__}: put @reaches_assertion above @given")
        inner = handle.inner_test
        count = ReachCount()

        @functools.wraps(inner)
        def counted(*args: Any, **kwargs: Any) -> None:
            count.marked = False
            _COUNTING.append(count)
            ran = True
            try:
                inner(*args, **kwargs)
            except BaseException as stop:
                # Hypothesis ends an example whose draws ran out of data with a
                # BaseException: it is not an example, and Hypothesis does not count it.
                ran = isinstance(stop, Exception)
                raise
            finally:
                _COUNTING.pop()
                count.runs += ran
                count.reached += ran and count.marked

        handle.inner_test = counted

        @functools.wraps(test)
        def run(*args: Any, **kwargs: Any) -> None:
            count.runs = count.reached = 0
            test(*args, **kwargs)
            log = os.environ.get(REACH_LOG)
            if log:
                with open(log, "a", encoding="utf-8") as out:
                    out.write(f"{test.__module__}::{test.__name__} {count.reached} {count.runs}\n")
            assert count.runs > 0 and count.reached >= minimum * count.runs, (
                f"{test.__name__}: only {count.reached} of {count.runs} examples reached the assertion "
                f"(at least {minimum:.0%} must)"
            )

        run.reach = count  # type: ignore[attr-defined]
        return run

    return decorate
