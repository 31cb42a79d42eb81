"""The clauses' own properties, checked on the JSON forms a vector records [VEC-cases].

Every check here is stated from ``spec/rules.md`` (and, for a hanab.live variant outside
its section 6, from ``spec/variants.md`` through :mod:`hanabi_ref.tools.vectors.clues`) and
computed from the vector's JSON (state objects, the deck, the action), never by calling
the engine function that made the state: Algorithm 2.16's steps as before/after
conditions, the invariants of the areas of play, the stop check and the list of legal
actions.  The rules that change a move are read here from their clauses too: a play of
the stack's last card (R-deck-plays), orange suits (VAR-engine-orange) and Up or Down,
whose fields are checked against the four complete stacks (VAR-engine-up-or-down).  The
case functions run them on every vector they yield, so a wrong engine fails the case.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Final

from hanabi_ref.engine.actions import Action, Discard, Hint, Play, action_to_json
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.formats.serial import card_to_json
from hanabi_ref.tools.vectors.clues import START_VALUE as START
from hanabi_ref.tools.vectors.clues import is_free, is_touched_by, rank_clues, variant_of
from hanabi_ref.tools.vectors.model import expect
from hanabi_ref.engine.tables import tables_for

State = dict[str, Any]
Identity = tuple[int, int]  # (suit, value), as a card object names it
RAINBOW_VARIANT = "Rainbow (6 Suits)"
RAINBOW_SUIT = 5

UP_OR_DOWN_STACKS: Final = ((1, 2, 3, 4, 5), (5, 4, 3, 2, 1), (START, 2, 3, 4, 5), (START, 4, 3, 2, 1))
"""[VAR-up-or-down, VAR-engine-up-or-down] the four complete stacks of Up or Down: a
stack is built by playing a start of one of them, in its order."""


# ------------------------------------------------------------------ Cards(H) and hints


def full_knowledge(config: GameConfig) -> dict[str, list[int]]:
    """Cards(H) as a knowledge object: every suit, every value [2.14-initial, 2.9-cards]."""
    return {"suits": list(range(config.suit_count)), "values": list(range(1, config.values + 1))}


def known_cards(known: dict[str, Any]) -> set[Identity]:
    """[T-knowledge, 2.14] the identities a knowledge object allows: its ``cards`` when
    it lists them, else every pair of its suits and values."""
    if "cards" in known:
        return {(card["suit"], card["value"]) for card in known["cards"]}
    return {(suit, value) for suit in known["suits"] for value in known["values"]}


def knowledge_json(cards: set[Identity]) -> dict[str, Any]:
    """[T-knowledge] a set of identities as a knowledge object: the suits and values it
    holds and, when it is not their product, its cards by suit, then value."""
    suits, values = sorted({suit for suit, _ in cards}), sorted({value for _, value in cards})
    data: dict[str, Any] = {"suits": suits, "values": values}
    if len(cards) != len(suits) * len(values):
        data["cards"] = [{"suit": suit, "value": value} for suit, value in sorted(cards)]
    return data


# ------------------------------------------------------------------ variant rules


def is_up_or_down(config: GameConfig) -> bool:
    """[VAR-engine-up-or-down] the variant's stacks are built up or down."""
    variant = variant_of(config)
    return variant is not None and variant.rules.up_or_down


def is_orange(config: GameConfig, card: dict[str, int]) -> bool:
    """[VAR-orange, VAR-engine-orange] the card's suit swaps play and discard."""
    variant = variant_of(config)
    return variant is not None and variant.suits[card["suit"]].inverted


def has_orange(config: GameConfig) -> bool:
    """[VAR-engine-orange] the variant has an orange suit: a discard is legal with every token."""
    variant = variant_of(config)
    return variant is not None and any(suit.inverted for suit in variant.suits)


def complete_height(config: GameConfig) -> int:
    """[2.16-2c-five, VAR-engine-up-or-down] the cards of a complete field stack: n, or
    five under Up or Down (whose sixth value is START)."""
    return 5 if is_up_or_down(config) else config.values


def up_or_down_next(on_stack: Sequence[int]) -> set[int]:
    """[VAR-engine-up-or-down] the values that may be played on a stack holding these
    values: the next card of every complete stack whose start they are (a start's cards
    are all different, so the values say which start it is)."""
    size = len(on_stack)
    return {way[size] for way in UP_OR_DOWN_STACKS if size < len(way) and sorted(way[:size]) == sorted(on_stack)}


