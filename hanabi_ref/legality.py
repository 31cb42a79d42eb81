"""Which actions are legal: ``is_legal`` and ``legal_actions`` as their own predicates
[2.16-2, 2.16-2a-token, 2.16-2a-target, 2.16-2a-empty, E-2].

Legality depends only on what the acting player sees (the other hands, the token count,
the own hand's size), so the same core decides it for a :class:`GameState` and for the
acting seat's :class:`~hanabi_ref.view.PlayerView`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from hanabi_ref.actions import Action, Discard, Hint, Play
from hanabi_ref.rules import GameConfig

if TYPE_CHECKING:
    from hanabi_ref.state import GameState

Problem = tuple[str, str]


def hint_mask(config: GameConfig, hint: Hint) -> int:
    """The identities a hint touches: value a, or every suit the clue colour touches
    [2.16-2a-value, 2.16-2a-suit, V-rainbow]."""
    if hint.kind == "value":
        return config.value_masks[hint.value - 1]
    return config.colour_masks[hint.value]


def _is_index(value: object, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


MaskOf = Callable[[int], "int | None"]


def _hint_problem(
    config: GameConfig,
    hints: int,
    current: int,
    hint: Hint,
    mask_of: MaskOf,
) -> Problem | None:
    if not _is_index(hint.target, config.players):
        return ("2.16-2a-target", f"hint target {hint.target!r} is not a seat (0..{config.players - 1})")
    if hint.target == current and not config.options.self_hints:
        return ("2.16-2a-target", "a player cannot hint its own hand (erratum E-4)")
    if hint.kind == "value":
        if not (_is_index(hint.value, config.values + 1) and hint.value >= 1):
            return ("2.16-2a-value", f"hint value {hint.value!r} is not in 1..{config.values}")
    elif hint.kind == "colour":
        if not _is_index(hint.value, len(config.colours)):
            return ("2.16-2a-suit", f"clue colour {hint.value!r} is not in 0..{len(config.colours) - 1}")
    else:
        return ("2.16-2a", f"hint kind {hint.kind!r} is neither 'value' nor 'colour'")
    if hints < 1:
        # [E-21] with t = 0 a hint is not an available action; there is no pass.
        return ("2.16-2a-token", "no hint token is left (t = 0)")
    # [E-20] a hint touching no card: allowed by step 2a, refused under empty_hints = false.
    target_mask = None if config.options.empty_hints else mask_of(hint.target)
    if target_mask is not None and not target_mask & hint_mask(config, hint):
        return ("2.16-2a-empty", f"the hint touches no card of seat {hint.target}")
    return None


def action_problem(
    config: GameConfig,
    hints: int,
    current: int,
    own_hand_size: int,
    mask_of: MaskOf,
    action: Action,
) -> Problem | None:
    """Why ``action`` is illegal for the seat ``current``, or None [2.16-2].

    ``mask_of(j)`` is the identity bitmask of seat j's hand (None where unknown: the
    actor's own hand, whose contents legality never needs)."""
    if isinstance(action, Hint):
        return _hint_problem(config, hints, current, action, mask_of)
    if isinstance(action, (Discard, Play)):
        clause = "2.16-2b" if isinstance(action, Discard) else "2.16-2c"
        if not _is_index(action.slot, own_hand_size):
            return (clause, f"slot {action.slot!r} is not in the hand (0..{own_hand_size - 1})")
        if isinstance(action, Discard) and hints >= config.hints and not config.options.discard_at_max_hints:
            return ("E-2", f"discarding is not allowed with all {config.hints} hint tokens")
        return None
    return ("2.16-2", f"{action!r} is not an action")


def hand_mask(deck: Sequence[int], hand: Sequence[int]) -> int:
    """The bitmask of the identities in a hand."""
    mask = 0
    for card_id in hand:
        mask |= 1 << deck[card_id]
    return mask


def _state_mask_of(state: GameState) -> MaskOf:
    def mask_of(seat: int) -> int | None:
        return None if seat == state.current else hand_mask(state.deck, state.hands[seat])

    return mask_of


def illegality(state: GameState, action: Action) -> Problem | None:
    """(clause, reason) if ``action`` is illegal in ``state``, else None [2.16-2]."""
    if state.terminal:
        return ("2.16-3", "the game is over")
    return action_problem(
        state.config,
        state.hints,
        state.current,
        len(state.hands[state.current]),
        _state_mask_of(state),
        action,
    )


def is_legal(state: GameState, action: Action) -> bool:
    """Whether the current player may take ``action`` now [2.16-2]."""
    return illegality(state, action) is None


def enumerate_legal(
    config: GameConfig,
    hints: int,
    current: int,
    own_hand_size: int,
    mask_of: MaskOf,
) -> list[Action]:
    """Every legal action, in a fixed order: hints by target seat (colours, then
    values), then discards by slot, then plays by slot [2.16-actions].

    ``mask_of`` is as for :func:`action_problem`."""
    actions: list[Action] = []
    options = config.options
    catalogue = config.action_catalogue
    if hints >= 1:
        for target, target_hints in enumerate(catalogue.hints):
            if target == current and not options.self_hints:
                continue
            target_mask = None if options.empty_hints else mask_of(target)
            if target_mask is None:
                actions.extend(hint for hint, _ in target_hints)
            else:
                actions.extend(hint for hint, mask in target_hints if target_mask & mask)
    if hints < config.hints or options.discard_at_max_hints:
        actions.extend(catalogue.discards[:own_hand_size])
    actions.extend(catalogue.plays[:own_hand_size])
    return actions


def legal_actions(state: GameState) -> list[Action]:
    """Every action the current player may take; empty once the game is over [2.16-actions].

    Its size varies with tokens, presets and clue colours: it is (p-1)(n+k)+2h only in
    the thesis preset with t >= 1 and a clue colour per suit [E-11]."""
    if state.terminal:
        return []
    return enumerate_legal(
        state.config,
        state.hints,
        state.current,
        len(state.hands[state.current]),
        _state_mask_of(state),
    )
