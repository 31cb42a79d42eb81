"""An independent perft counter for the classic presets, written from spec/rules.md and
spec/perft.md alone [PF-count, PF-vectors].

It imports nothing of hanabi_ref: its own reading of the configuration's JSON (T-schema),
its own suits and clue colours (V-no-variant, V-6-suits, V-black, V-rainbow,
V-dutch-rainbow, 2.9-composition), its own legality (2.16-2a-token, 2.16-2a-target,
2.16-2a-empty, E-2, 2.16-2c, R-deck-plays) and its own moves and stop check (2.16-2a to
2.16-3, R-1, R-2, R-3, R-4, E-6).  Knowledge sets are left out: no rule of which move is
legal, or of when a game stops, reads them.  The committed perft vectors
(spec/perft.json) are checked against it, so that a count of the engine's enumerator
and transition is compared with one that shares no code with them.

A state is a tuple, a move makes a new one; moves are tuples ``("hint", target, kind,
value)``, ``("discard", slot)``, ``("play", slot)``, turned into T-actions objects only
for the divide.  Variants other than the classic five, and configurations with more
than 64 values or suits, are refused with :class:`Unsupported`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

Card = tuple[int, int]  # (suit from 0, value from 1)
Move = tuple[Any, ...]

CLASSIC = (3, 2, 2, 2, 1)
SINGLE = (1, 1, 1, 1, 1)


class Unsupported(Exception):
    """A configuration this counter does not model."""


class Rules(NamedTuple):
    """What the counter reads from a configuration."""

    players: int
    hand_size: int
    max_tokens: int
    max_strikes: int | None
    values: int
    counts: tuple[tuple[int, ...], ...]  # per suit, per value 1..n
    touched_by: tuple[frozenset[int], ...]  # per suit, the clue colours that touch it
    colours: int
    options: dict[str, Any]


class State(NamedTuple):
    hands: tuple[tuple[Card, ...], ...]
    next_card: int
    fireworks: tuple[int, ...]
    discarded: tuple[Card, ...]
    tokens: int
    strikes: int
    current: int
    remaining: int | None  # None: infinity; -1: the last allowed error was made
    over: bool


def _suits(config: dict[str, Any]) -> tuple[tuple[tuple[int, ...], ...], tuple[frozenset[int], ...], int]:
    """The counts and clue colours of the variant (spec/rules.md section 6)."""
    variant = config["variant"]
    own = tuple(frozenset({i}) for i in range(6))
    if variant == "Custom":
        composition = tuple(tuple(counts) for counts in config["composition"])
        return composition, tuple(frozenset({i}) for i in range(len(composition))), len(composition)
    if variant == "No Variant":
        return (CLASSIC,) * 5, own[:5], 5
    if variant == "6 Suits":
        return (CLASSIC,) * 6, own, 6
    if variant in ("Black (6 Suits)", "Dutch Rainbow (Example 2.12)"):
        return (CLASSIC,) * 5 + (SINGLE,), own, 6
    if variant == "Rainbow (6 Suits)":
        return (CLASSIC,) * 6, own[:5] + (frozenset(range(5)),), 5
    raise Unsupported(f"variant {variant!r}")


def rules_of(config: dict[str, Any]) -> Rules:
    counts, touched_by, colours = _suits(config)
    return Rules(config["players"], config["hand_size"], config["hints"], config["errors"], len(counts[0]), counts,
                 touched_by, colours, dict(config["options"]))


# ------------------------------------------------------------------ the deal and the stop check


def deal(rules: Rules, deck: Sequence[Card]) -> State:
    """Step 1 (2.16-1-deal, E-1, R-2) and, with initial_stop_check, step 3 once (E-6)."""
    p, h = rules.players, rules.hand_size
    if rules.options["deal"] == "round-robin":
        hands = [tuple(deck[seat + p * i] for i in range(h)) for seat in range(p)]
    else:
        hands = [tuple(deck[seat * h + i] for i in range(h)) for seat in range(p)]
    if rules.options["draw_position"] == "newest-first":
        hands = [hand[::-1] for hand in hands]
    state = State(tuple(hands), p * h, (0,) * len(rules.counts), (), rules.max_tokens, 0, 0, None, False)
    if rules.options["initial_stop_check"]:
        state = _step_3(rules, deck, state)
    return state


def _reachable(rules: Rules, fireworks: tuple[int, ...], discarded: tuple[Card, ...]) -> int:
    """R-1: each suit climbs while a copy of its next value is not discarded."""
    total = 0
    for suit, height in enumerate(fireworks):
        while height < rules.values and rules.counts[suit][height] - discarded.count((suit, height + 1)) > 0:
            height += 1
        total += height
    return total


def _stops(rules: Rules, state: State) -> bool:
    """2.16-3-strikeout, 2.16-3-R0, 2.16-3-max and R-1, on the variables after the move."""
    if state.remaining in (-1, 0):
        return True
    if all(height == rules.values for height in state.fireworks):
        return True
    if rules.options["end_when_no_points_possible"]:
        return sum(state.fireworks) == _reachable(rules, state.fireworks, state.discarded)
    return False


def _step_3(rules: Rules, deck: Sequence[Card], state: State) -> State:
    """Step 3: stop, or start the last round (2.16-3-last-round), then R-4."""
    if _stops(rules, state):
        return state._replace(over=True)
    if state.remaining is None and state.next_card == len(deck):
        state = state._replace(remaining=rules.players)
    if rules.options["end_when_nothing_playable"] and state.remaining is not None and state.remaining >= 1:
        movers = [(state.current + i) % rules.players for i in range(state.remaining)]
        if not any(state.fireworks[suit] == value - 1 for seat in movers for suit, value in state.hands[seat]):
            return state._replace(over=True)
    return state


# ------------------------------------------------------------------ the moves


def legal_moves(rules: Rules, deck: Sequence[Card], state: State) -> list[Move]:
    """Every legal move, in the order of 2.16-actions."""
    if state.over:
        return []
    moves: list[Move] = []
    me = state.current
    if state.tokens >= 1:
        for target in range(rules.players):
            if target == me and not rules.options["self_hints"]:
                continue
            hand = state.hands[target]
            for colour in range(rules.colours):
                if rules.options["empty_hints"] or any(colour in rules.touched_by[suit] for suit, _ in hand):
                    moves.append(("hint", target, "colour", colour))
            for value in range(1, rules.values + 1):
                if rules.options["empty_hints"] or any(number == value for _, number in hand):
                    moves.append(("hint", target, "value", value))
    slots = range(len(state.hands[me]))
    if rules.options["discard_at_max_hints"] or state.tokens < rules.max_tokens:
        moves.extend(("discard", slot) for slot in slots)
    moves.extend(("play", slot) for slot in slots)
    if rules.options.get("deck_plays", False) and len(deck) - state.next_card == 1:
        moves.append(("play", len(state.hands[me])))
    return moves


def make_move(rules: Rules, deck: Sequence[Card], state: State, move: Move) -> State:
    """Steps 2 and 3 for one legal move."""
    me, hands = state.current, list(state.hands)
    tokens, strikes, remaining = state.tokens, state.strikes, state.remaining
    fireworks, discarded, next_card = list(state.fireworks), state.discarded, state.next_card
    from_hand = True
    if move[0] == "hint":
        tokens -= 1  # 2.16-2a-cost; knowledge is not modelled
    else:
        slot = move[1]
        if slot == len(hands[me]):  # R-deck-plays: the stack's last card, never in a hand
            card, from_hand, next_card = deck[next_card], False, next_card + 1
        else:
            card = hands[me][slot]
            hands[me] = hands[me][:slot] + hands[me][slot + 1:]
        suit, value = card
        if move[0] == "discard":
            discarded += (card,)
            tokens = min(tokens + 1, rules.max_tokens)
        elif fireworks[suit] == value - 1:
            fireworks[suit] = value
            if value == rules.values:
                tokens = min(tokens + 1, rules.max_tokens)
        else:
            discarded += (card,)
            strikes += 1
            if strikes == rules.max_strikes:
                remaining = -1
    if remaining is not None and remaining > 0:
        remaining -= 1
    after = State(tuple(hands), next_card, tuple(fireworks), discarded, tokens, strikes, (me + 1) % rules.players,
                  remaining, False)
    ends = _stops(rules, after)
    if move[0] != "hint" and from_hand and next_card < len(deck) and (rules.options["draw_after_final_move"] or not ends):
        drawn = deck[next_card]
        hand = hands[me]
        hands[me] = (drawn,) + hand if rules.options["draw_position"] == "newest-first" else hand + (drawn,)
        after = after._replace(hands=tuple(hands), next_card=next_card + 1)
    return _step_3(rules, deck, after)


# ------------------------------------------------------------------ counting


def perft(rules: Rules, deck: Sequence[Card], state: State, depth: int) -> int:
    """PF-count: 1 at depth 0; else the sum over the legal moves (none once over)."""
    if depth == 0:
        return 1
    moves = legal_moves(rules, deck, state)
    if depth == 1:
        return len(moves)
    return sum(perft(rules, deck, make_move(rules, deck, state, move), depth - 1) for move in moves)


def action_json(move: Move) -> dict[str, Any]:
    """A move as T-actions writes it."""
    if move[0] == "hint":
        return {"type": "hint", "target": move[1], "kind": move[2], "value": move[3]}
    return {"type": move[0], "slot": move[1]}


def move_of(action: dict[str, Any]) -> Move:
    """A T-actions object as a move of this counter."""
    if action["type"] == "hint":
        return ("hint", action["target"], "colour" if action["kind"] == "color" else action["kind"], action["value"])
    return (action["type"], action["slot"])


def count_entry(config: dict[str, Any], cards: list[dict[str, int]], moves: list[dict[str, Any]],
                depth: int) -> tuple[int, list[tuple[dict[str, Any], int]]]:
    """The count of a perft vector's position at ``depth``, and its divide (empty at
    depth 0): the deal of ``cards``, then ``moves``, each of which must be legal here."""
    rules = rules_of(config)
    deck = [(card["suit"], card["value"]) for card in cards]
    state = deal(rules, deck)
    for index, action in enumerate(moves):
        move = move_of(action)
        if move not in legal_moves(rules, deck, state):
            raise AssertionError(f"moves[{index}] {action} is not legal by this counter")
        state = make_move(rules, deck, state, move)
    if depth == 0:
        return 1, []
    divide = [(action_json(move), perft(rules, deck, make_move(rules, deck, state, move), depth - 1))
              for move in legal_moves(rules, deck, state)]
    return sum(nodes for _, nodes in divide), divide