def field_values(config: GameConfig, deck: Sequence[int], state: State, suit: int) -> list[int]:
    """[2.13-conservation, E-23] the values on ``suit``'s field stack: the cards of S0 of
    that suit in no hand, not in D and not in the stack (the last deck_size cards)."""
    return _values_of(_field_cards(config, deck, state), suit)


def _values_of(cards: Counter[Identity], suit: int) -> list[int]:
    """The values of ``suit`` among counted cards, each as often as counted."""
    return sorted(value for (card_suit, value), count in cards.items() if card_suit == suit for _ in range(count))


def _field_cards(config: GameConfig, deck: Sequence[int], state: State) -> Counter[Identity]:
    """S0 less the hands, D and the stack: the cards on the fields (and, if the state is
    broken, negative counts for cards it holds that S0 does not)."""
    def key(card: dict[str, int]) -> Identity:
        return card["suit"], card["value"]

    keys = _deck_keys(config, tuple(deck))
    cards: Counter[Identity] = Counter(keys)
    cards.subtract(key(card) for hand in state["hands"] for card in hand)
    cards.subtract(key(card) for card in state["discard"])
    if state["deck_size"]:
        cards.subtract(keys[len(keys) - state["deck_size"]:])
    return cards


@functools.lru_cache(maxsize=64)
def _deck_keys(config: GameConfig, deck: tuple[int, ...]) -> tuple[Identity, ...]:
    """The deck's cards as (suit, value), as their JSON names them; once per deck."""
    return tuple((card["suit"], card["value"]) for card in (card_to_json(c, config) for c in as_identities(deck)))


def is_next(config: GameConfig, deck: Sequence[int], state: State, card: dict[str, int]) -> bool:
    """[2.16-2c-success, E-25, VAR-engine-up-or-down] the card extends its suit's field:
    F[x] = (1, ..., y - 1), or under Up or Down the stack with the card is the start of
    one of the four complete stacks."""
    suit, value = card["suit"], card["value"]
    if is_up_or_down(config):
        return value in up_or_down_next(field_values(config, deck, state, suit))
    return bool(state["fireworks"][suit] == value - 1)


def touched_suits(config: GameConfig, colour: int) -> set[int]:
    """The suits a clue colour touches, transcribed from spec section 6 [V-suit,
    V-rainbow]: colour c touches suit c, and under Rainbow (6 Suits) also suit 5."""
    suits = {colour}
    if config.variant == RAINBOW_VARIANT:
        suits.add(RAINBOW_SUIT)
    return suits


def is_touched(config: GameConfig, hint: Hint, card: dict[str, int]) -> bool:
    """Whether a hint describes a card: its value, or a suit its colour touches
    [2.16-2a-value, 2.16-2a-suit]; under a hanab.live variant outside section 6, as
    spec/variants.md says [VAR-touch, VAR-engine-masks]."""
    variant = variant_of(config)
    if variant is not None:
        return is_touched_by(variant, hint, card["suit"], card["value"])
    if hint.kind == "value":
        return card["value"] == hint.subject
    return card["suit"] in touched_suits(config, hint.subject)


def is_literal_empty_deal(config: GameConfig) -> bool:
    """[E-6] step 3 skipped after the deal while the deal takes the whole stack."""
    return not config.options.initial_stop_check and tables_for(config).deck_size == config.players * config.hand_size


# ------------------------------------------------------------------ one state


def check_state(config: GameConfig, deck: Sequence[int], state: State) -> None:
    """The invariants of every state object [VEC-state, 2.13-conservation,
    2.13-hand-size, 2.14-sound, 2.16-tokens, 2.16-errors, 2.13-4, 2.16-2-R]."""
    _check_conservation(config, deck, state)
    _check_hand_sizes(config, state)
    for hand, known in zip(state["hands"], state["knowledge"], strict=True):
        expect(len(hand) == len(known), "2.14: one knowledge set per card in hand")
        for card, k in zip(hand, known):
            expect(knowledge_json(known_cards(k)) == k, "T-knowledge: suits and values, and the cards exactly when not their product")
            expect((card["suit"], card["value"]) in known_cards(k), "2.14-sound: a card's identity is in K_c")
    expect(0 <= state["clue_tokens"] <= config.max_hints, "2.16-tokens: 0 <= t <= t0")
    limit = config.max_errors
    expect(0 <= state["strikes"] and (limit is None or state["strikes"] <= limit), "2.16-errors: 0 <= f <= f0")
    expect(all(0 <= height <= complete_height(config) for height in state["fireworks"]), "2.13-4: 0 <= m <= n")
    remaining = state["remaining"]
    expect(remaining is None or -1 <= remaining <= config.players, "2.16-2-R: R is infinite, -1 or 0..p")
    expect(state["score"] == expected_score(config, state), "2.16-3-strikeout, 2.16-3-R0: the score")


