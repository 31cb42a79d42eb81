"""Which actions are legal: ``is_legal`` and ``legal_actions`` as their own predicates
[2.16-2, 2.16-2a-token, 2.16-2a-target, 2.16-2a-empty, E-2].

Legality depends only on what the acting player sees (the other hands, the token count,
the own hand's size), so the same core decides it for a :class:`GameState` and for the
acting seat's :class:`~hanabi_ref.engine.view.PlayerView`.

Each rule lives in one helper (``is_hint_affordable``, ``is_hint_target_allowed``,
``is_hint_touching_allowed``, ``is_discard_allowed``, ``is_slot``); the predicate
:func:`action_problem` and the enumerator :func:`enumerate_legal` both call them, and
tests/test_legality.py checks the two against each other on every state it reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.config import GameConfig

if TYPE_CHECKING:
    from hanabi_ref.engine.state import GameState
    from hanabi_ref.engine.tables import Tables

Problem = tuple[str, str]

MaskOf = Callable[[int], "int | None"]
"""``mask_of(j)``: the touch key of seat j's hand (:func:`touch_key`), or None where
legality may not look (the actor's own hand, whose contents legality never needs)."""


def hint_mask(tables: Tables, hint: Hint) -> int:
    """The identities a hint touches: value a, or every suit the clue colour touches
    [2.16-2a-value, 2.16-2a-suit, V-rainbow]."""
    if hint.kind == "value":
        return tables.value_masks[hint.subject - 1]
    return tables.colour_masks[hint.subject]


def hand_mask(deck: Sequence[int], hand: Sequence[int]) -> int:
    """The bitmask of the identities in a hand."""
    mask = 0
    for card_id in hand:
        mask |= 1 << deck[card_id]
    return mask


def hint_bit(tables: Tables, hint: Hint) -> int:
    """The hint's bit in a touch key: its place among a target's hints in the action
    catalogue, clue colours first, then values (:attr:`Tables.hint_order`)."""
    return tables.hint_bits[(hint.kind, hint.subject)]


def touch_key(touch_bits: Sequence[int], cards: Iterable[int]) -> int:
    """Which hints touch a card of a hand: the OR of its identities' bits in
    ``touch_bits`` (:attr:`Tables.touch_bits`) [2.16-2a-empty].  Hint h touches a
    card of the hand exactly when ``touch_key & hint_bit(tables, h)``, so the key holds
    all that legality needs to know of a hand."""
    key = 0
    for card in cards:
        key |= touch_bits[card]
    return key


def touch_keys(touch_bits: Sequence[int], deck: Sequence[int], hands: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The :func:`touch_key` of each hand, its cards given by id in ``deck``."""
    return tuple(touch_key(touch_bits, map(deck.__getitem__, hand)) for hand in hands)


# ------------------------------------------------------------ one helper per rule


def is_hint_affordable(hints: int) -> bool:
    """[2.16-2a-token, E-21] a hint needs a hint token: t >= 1."""
    return hints >= 1


def is_hint_target_allowed(config: GameConfig, current: int, target: int) -> bool:
    """[2.16-2a-target, E-4] the target is another seat, or any seat under ``self_hints``."""
    return target != current or config.options.self_hints


def is_hint_touching_allowed(tables: Tables, touched: int, target_mask: int | None) -> bool:
    """[2.16-2a-empty, E-20] a hint touching no card of the target is legal only under
    ``empty_hints``; ``touched`` is the hint's bit (:func:`hint_bit`), ``target_mask``
    the target hand's touch key (:func:`touch_key`; None: not looked at, which the
    thesis' rule never needs).  A blind clue (VAR-blind) is legal however few cards
    it touches."""
    return (tables.config.options.empty_hints or target_mask is None or bool(target_mask & touched)
            or bool(tables.free_hint_bits & touched))


def is_discard_allowed(tables: Tables, hints: int) -> bool:
    """[E-2, 2.16-2b] with t = t0 a discard is legal under the thesis' algorithm and
    illegal under ``discard_at_max_hints = false``, except in a variant with an orange
    suit, where a discard may be a play (VAR-engine-orange)."""
    config = tables.config
    return hints < config.max_hints or config.options.discard_at_max_hints or tables.inverted_mask != 0


def is_slot(slot: object, own_hand_size: int) -> bool:
    """[2.16-2b, 2.16-2c] a discard or play names a slot of the actor's own hand."""
    return _is_index(slot, own_hand_size)


def is_deck_play_open(config: GameConfig, stack_size: int) -> bool:
    """[R-deck-plays] under ``deck_plays``, with exactly one card left in the stack, the
    current player may play it: the play names slot h' (one past the hand's last slot)."""
    return config.options.deck_plays and stack_size == 1


def _is_index(value: object, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


# ------------------------------------------------------------ the predicate


def _hint_problem(tables: Tables, hints: int, current: int, hint: Hint, mask_of: MaskOf) -> Problem | None:
    """Why a hint is illegal, or None; the order of the checks fixes which clause an
    action breaking several is refused under (spec/vectors.md relies on it)."""
    config = tables.config
    if not _is_index(hint.target, config.players):
        return ("2.16-2a-target", f"hint target {hint.target!r} is not a seat (0..{config.players - 1})")
    if not is_hint_target_allowed(config, current, hint.target):
        return ("2.16-2a-target", "a player cannot hint its own hand (erratum E-4)")
    if hint.kind == "value":
        if not (_is_index(hint.subject, config.values + 1) and hint.subject >= 1):
            return ("2.16-2a-value", f"hint value {hint.subject!r} is not in 1..{config.values}")
        if hint.subject not in tables.clue_values:
            clues = ", ".join(map(str, tables.clue_values)) or "none"
            return ("VAR-clue-ranks", f"{config.variant} has no rank clue {hint.subject} (rank clues: {clues})")
    elif hint.kind == "colour":
        if not config.colours:
            return ("VAR-mute", f"{config.variant} has no colour clues")
        if not _is_index(hint.subject, len(config.colours)):
            return ("2.16-2a-suit", f"clue colour {hint.subject!r} is not in 0..{len(config.colours) - 1}")
    else:
        return ("2.16-2a", f"hint kind {hint.kind!r} is neither 'value' nor 'colour'")
    if not is_hint_affordable(hints):
        # [E-21] with t = 0 a hint is not an available action; there is no pass.
        return ("2.16-2a-token", "no hint token is left (t = 0)")
    target_mask = None if config.options.empty_hints else mask_of(hint.target)
    if not is_hint_touching_allowed(tables, hint_bit(tables, hint), target_mask):
        return ("2.16-2a-empty", f"the hint touches no card of seat {hint.target}")
    return None


def action_problem(
    tables: Tables,
    hints: int,
    current: int,
    own_hand_size: int,
    mask_of: MaskOf,
    action: Action,
    deck_play: bool = False,
) -> Problem | None:
    """Why ``action`` is illegal for the seat ``current``, or None [2.16-2].

    ``mask_of`` is as :data:`MaskOf` says; ``deck_play``: a play of the stack's last card
    is open (:func:`is_deck_play_open`)."""
    if isinstance(action, Hint):
        return _hint_problem(tables, hints, current, action, mask_of)
    if isinstance(action, (Discard, Play)):
        clause = "2.16-2b" if isinstance(action, Discard) else "2.16-2c"
        if deck_play and isinstance(action, Play) and is_slot(action.slot, own_hand_size + 1):
            return None  # [R-deck-plays] slot h' is the stack's last card
        if not is_slot(action.slot, own_hand_size):
            return (clause, f"slot {action.slot!r} is not in the hand (0..{own_hand_size - 1})")
        if isinstance(action, Discard) and not is_discard_allowed(tables, hints):
            return ("E-2", f"discarding is not allowed with all {tables.config.max_hints} hint tokens")
        return None
    return ("2.16-2", f"{action!r} is not an action")


# ------------------------------------------------------------ the enumerator


def enumerate_legal(
    tables: Tables,
    hints: int,
    current: int,
    own_hand_size: int,
    keys: Sequence[int | None],
    deck_play: bool = False,
) -> list[Action]:
    """Every legal action, in a fixed order: hints by target seat (colours, then
    values), then discards by slot, then plays by slot, the play of the stack's last
    card (slot h') last when ``deck_play`` [2.16-actions, R-deck-plays].

    ``keys[j]`` is seat j's touch key (:func:`touch_key`), or None where legality may
    not look; the actor's own hand is never looked at, whatever ``keys[current]`` holds
    (:data:`MaskOf` says the same for :func:`action_problem`).  ``deck_play`` is as for
    :func:`action_problem`; the same rule helpers decide."""
    actions: list[Action] = []
    catalogue = tables.action_catalogue
    if is_hint_affordable(hints):
        # [2.16-2a-target] is_hint_target_allowed, decided once per configuration.
        targets = catalogue.hint_targets[current]
        if tables.config.options.empty_hints:
            for target in targets:
                actions += catalogue.hint_actions[target]
        else:
            free, memos = tables.free_hint_bits, tables.touching_memo
            for target in targets:
                key = None if target == current else keys[target]
                if key is None:
                    actions += catalogue.hint_actions[target]
                    continue
                # [2.16-2a-empty] is_hint_touching_allowed, for every hint to the target at
                # once: the hints whose bit is in the hand's touch key or free (VAR-blind),
                # memoized.
                key |= free
                found = memos[target].get(key)
                actions += found if found is not None else tables.hints_touching(target, key)
    if is_discard_allowed(tables, hints):
        actions += catalogue.discards[:own_hand_size]
    actions += catalogue.plays[: own_hand_size + 1] if deck_play else catalogue.plays[:own_hand_size]
    return actions


# ------------------------------------------------------------ on a state


def _state_mask_of(state: GameState) -> MaskOf:
    deck, hands, current, bits = state.deck, state.hands, state.current_player, state.tables.touch_bits

    def mask_of(seat: int) -> int | None:
        if seat == current:
            return None
        # touch_key(bits, map(deck.__getitem__, hand)) written out: called for every
        # target on every move, the call and the map cost 0.7 us a move with 5 players.
        key = 0
        for card_id in hands[seat]:
            key |= bits[deck[card_id]]
        return key

    return mask_of


def illegality(state: GameState, action: Action) -> Problem | None:
    """(clause, reason) if ``action`` is illegal in ``state``, else None [2.16-2]."""
    if state.terminal:
        return ("2.16-3", "the game is over")
    current, config = state.current_player, state.config
    deck_play = config.options.deck_plays and is_deck_play_open(config, len(state.deck) - state.next_card)
    # only a hint asks for a hand's touch key [2.16-2a-empty]
    mask_of = _state_mask_of(state) if isinstance(action, Hint) else _no_hand
    return action_problem(state.tables, state.clue_tokens, current, len(state.hands[current]), mask_of, action, deck_play)


def _no_hand(seat: int) -> int | None:
    """The touch key :func:`illegality` passes for a play or a discard, which asks for none."""
    return None


def is_legal(state: GameState, action: Action) -> bool:
    """Whether the current player may take ``action`` now [2.16-2]."""
    return illegality(state, action) is None


def legal_actions(state: GameState) -> list[Action]:
    """Every action the current player may take; empty once the game is over [2.16-actions].

    Its size varies with tokens, presets and clue colours: it is (p-1)(n+k)+2h only in
    the thesis preset with t >= 1 and a clue colour per suit [E-11].  The hands' touch
    keys are the state's own (``state.touch_keys``); the predicate :func:`illegality`
    computes a target's key from its hand, so tests/test_legality.py, which checks the
    two against each other, checks the keys the moves keep."""
    if state.terminal:
        return []
    current, config = state.current_player, state.config
    deck_play = config.options.deck_plays and is_deck_play_open(config, len(state.deck) - state.next_card)
    return enumerate_legal(state.tables, state.clue_tokens, current, len(state.hands[current]), state.touch_keys, deck_play)
