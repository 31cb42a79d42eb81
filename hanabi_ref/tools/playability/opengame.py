"""Open games (Definition 3.4) as a small model of their own, and exhaustive search [3.4, 3.4-search, 3.4-no-end].

An open game L = (n, k, p, h, S0, t0, f0) is Hanabi with every card visible and the hint
replaced by a *pass* that still costs one of the t0 passes [3.4].  This module plays it
step by step as Algorithm 2.16 does under the thesis preset of spec/rules.md, and
decides playability by visiting every state that some sequence of actions reaches
[3.4-search].  It deliberately shares no code with the engine (``hanabi_ref.engine.transition``):
the tests play both side by side, so that each is a check on the other.

Cards are written as in §3: ``(value, colour)``, values 1..n and colours 1..k, both
counted from 1.  A hand is a multiset (Definition 2.13(3)), kept as a sorted tuple, and an
action names a card by its identity; which of two equal cards is played never matters.
``None`` stands for ∞ (t0 = ∞: passes are never used up; f0 = ∞: errors never end the
game).  Definitions 3.10 and 3.32 write f0 = 0, which we read as ∞ [3.10-f0].

Not modelled: the knowledge sets (an open game has none, Definition 3.4), the discard
pile (nothing reads it) and the thesis' finite stand-in for t0 = ∞ (the search's visited
set makes the state graph finite instead, so no bound is needed).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import Literal, NamedTuple

import attrs

Card = tuple[int, int]  # (value, colour), as in Definition 3.32
ActionKind = Literal["pass", "discard", "play"]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# ---------------------------------------------------------------- the game [3.4]


@attrs.frozen
class OpenGame:
    """The initial configuration L = (n, k, p, h, S0, t0, f0) of an open game [3.4].

    ``stack`` is S0, top card first; ``passes`` is t0 and ``errors`` f0 (``None``: ∞).
    ``end_on_empty_stack = False`` selects the reading of Conjectures 5.1 and 5.2, under
    which an empty stack does not start the last round [3.4-no-end].  Every instance is
    checked by :func:`validate_open_game` when it is made.
    """

    values: int
    colours: int
    players: int
    hand_size: int
    stack: tuple[Card, ...]
    passes: int | None
    errors: int | None
    end_on_empty_stack: bool = True

    def __attrs_post_init__(self) -> None:
        validate_open_game(self)

    @property
    def max_score(self) -> int:
        """n · k, the score of every field stack complete."""
        return self.values * self.colours


def validate_open_game(game: OpenGame) -> None:
    """Reject what Definition 2.9 (as Definition 3.4 takes it over) does not admit, with a
    one-line ValueError naming the field [3.4, 3.10-f0]."""
    for field in ("values", "colours", "players", "hand_size"):
        value = getattr(game, field)
        if not _is_int(value) or value < 1:
            raise ValueError(f"{field}: must be an integer >= 1, got {value!r}")
    if not isinstance(game.stack, tuple):
        raise ValueError(f"stack: must be a tuple of (value, colour) pairs, got {type(game.stack).__name__}")
    for index, card in enumerate(game.stack):
        if not _is_card(card, game.values, game.colours):
            raise ValueError(
                f"stack[{index}]: {card!r} is not a card (value, colour) with value in "
                f"1..{game.values} and colour in 1..{game.colours}"
            )
    if len(game.stack) < game.players * game.hand_size:
        raise ValueError(
            f"hand_size: {game.players} players x {game.hand_size} cards need more than the "
            f"{len(game.stack)} cards of the stack (Definition 2.9 requires p*h <= N)"
        )
    if game.passes is not None and (not _is_int(game.passes) or game.passes < 0):
        raise ValueError(f"passes: must be an integer >= 0 or None (unlimited), got {game.passes!r}")
    if game.errors is not None and (not _is_int(game.errors) or game.errors < 1):
        raise ValueError(
            f"errors: must be an integer >= 1 or None (unlimited), got {game.errors!r}; "
            "the f0 = 0 of Definitions 3.10 and 3.32 is written None [3.10-f0]"
        )
    if not isinstance(game.end_on_empty_stack, bool):
        raise ValueError(f"end_on_empty_stack: must be True or False, got {game.end_on_empty_stack!r}")


def _is_card(card: object, values: int, colours: int) -> bool:
    if not isinstance(card, tuple) or len(card) != 2:
        return False
    value, colour = card
    return _is_int(value) and _is_int(colour) and 1 <= value <= values and 1 <= colour <= colours


def make_open_game(
    values: int,
    colours: int,
    players: int,
    hand_size: int,
    stack: Iterable[Sequence[int]],
    passes: int | None = 0,
    errors: int | None = None,
    *,
    end_on_empty_stack: bool = True,
) -> OpenGame:
    """L = (n, k, p, h, S0, t0, f0) from plain arguments; the cards of ``stack`` may be
    any pairs (lists too) and become ``(value, colour)`` tuples [3.4].  Raises ValueError
    for anything Definition 2.9 does not admit."""
    cards: list[Card] = []
    for index, card in enumerate(stack):
        if isinstance(card, (str, bytes)) or not isinstance(card, Sequence) or len(card) != 2:
            raise ValueError(f"stack[{index}]: {card!r} is not a pair (value, colour)")
        cards.append((card[0], card[1]))
    return OpenGame(values, colours, players, hand_size, tuple(cards), passes, errors, end_on_empty_stack)


# ---------------------------------------------------------------- state and actions


class OpenState(NamedTuple):
    """One moment of an open game: the variables of Algorithm 2.16 that a later move or
    the stop check can read [3.4].

    A plain (named) tuple, immutable and hashed as a tuple, so that the search's visited
    set stays cheap.  ``next_card`` is the index in S0 of the stack's top card (the stack
    is ``game.stack[next_card:]``); ``hands[j]`` is seat j's hand, sorted; ``heights[y - 1]``
    is the height of colour y's field stack; ``passes`` is t (``None`` when t0 = ∞);
    ``errors`` is f; ``current`` is the seat to move, counted from 0; ``remaining`` is R
    (``None`` for ∞, -1 after the last allowed error); ``over`` is what step 3 decided.
    """

    next_card: int
    hands: tuple[tuple[Card, ...], ...]
    heights: tuple[int, ...]
    passes: int | None
    errors: int
    current: int
    remaining: int | None
    over: bool


@attrs.frozen
class OpenAction:
    """Step 2 of an open game: pass, or discard or play the card ``card`` of the mover's
    hand (by identity: the hand is a multiset) [3.4]."""

    kind: ActionKind
    card: Card | None = None


PASS = OpenAction("pass")


def stack_size(game: OpenGame, state: OpenState) -> int:
    """|S|, the cards left in the stack."""
    return len(game.stack) - state.next_card


def open_score(state: OpenState) -> int:
    """The score step 3 gives, or would give now: 0 after the last allowed error, else the
    sum of the field-stack heights [2.16-3-strikeout, 2.16-3-R0]."""
    return 0 if state.remaining == -1 else sum(state.heights)


# ---------------------------------------------------------------- step 1 [2.16-1]


def initial_open_state(game: OpenGame) -> OpenState:
    """Step 1: deal blocks of h cards, seat 0 (player 1) first, t := t0, f := 0, R := ∞
    [2.16-1, 2.16-1-deal]; then step 3 once, so that a deal that empties the stack starts
    the last round before the first move [E-6, 2.16-3-last-round]."""
    h = game.hand_size
    hands = tuple(tuple(sorted(game.stack[seat * h : (seat + 1) * h])) for seat in range(game.players))
    state = OpenState(
        next_card=game.players * h,
        hands=hands,
        heights=(0,) * game.colours,
        passes=game.passes,
        errors=0,
        current=0,
        remaining=None,
        over=False,
    )
    return process_stop_check(game, state)


# ---------------------------------------------------------------- step 2


def legal_open_actions(game: OpenGame, state: OpenState) -> list[OpenAction]:
    """The actions open to the seat to move: a pass while a pass is left (t >= 1, or
    t0 = ∞), and a discard and a play of each distinct card in its hand [3.4].  A discard
    is allowed even with t = t0 (thesis preset, E-2).  Empty once the game is over."""
    if state.over:
        return []
    actions = [PASS] if state.passes is None or state.passes >= 1 else []
    for card in dict.fromkeys(state.hands[state.current]):
        actions.extend(_card_actions(card))
    return actions


@functools.lru_cache(maxsize=256)
def _card_actions(card: Card) -> tuple[OpenAction, OpenAction]:
    """The discard and the play of one card, made once (a bounded cache of a pure function
    of one card)."""
    return OpenAction("discard", card), OpenAction("play", card)


def apply_open_action(game: OpenGame, state: OpenState, action: OpenAction) -> OpenState:
    """One move: step 2 (the action, then C := C + 1 and R := R - 1), then step 3
    [3.4].  Raises ValueError for an action that is not legal in ``state``."""
    if action not in legal_open_actions(game, state):
        raise ValueError(f"{action!r} is not legal here (seat {state.current}, hand {state.hands[state.current]!r})")
    return _successor(game, state, action)


def _successor(game: OpenGame, state: OpenState, action: OpenAction) -> OpenState:
    if action.kind == "pass":
        moved = process_pass(state)
    elif action.kind == "discard":
        moved = process_discard(game, state, _card_of(action))
    else:
        moved = process_play(game, state, _card_of(action))
    return process_stop_check(game, process_turn_end(game, moved))


def _card_of(action: OpenAction) -> Card:
    assert action.card is not None, "a discard or play names a card"
    return action.card


def process_pass(state: OpenState) -> OpenState:
    """Step 2a of an open game: do nothing but spend a pass, t := t - 1 (nothing to
    spend when t0 = ∞) [3.4]."""
    passes = None if state.passes is None else state.passes - 1
    return OpenState(state.next_card, state.hands, state.heights, passes, state.errors, state.current, state.remaining, False)


def _draw_after_removing(game: OpenGame, state: OpenState, card: Card) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """P_C := (P_C minus a) plus the top card of S, if S has one [2.16-2b-draw, E-5]."""
    hand = list(state.hands[state.current])
    hand.remove(card)
    next_card = state.next_card
    if next_card < len(game.stack):
        hand.append(game.stack[next_card])
        hand.sort()
        next_card += 1
    hands = state.hands[: state.current] + (tuple(hand),) + state.hands[state.current + 1 :]
    return hands, next_card


def _regain_pass(game: OpenGame, passes: int | None) -> int | None:
    """t := t + 1 if t < t0 [2.16-2b-token, 2.16-2c-five]; with t0 = ∞ nothing to count."""
    if passes is None or game.passes is None:
        return passes
    return passes + 1 if passes < game.passes else passes


def process_discard(game: OpenGame, state: OpenState, card: Card) -> OpenState:
    """Step 2b: discard the card, draw, regain a pass if t < t0 [2.16-2b, 2.16-2b-token]."""
    hands, next_card = _draw_after_removing(game, state, card)
    passes = _regain_pass(game, state.passes)
    return OpenState(next_card, hands, state.heights, passes, state.errors, state.current, state.remaining, False)


def process_play(game: OpenGame, state: OpenState, card: Card) -> OpenState:
    """Step 2c: the card (x, y) goes on colour y's field stack if its height is x - 1;
    a completed colour (x = n) regains a pass if t < t0.  Otherwise f := f + 1, and
    R := -1 when f reaches f0.  Either way a card is drawn [2.16-2c-success,
    2.16-2c-five, 2.16-2c-fail, 2.16-2c-strikeout, 2.16-2c-draw]."""
    value, colour = card
    hands, next_card = _draw_after_removing(game, state, card)
    heights, passes, errors, remaining = state.heights, state.passes, state.errors, state.remaining
    if heights[colour - 1] == value - 1:
        heights = heights[: colour - 1] + (value,) + heights[colour:]
        if value == game.values:
            passes = _regain_pass(game, passes)
    else:
        errors += 1
        if game.errors is not None and errors == game.errors:
            remaining = -1
    return OpenState(next_card, hands, heights, passes, errors, state.current, remaining, False)


def process_turn_end(game: OpenGame, state: OpenState) -> OpenState:
    """After the move: C := C + 1 (mod p), and R := R - 1 if R > 0 [2.16-2-next, 2.16-2-R]."""
    remaining = state.remaining
    if remaining is not None and remaining > 0:
        remaining -= 1
    current = (state.current + 1) % game.players
    return OpenState(state.next_card, state.hands, state.heights, state.passes, state.errors, current, remaining, state.over)


# ---------------------------------------------------------------- step 3 [2.16-3]


def process_stop_check(game: OpenGame, state: OpenState) -> OpenState:
    """Step 3: stop at R = -1, at R = 0, or when every colour is complete; otherwise an
    empty stack with R = ∞ starts the last round, R := p [2.16-3-strikeout, 2.16-3-R0,
    2.16-3-max, 2.16-3-last-round].

    Under ``end_on_empty_stack = False`` there is no last round [3.4-no-end]: the game
    stops at R = -1, when every colour is complete, when nobody holds a card, or (our
    reading of a case the clause leaves open) when the seat to move holds no card and
    has no pass left, so that no action is possible.
    """
    if state.remaining == -1 or sum(state.heights) == game.max_score:
        return state._replace(over=True)
    if not game.end_on_empty_stack:
        nobody_holds = not any(state.hands)
        stuck = not state.hands[state.current] and state.passes == 0
        return state._replace(over=True) if nobody_holds or stuck else state
    if state.remaining == 0:
        return state._replace(over=True)
    if state.remaining is None and state.next_card == len(game.stack):
        return state._replace(remaining=game.players)
    return state


# ---------------------------------------------------------------- search [3.4-search]


def reachable_open_states(game: OpenGame) -> Iterator[OpenState]:
    """Every state that some sequence of legal actions reaches from step 1, each once
    (depth first) [3.4-search].

    The only pruning is that a state already seen is not expanded again; a state holds
    everything a later move or stop check reads, so this loses nothing.  With t0 = ∞ the
    state graph has cycles (a round of passes returns to the same state); the visited
    set is what makes the search finite."""
    start = initial_open_state(game)
    seen = {start}
    frontier = [start]
    while frontier:
        state = frontier.pop()
        yield state
        for action in legal_open_actions(game, state):
            successor = _successor(game, state, action)
            if successor not in seen:
                seen.add(successor)
                frontier.append(successor)


def is_open_game_playable(game: OpenGame, target: int | None = None) -> bool:
    """Whether some sequence of actions reaches a score of at least ``target`` (default
    n · k, Definition 3.1) [3.4-search].

    A state counts as soon as its field stacks sum to the target and no strikeout has
    happened: from there the players can always finish without losing a point, since
    discards never strike out and discarding (passing, without the end of game, when
    one's hand is empty and a pass is left) runs every game to its end.
    This is the reference for the fast algorithms and for the checks of [3.39] and
    [5.2]; it is exponential and meant for small games."""
    wanted = game.max_score if target is None else _checked_target(target)
    return any(open_score(state) >= wanted for state in reachable_open_states(game))


def max_open_game_score(game: OpenGame) -> int:
    """The best score any sequence of actions reaches: the largest sum of field-stack
    heights over the reachable states without a strikeout [3.4-search]."""
    best = 0
    for state in reachable_open_states(game):
        best = max(best, open_score(state))
        if best == game.max_score:
            break
    return best


def _checked_target(target: int) -> int:
    if isinstance(target, bool) or not isinstance(target, int) or target < 0:
        raise ValueError(f"target: must be an integer >= 0, got {target!r}")
    return target


# ---------------------------------------------------------------- sequences [3.10, 3.32]


def sequence_cards(sequence: Sequence[int] | Sequence[tuple[int, int]]) -> tuple[Card, ...]:
    """A sequence as cards: integers are values of colour 1 (Definition 3.10), pairs are
    (value, colour) cards (Definition 3.32) [3.10, 3.32].  Values may be any integers;
    colours must be >= 1.  Mixing the two forms is refused."""
    cards: list[Card] = []
    forms: set[str] = set()
    for index, item in enumerate(sequence):
        if isinstance(item, int) and not isinstance(item, bool):
            forms.add("integer")
            cards.append((item, 1))
        elif isinstance(item, (tuple, list)) and len(item) == 2 and all(_is_int(part) for part in item):
            forms.add("pair")
            if item[1] < 1:
                raise ValueError(f"sequence[{index}]: colour {item[1]!r} is not >= 1")
            cards.append((item[0], item[1]))
        else:
            raise ValueError(f"sequence[{index}]: {item!r} is neither an integer nor a pair (value, colour)")
        if len(forms) > 1:
            raise ValueError(f"sequence[{index}]: mixes integers and (value, colour) pairs")
    return tuple(cards)


def sequence_open_game(cards: Sequence[Card], score: int, hand_size: int, *, end_on_empty_stack: bool = True) -> OpenGame:
    """The single-player open game (n, c, 1, m, S, 0, ∞) of Definitions 3.10 and 3.32,
    set up to decide whether a score of ``score`` can be reached [3.10, 3.32, 3.10-f0].

    Only values 1, ..., score can matter: a value <= 0 (which the algorithms of §3.5
    create) can never be played, so it becomes the value score + 1 of its colour, which
    cannot be played before the score is reached either (its colour would need height
    score).  Then n is the largest value and c the largest colour, as in Definition 3.32.
    Needs len(cards) >= hand_size (Definition 2.9)."""
    unplayable = score + 1
    cleaned = tuple((value if value >= 1 else unplayable, colour) for value, colour in cards)
    values = max((value for value, _ in cleaned), default=1)
    colours = max((colour for _, colour in cleaned), default=1)
    return OpenGame(values, colours, 1, hand_size, cleaned, 0, None, end_on_empty_stack)


def is_sequence_playable_by_search(
    sequence: Sequence[int] | Sequence[tuple[int, int]],
    score: int,
    hand_size: int,
    *,
    end_on_empty_stack: bool = True,
) -> bool:
    """Whether ``sequence`` is (score, hand_size)-playable: one player, hand size m, no
    passes, errors never ending the game, can reach the score [3.10, 3.32, 3.10-f0].

    ``sequence`` is a sequence of integers (one colour) or of (value, colour) pairs.
    With fewer cards than the hand size (N < m) only the score 0 counts as playable
    [3.10-turns].  ``end_on_empty_stack = False`` is the reading of §5 [3.4-no-end]."""
    if not _is_int(score) or score < 0:
        raise ValueError(f"score: must be an integer >= 0, got {score!r}")
    if not _is_int(hand_size) or hand_size < 1:
        raise ValueError(f"hand_size: must be an integer >= 1, got {hand_size!r}")
    cards = sequence_cards(sequence)
    if score == 0:
        return True
    if len(cards) < hand_size:
        return False
    game = sequence_open_game(cards, score, hand_size, end_on_empty_stack=end_on_empty_stack)
    return is_open_game_playable(game, score)