def _check_conservation(config: GameConfig, deck: Sequence[int], state: State) -> None:
    """[2.13-conservation, 2.13-1, 2.13-4, E-23, VAR-engine-up-or-down] hands, D, the
    fields' cards and the stack (the last deck_size cards of S0: cards leave only from
    the top) make up S0: what the other areas leave of S0 is, suit by suit, a field
    stack of its height, (1, ..., m) or under Up or Down a start of a complete stack."""
    fields = _field_cards(config, deck, state)
    expect(all(count >= 0 for count in fields.values()), "2.13-conservation: every card of S0 is in one area")
    for suit, height in enumerate(state["fireworks"]):
        values = _values_of(fields, suit)
        if is_up_or_down(config):
            is_stack = any(sorted(way[:height]) == values for way in UP_OR_DOWN_STACKS)
        else:
            is_stack = values == list(range(1, height + 1))
        expect(len(values) == height and is_stack, "2.13-conservation: every card of S0 is in one area")


def _check_hand_sizes(config: GameConfig, state: State) -> None:
    """[2.13-hand-size] h cards while the stack lasts and the game goes on; h - 1 allowed
    afterwards (h - 2 under the literal reading of E-6)."""
    h = config.hand_size
    sizes = [len(hand) for hand in state["hands"]]
    if state["deck_size"] > 0 and not state["terminal"]:
        expect(all(size == h for size in sizes), "2.13-hand-size: every hand holds h cards")
    else:
        lowest = h - 2 if is_literal_empty_deal(config) else h - 1
        expect(all(lowest <= size <= h for size in sizes), "2.13-hand-size: hands hold h or h - 1 cards")


def expected_score(config: GameConfig, state: State) -> int:
    """[2.16-3-strikeout, 2.16-3-R0, E-13] 0 after the last allowed error (or the
    fireworks' sum under strikeout_score = "fireworks"), else the sum of the heights."""
    if state["remaining"] == -1 and config.options.strikeout_score == "zero":
        return 0
    return sum(state["fireworks"])


def reachable_score(config: GameConfig, state: State, deck: Sequence[int] = ()) -> int:
    """[R-1] per suit: climb from the current height while a copy of the next value is
    not in the discard pile; the sum of the heights reached.  Under Up or Down (which
    needs the ``deck`` to see the fields' cards) the most cards each stack can still
    hold, over every complete stack its cards are a start of [VAR-engine-up-or-down]."""
    discarded = Counter((card["suit"], card["value"]) for card in state["discard"])
    fields = _field_cards(config, deck, state) if is_up_or_down(config) else None
    total = 0
    for suit, counts in enumerate(suit.counts for suit in config.suits):
        if fields is not None:
            total += _reachable_stack(_values_of(fields, suit), lambda value: discarded[(suit, value)] < counts[value - 1])
            continue
        height = state["fireworks"][suit]
        while height < config.values and discarded[(suit, height + 1)] < counts[height]:
            height += 1
        total += height
    return total


def _reachable_stack(on_stack: list[int], available: Callable[[int], bool]) -> int:
    """[R-1, VAR-engine-up-or-down] the stack's cards and then the longest run of the next
    cards of one complete stack it is a start of, each with a copy left."""
    best = len(on_stack)
    for way in UP_OR_DOWN_STACKS:
        if sorted(way[:len(on_stack)]) == on_stack:
            reach = len(on_stack)
            while reach < len(way) and available(way[reach]):
                reach += 1
            best = max(best, reach)
    return best


# ------------------------------------------------------------------ legal actions


def expected_legal(config: GameConfig, state: State) -> list[dict[str, object]]:
    """The legal actions in the order of 2.16-actions, from the state JSON alone
    [2.16-actions, 2.16-2a-token, 2.16-2a-target, 2.16-2a-empty, E-2, E-11,
    VAR-engine-orange, R-deck-plays]: a discard at t = t0 also where an orange suit
    makes it a possible play; the play of slot h' (the stack's last card) last."""
    if state["terminal"]:
        return []
    options, current, tokens = config.options, state["current"], state["clue_tokens"]
    actions: list[Action] = []
    if tokens >= 1:
        for target in range(config.players):
            if target != current or options.self_hints:
                # [2.16-2] the actor cannot see its own hand: no touch test there.
                must_touch = not options.empty_hints and target != current
                actions.extend(_hints_for(config, target, state["hands"][target], must_touch))
    slots = range(len(state["hands"][current]))
    if tokens < config.max_hints or options.discard_at_max_hints or has_orange(config):
        actions.extend(Discard(slot) for slot in slots)
    actions.extend(Play(slot) for slot in slots)
    if options.deck_plays and state["deck_size"] == 1:
        actions.append(Play(len(slots)))
    return [action_to_json(action) for action in actions]


def _hints_for(config: GameConfig, target: int, hand: list[dict[str, int]], must_touch: bool) -> list[Action]:
    """[2.16-2a-empty, VAR-clue-ranks, VAR-mute, VAR-blind] the clue colours, then the
    values (a variant's rank clues); a hint touching nothing only where allowed."""
    variant = variant_of(config)
    values = range(1, config.values + 1) if variant is None else rank_clues(variant)
    hints: list[Hint] = [Hint(target, "colour", c) for c in range(len(config.colours))]
    hints += [Hint(target, "value", v) for v in values]
    return [
        h for h in hints
        if not must_touch or (variant is not None and is_free(variant, h)) or any(is_touched(config, h, card) for card in hand)
    ]


def check_legal(config: GameConfig, state: State, legal: list[dict[str, object]]) -> None:
    """[2.16-actions, PR-legal-action] the listed legal actions are exactly those of the
    rules, in the fixed order; a game that goes on offers at least one."""
    expect(legal == expected_legal(config, state), "2.16-actions: the legal actions and their order")
    expect(state["terminal"] or bool(legal), "PR-legal-action: the player to move has a legal action")


# ------------------------------------------------------------------ one move


def check_move(config: GameConfig, deck: Sequence[int], pre: State, action: Action, post: State) -> None:
    """One pass through steps 2 and 3, checked clause by clause on the JSON [2.16,
    2.16-2a, 2.16-2b, 2.16-2c, 2.16-2-next, 2.16-2-R, 2.16-3]."""
    expect(not pre["terminal"], "2.16-3: no move after the game stopped")
    if isinstance(action, Hint):
        check_hint(config, pre, action, post)
    elif isinstance(action, Discard):
        check_discard(config, deck, pre, action, post)
    else:
        check_play(config, deck, pre, action, post)
    check_turn_end(config, deck, pre, post)
    check_state(config, deck, post)


def check_hint(config: GameConfig, pre: State, hint: Hint, post: State) -> None:
    """[2.16-2a-value, 2.16-2a-suit, 2.16-2a-cost, 2.16-2a-empty, E-19] t := t - 1; a
    touched card keeps only what the hint names, an untouched card loses it; only the
    target's knowledge changes; no card moves."""
    expect(post["clue_tokens"] == pre["clue_tokens"] - 1, "2.16-2a-cost: t := t - 1")
    for key in ("hands", "discard", "fireworks", "deck_size", "strikes"):
        expect(post[key] == pre[key], f"2.16-2a-cost: a hint changes nothing but K and t ({key})")
    for seat, known in enumerate(pre["knowledge"]):
        if seat != hint.target:
            expect(post["knowledge"][seat] == known, "2.16-2a: only the target's knowledge changes")
    for card, old, new in zip(pre["hands"][hint.target], pre["knowledge"][hint.target], post["knowledge"][hint.target], strict=True):
        expect(new == _hinted(config, hint, old, is_touched(config, hint, card)), "2.16-2a-value, 2.16-2a-suit: K_c after the hint")


def _hinted(config: GameConfig, hint: Hint, known: dict[str, Any], touched: bool) -> dict[str, Any]:
    """K_c intersected with (touched) or stripped of (untouched) the named identities."""
    variant = variant_of(config)
    if variant is not None:
        return _hinted_by_cards(config, hint, known, touched)
    if hint.kind == "value":
        values = [v for v in known["values"] if (v == hint.subject) == touched]
        return {"suits": known["suits"], "values": values}
    named = touched_suits(config, hint.subject)
    return {"suits": [s for s in known["suits"] if (s in named) == touched], "values": known["values"]}


def _hinted_by_cards(config: GameConfig, hint: Hint, known: dict[str, Any], touched: bool) -> dict[str, Any]:
    """[VAR-engine-masks, 2.16-2a, 2.14, T-knowledge] under a variant a hint names
    identities, not a suit or a value: a touched card keeps the identities the hint
    touches, an untouched card loses them; a set that is not a product of suits and
    values lists its cards."""
    kept = {(suit, value) for suit, value in known_cards(known) if is_touched(config, hint, {"suit": suit, "value": value}) == touched}
    return knowledge_json(kept)


def _after_leaving(config: GameConfig, deck: Sequence[int], pre: State, slot: int, post: State) -> None:
    """[2.16-2b-draw, 2.16-2c-draw, R-2, R-3, E-5, E-12, E-23, 2.14-initial] the card
    leaves its slot with its K_c; the top card of S is drawn with K = Cards(H) (at the
    end, or the front under newest-first) unless S is empty or, under R-3, the move ends
    the game; the other hands do not change."""
    current = pre["current"]
    hand = pre["hands"][current][:slot] + pre["hands"][current][slot + 1:]
    known = pre["knowledge"][current][:slot] + pre["knowledge"][current][slot + 1:]
    draws = pre["deck_size"] > 0 and (config.options.draw_after_final_move or not post["terminal"])
    if draws:
        top, fresh = card_to_json(deck[len(deck) - pre["deck_size"]], config), full_knowledge(config)
        newest_first = config.options.draw_position == "newest-first"
        hand, known = ([top] + hand, [fresh] + known) if newest_first else (hand + [top], known + [fresh])
    expect(post["hands"][current] == hand, "2.16-2b-draw: the hand after the move and the draw")
    expect(post["knowledge"][current] == known, "2.16-2b-draw: K_c moves with its card; the drawn card has Cards(H)")
    expect(post["deck_size"] == pre["deck_size"] - draws, "2.16-2b-draw: S loses its top card")
    for seat in range(config.players):
        if seat != current:
            expect(post["hands"][seat] == pre["hands"][seat], "2.16-2: other hands do not change")
            expect(post["knowledge"][seat] == pre["knowledge"][seat], "2.16-2: other knowledge does not change")


def check_discard(config: GameConfig, deck: Sequence[int], pre: State, discard: Discard, post: State) -> None:
    """[2.16-2b-discard, 2.16-2b-token, E-2, VAR-engine-orange] D := (d_1, ..., d_M, a);
    t := t + 1 if t < t0; an orange card is played instead (step 2c's test)."""
    card = pre["hands"][pre["current"]][discard.slot]
    if is_orange(config, card):
        _check_judged(config, deck, pre, card, post)
    else:
        _check_discarded(config, pre, card, post)
    _after_leaving(config, deck, pre, discard.slot, post)


def check_play(config: GameConfig, deck: Sequence[int], pre: State, play: Play, post: State) -> None:
    """[2.16-2c, VAR-engine-orange, R-deck-plays] the card of the slot, or under
    ``deck_plays`` with one card left the stack's last card (slot h'), is judged by step
    2c's test; an orange card is discarded instead (step 2b)."""
    hand = pre["hands"][pre["current"]]
    from_stack = play.slot == len(hand)
    if from_stack:
        expect(config.options.deck_plays and pre["deck_size"] == 1, "R-deck-plays: slot h' is the stack's last card, under deck_plays")
        card = card_to_json(deck[len(deck) - pre["deck_size"]], config)
    else:
        card = hand[play.slot]
    if is_orange(config, card):
        _check_discarded(config, pre, card, post)
    else:
        _check_judged(config, deck, pre, card, post)
    if from_stack:
        _after_deck_play(pre, post)
    else:
        _after_leaving(config, deck, pre, play.slot, post)


def _check_discarded(config: GameConfig, pre: State, card: dict[str, int], post: State) -> None:
    """[2.16-2b-discard, 2.16-2b-token] the card is appended to D; t := t + 1 if t < t0;
    F and f unchanged."""
    expect(post["discard"] == pre["discard"] + [card], "2.16-2b-discard: the card is appended to D")
    expect(post["clue_tokens"] == min(pre["clue_tokens"] + 1, config.max_hints), "2.16-2b-token: t := t + 1 if t < t0")
    expect(post["fireworks"] == pre["fireworks"] and post["strikes"] == pre["strikes"], "2.16-2b: F and f unchanged")


def _check_judged(config: GameConfig, deck: Sequence[int], pre: State, card: dict[str, int], post: State) -> None:
    """[2.16-2c-success, 2.16-2c-five, 2.16-2c-fail, E-3, E-10, E-25,
    VAR-engine-up-or-down] the card extends its suit's field if it is next there (the
    field grows by one card; a completed stack regains a token if t < t0); otherwise it
    goes to D and f := f + 1."""
    suit = card["suit"]
    fields = list(pre["fireworks"])
    if is_next(config, deck, pre, card):
        fields[suit] += 1
        bonus = int(fields[suit] == complete_height(config) and pre["clue_tokens"] < config.max_hints)
        expect(post["fireworks"] == fields, "2.16-2c-success: F[x] := (1, ..., y)")
        expect(post["clue_tokens"] == pre["clue_tokens"] + bonus, "2.16-2c-five: a completed suit regains a token if t < t0")
        expect(post["discard"] == pre["discard"] and post["strikes"] == pre["strikes"], "2.16-2c-success: D and f unchanged")
    else:
        expect(post["fireworks"] == fields and post["clue_tokens"] == pre["clue_tokens"], "2.16-2c-fail: F and t unchanged")
        expect(post["discard"] == pre["discard"] + [card], "2.16-2c-fail: the card is appended to D")
        expect(post["strikes"] == pre["strikes"] + 1, "2.16-2c-fail: f := f + 1")


def _after_deck_play(pre: State, post: State) -> None:
    """[R-deck-plays] the card never enters a hand: every hand and K_c stays, nothing is
    drawn, and the stack is empty."""
    expect(post["hands"] == pre["hands"] and post["knowledge"] == pre["knowledge"], "R-deck-plays: the hands keep their cards")
    expect(post["deck_size"] == 0, "R-deck-plays: the stack is empty")


def is_strikeout(config: GameConfig, pre: State, post: State) -> bool:
    """[2.16-2c-strikeout] this move's error made f = f0."""
    return config.max_errors is not None and post["strikes"] == config.max_errors > pre["strikes"]


def check_turn_end(config: GameConfig, deck: Sequence[int], pre: State, post: State) -> None:
    """[2.16-2-next, 2.16-2-R, E-7, E-9, 2.16-3, 2.16-3-last-round, R-1] C := C + 1 mod p;
    R := -1 at a strikeout, else R := R - 1 if R > 0; the move counter grows by one;
    then step 3 stops or, with R infinite and S empty, sets R := p."""
    expect(post["current"] == (pre["current"] + 1) % config.players, "2.16-2-next: C := C + 1 (mod p)")
    expect(post["turns"] == pre["turns"] + 1, "2.16-2-R: the move counter grows by one")
    remaining = pre["remaining"]
    if is_strikeout(config, pre, post):
        remaining = -1
    elif remaining is not None and remaining > 0:
        remaining -= 1
    stop = is_stop(config, post, remaining, deck)
    if not stop and remaining is None and post["deck_size"] == 0:
        remaining = config.players
    stop = stop or is_nothing_playable(config, post, remaining, deck)
    expect(post["terminal"] == stop, "2.16-3: the stop check")
    expect(post["remaining"] == remaining, "2.16-3-last-round: R after the move")


def is_nothing_playable(config: GameConfig, state: State, remaining: int | None, deck: Sequence[int] = ()) -> bool:
    """[R-4, HL-end] under ``end_when_nothing_playable``, in the last round (R >= 1, R
    being its value once step 3 has set it), no card held by the seat to move or the
    R - 1 seats after it would extend its suit's stack; under Up or Down a card extends a
    stack when the stack's cards and it are a start of one of the complete stacks."""
    if not config.options.end_when_nothing_playable or remaining is None or remaining < 1:
        return False
    fields = _field_cards(config, deck, state) if is_up_or_down(config) else None
    for step in range(remaining):
        for card in state["hands"][(state["current"] + step) % config.players]:
            suit, value = card["suit"], card["value"]
            if fields is not None:
                on_stack = _values_of(fields, suit)
                if any(sorted(way[:len(on_stack)]) == on_stack and len(way) > len(on_stack) and way[len(on_stack)] == value
                       for way in UP_OR_DOWN_STACKS):
                    return False
            elif state["fireworks"][suit] == value - 1:
                return False
    return True


def is_stop(config: GameConfig, state: State, remaining: int | None, deck: Sequence[int] = ()) -> bool:
    """Step 3's test [2.16-3-strikeout, 2.16-3-R0, 2.16-3-max, R-1, VAR-max-score]; the
    ``deck`` is needed under Up or Down (R-1 reads the fields' cards)."""
    total = sum(state["fireworks"])
    if remaining in (-1, 0) or total == complete_height(config) * config.suit_count:
        return True
    return config.options.end_when_no_points_possible and reachable_score(config, state, deck) == total
