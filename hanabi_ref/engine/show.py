"""Games made readable: card names, knowledge, moves and the board as text [SH-card,
SH-knowledge, SH-move, SH-board].

The engine keeps cards as integers and knowledge as bitmasks (spec/rules.md, 2.9-cards
and 2.14); this module is how a person sees them.  A card is its suit's letter and its
value (``r3``); a knowledge set is its possible suits and values (``{r,g}{1,2}``); a
move is a sentence naming the cards it moved or touched; a board is a few lines of text
from a state (every card face up) or from one seat's view (that seat's own cards shown
only as their knowledge).  Nothing here changes a game: every function reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity, all_identities, identity, knowledge_suits_values, members, suit_of, value_of
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.tables import tables_for

if TYPE_CHECKING:
    from hanabi_ref.engine.state import Event, GameState
    from hanabi_ref.engine.view import PlayerView


class ParseError(HanabiError):
    """Text that names no card or no action of this configuration; the message says why
    in one line [SH-parse]."""


def suit_letter(config: GameConfig, suit: int) -> str:
    """[SH-card] the short name of a suit: its abbreviation in lower case (``r`` for Red,
    ``m`` for Rainbow, ``s2`` for a custom composition's second suit)."""
    return config.suits[suit].abbreviation.lower()


def fireworks_text(config: GameConfig, fireworks: Sequence[int]) -> str:
    """[SH-board] the fields as the board shows them: each suit's letter and height, ``r2 y0 g5``."""
    return " ".join(f"{suit_letter(config, suit)}{height}" for suit, height in enumerate(fireworks))


def card_name(config: GameConfig, card: Identity) -> str:
    """[SH-card] a card identity as its suit letter and value: ``r3``; a suit whose short
    name is longer than a letter is separated from the value by a dash (``s2-3``); under
    Up or Down a START card is ``rS`` (VAR-engine-up-or-down): the value as the game's
    rule set writes it."""
    letter = suit_letter(config, suit_of(card, config.values))
    value = value_of(card, config.values)
    shown = tables_for(config).rule_set.value_text(value)
    return f"{letter}{shown}" if len(letter) == 1 else f"{letter}-{shown}"


def parse_card(config: GameConfig, text: str) -> Identity:
    """[SH-parse] the identity a name of :func:`card_name` names (any case), or
    :class:`ParseError`."""
    wanted = text.strip().lower()
    for card in all_identities(config.values * config.suit_count):
        if card_name(config, card).lower() == wanted:
            return card
    raise ParseError(f"{text!r} is not a card of {config.variant} (cards look like "
                     f"{card_name(config, identity(1, 0, config.values))} or "
                     f"{card_name(config, identity(config.values, config.suit_count - 1, config.values))})")


def knowledge_parts(config: GameConfig, mask: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """[SH-knowledge, 2.14] the suits and the values a knowledge set allows, when it is
    their product (hints only ever make products); None when it is not."""
    suits, values, product = knowledge_suits_values(mask, config.values, config.suit_count)
    return (suits, values) if product else None


def knowledge_text(config: GameConfig, mask: int, *, compact: bool = False) -> str:
    """[SH-knowledge] a knowledge set as ``{suits}{values}``: ``{r,g}{1,2}``; one
    possibility is written bare (``r{1,2}``, ``r1`` for a card known exactly) and every
    possibility as ``?`` (``??`` for a card nothing is known of).  A set that is not a
    product lists its cards: ``{r1,g2}``; the empty set is ``{}``.  ``compact`` (the
    board's form) leaves out the commas between one-letter names: ``{rg}{12}``."""
    parts = knowledge_parts(config, mask)
    if parts is None or not parts[0]:
        names = [card_name(config, card) for card in members(mask)]
        return "{" + ",".join(names) + "}"
    suits, values = parts
    letters = [suit_letter(config, s) for s in suits]
    suit_text = _set_text(letters, len(suits) == config.suit_count, compact and all(len(x) == 1 for x in letters))
    value_text = _set_text([str(v) for v in values], len(values) == config.values, compact and config.values < 10)
    return suit_text + value_text


def _set_text(names: Sequence[str], everything: bool, compact: bool) -> str:
    if everything and len(names) > 1:
        return "?"
    return names[0] if len(names) == 1 else "{" + ("" if compact else ",").join(names) + "}"


def colour_name(config: GameConfig, colour: int) -> str:
    """[SH-move, SH-parse] a clue colour's name in lower case, one word (``red``;
    ``suit1`` for a custom composition's ``Suit 1``)."""
    return config.colours[colour].lower().replace(" ", "")


def hint_subject(config: GameConfig, hint: Hint) -> str:
    """[SH-move] what a hint names: a colour's name (``red``) or a value (``3s``)."""
    return config.colours[hint.subject].lower() if hint.kind == "colour" else f"{hint.subject}s"


def action_text(config: GameConfig, action: Action) -> str:
    """[SH-move, SH-parse] an action as a person types it: ``play 2``, ``discard 0``,
    ``hint 3 red``, ``hint 1 4`` (:func:`parse_action` reads it back)."""
    if isinstance(action, Hint):
        if action.kind == "colour" and 0 <= action.subject < len(config.colours):
            return f"hint {action.target} {colour_name(config, action.subject)}"
        return f"hint {action.target} {action.subject}"
    if isinstance(action, Discard):
        return f"discard {action.slot}"
    return f"play {action.slot}"


def parse_action(config: GameConfig, text: str) -> Action:
    """[SH-parse] an action from the words ``play SLOT``, ``discard SLOT`` or ``hint SEAT
    SUBJECT``, where SUBJECT is a value (``3``), a clue colour's name or its first letter
    when no other colour shares it (``red``, ``r``), the letter of a suit that one colour
    alone touches (``s2``), or ``colour NAME`` / ``color NAME`` / ``value N``; anything else is a :class:`ParseError` saying what was expected.  Legality
    is not decided here (a slot or seat may not exist in the game; a value need not be a
    rank clue of the variant, VAR-clue-ranks, which the engine decides).  A variant's
    colours are its clue colours (``pink``, ``brown``, ``black``), not its suits' names
    (``tomato`` is a suit touched by ``red``) [S-variants]."""
    words = text.lower().split()
    if not words:
        raise ParseError("empty move: type play SLOT, discard SLOT or hint SEAT COLOUR|VALUE")
    verb, rest = words[0], words[1:]
    if verb in ("play", "discard"):
        if len(rest) != 1 or not rest[0].isdigit():
            raise ParseError(f"{verb} takes one slot number, e.g. {verb} 0")
        return Play(int(rest[0])) if verb == "play" else Discard(int(rest[0]))
    if verb != "hint":
        raise ParseError(f"unknown move {verb!r}: type play SLOT, discard SLOT or hint SEAT COLOUR|VALUE")
    if len(rest) == 3 and rest[1] in ("colour", "color", "value"):
        if (rest[1] == "value") != rest[2].isdigit():
            wanted = "a value" if rest[1] == "value" else "a colour name"
            raise ParseError(f"hint {rest[0]} {rest[1]} takes {wanted}, got {rest[2]!r}")
        rest = [rest[0], rest[2]]
    if len(rest) != 2 or not rest[0].isdigit():
        raise ParseError("hint takes a seat and a colour or value, e.g. hint 1 red or hint 1 3")
    target, subject = int(rest[0]), rest[1]
    if subject.isdigit():
        return Hint(target, "value", int(subject))
    colours = [colour_name(config, index) for index in range(len(config.colours))]
    if subject in colours:
        return Hint(target, "colour", colours.index(subject))
    initials = [index for index, name in enumerate(colours) if name[:1] == subject]
    if len(subject) == 1 and len(initials) == 1:
        return Hint(target, "colour", initials[0])
    # A suit's letter names the one colour that touches it (s2 in a custom deck); under a
    # variant two suits may share a letter (Tangerine and Tan), and then every suit of that
    # letter must be touched by that one colour alone [SH-parse, S-variants].
    lettered = [suit.touched_by for suit in config.suits if suit.abbreviation.lower() == subject]
    own = {colour for touched in lettered for colour in touched}
    if lettered and len(own) == 1 and all(touched == own for touched in lettered):
        return Hint(target, "colour", next(iter(own)))
    numbers = tables_for(config).clue_values
    values = f"1..{config.values}" if numbers == tuple(range(1, config.values + 1)) else ", ".join(map(str, numbers)) or "none"
    raise ParseError(f"{subject!r} is not a clue colour or value here (colours: {', '.join(colours) or 'none'}; "
                     f"values {values})")


def touched_slots(hand: Sequence[int], touched: Sequence[int]) -> list[int]:
    """The slots of ``hand`` (card ids) holding the card ids a hint touched."""
    chosen = set(touched)
    return [slot for slot, card_id in enumerate(hand) if card_id in chosen]


def event_text(config: GameConfig, event: Event, hands: Sequence[Sequence[int]],
               drawn: Identity | None = None) -> str:
    """[SH-move] one move as a sentence: ``seat 1 hints seat 2 red: touches slots 0, 3``
    (a value hint names ``3s``; one that touches nothing, ``touches no card``), ``seat 0
    plays b1 from slot 2 (success)`` or ``(fails: a strike)``, ``seat 3 discards y4 from
    slot 0``; a play of the stack's last card (R-deck-plays) ``... from the stack``.
    ``hands``: the card ids of each hand around a hint (a hint moves no card);
    ``drawn``: the identity of the card the move drew, to name it (``, draws g2``) where
    every card is shown, or None to say nothing of it."""
    seat, action = event.player, event.action
    if isinstance(action, Hint):
        slots = touched_slots(hands[action.target], event.touched)
        if not slots:
            touched = "touches no card"
        else:
            touched = f"touches slot{'s' if len(slots) > 1 else ''} {', '.join(map(str, slots))}"
        return f"seat {seat} hints seat {action.target} {hint_subject(config, action)}: {touched}"
    card = "a card" if event.card is None else card_name(config, Identity(event.card))
    verb = "plays" if isinstance(action, Play) else "discards"
    # [R-deck-plays] slot h' exists only while every hand is full (one card in the stack)
    where = "the stack" if action.slot >= config.hand_size else f"slot {action.slot}"
    text = f"seat {seat} {verb} {card} from {where}"
    if isinstance(action, Play) and event.success is None:
        text += " (orange: discarded instead)"  # [VAR-engine-orange]
    elif isinstance(action, Discard) and event.success is not None:
        text += f" (orange: played instead, {'success' if event.success else 'fails: a strike'})"
    elif isinstance(action, Play):
        text += f" ({'success' if event.success else 'fails: a strike'})"
    return text if drawn is None else f"{text}, draws {card_name(config, drawn)}"


def state_event_text(state: GameState) -> str:
    """[SH-move] the move that led to ``state`` as :func:`event_text` tells it, the drawn
    card named (a state is face up)."""
    event = state.history[-1]
    drawn = None if event.drawn is None else _deck(state)[event.drawn]
    return event_text(state.config, event, state.hands, drawn)


# --- the board ------------------------------------------------------------------------


def _deck(state: GameState) -> tuple[Identity, ...]:
    """The identities of S0 by card id (``GameState.deck``)."""
    return state.deck


HAND_ORDERS = ("newest-left", "oldest-left")
"""[SH-order] how a board lays out each hand: the newest card on the left (as hanab.live
shows hands, its chop on the right) or the oldest card on the left."""

NEWEST_LEFT_PRESETS = frozenset({"hanab-live"})
"""[SH-order] the presets whose players read hands newest card first (hanab.live's)."""


def hand_order(config: GameConfig, order: str | None = None) -> str:
    """[SH-order] the layout of the hands: ``order`` if given, else the one the preset's
    players expect (newest on the left for hanab.live's rules, oldest on the left
    otherwise: the engine's slot order under R-2's default)."""
    if order is not None:
        if order not in HAND_ORDERS:
            raise ParseError(f"hand order {order!r}: one of {', '.join(HAND_ORDERS)}")
        return order
    return "newest-left" if config.preset in NEWEST_LEFT_PRESETS else "oldest-left"


def state_board(state: GameState, order: str | None = None) -> str:
    """[SH-board] ``state`` as a board, every card face up."""
    deck = _deck(state)
    hands = [tuple(deck[c] for c in hand) for hand in state.hands]
    discard = [deck[c] for c in state.discard]
    return _board(state.config, state.turns, state.current_player, state.score, state.clue_tokens, state.strikes,
                  state.deck_size, state.fireworks, hands, state.knowledge, discard, state.remaining,
                  state.terminal, None, state.hands, order)


def view_board(view: PlayerView, order: str | None = None) -> str:
    """[SH-board, 2.17-view] a seat's view as a board: the seat's own cards only as their
    knowledge (``#`` where the identity would be)."""
    discard = [card for _, card in view.discard]
    return _board(view.config, view.turns, view.current_player, view.score, view.clue_tokens, view.strikes,
                  view.deck_size, view.fireworks, view.cards, view.knowledge, discard, view.remaining,
                  view.terminal, view.seat, view.hands, order)


def _board(config: GameConfig, turn: int, current: int, points: int, tokens: int, strikes: int,
           deck_size: int, fireworks: Sequence[int], hands: Sequence[Sequence[Identity | None]],
           knowledge: Sequence[Sequence[int]], discard: Sequence[Identity], remaining: int | None,
           terminal: bool, seat: int | None, ids: Sequence[Sequence[int]], order: str | None) -> str:
    limit = "" if config.max_errors is None else f"/{config.max_errors}"
    if terminal:
        status = "game over"
    else:
        status = f"seat {current} to act"
        if remaining is not None:
            status += f", {remaining} {'turn' if remaining == 1 else 'turns'} left"
    lines = [
        f"turn {turn} · {status} · score {points}/{tables_for(config).max_score} · clue tokens {tokens}/{config.max_hints}"
        f" · strikes {strikes}{limit} · deck {deck_size}",
        "fireworks   " + fireworks_text(config, fireworks),
    ]
    texts = [[knowledge_text(config, mask, compact=True) for mask in known] for known in knowledge]
    width = max(3, *(len(text) for row in texts for text in row))
    newest_left = hand_order(config, order) == "newest-left"
    for player, (hand, row) in enumerate(zip(hands, texts)):
        mark = ">" if player == current and not terminal else " "
        label = f"{mark} seat {player}{' you' if player == seat else '    '}  "
        slots = list(range(len(hand)))
        if newest_left:  # [SH-order] by age, the newest (highest card id) first, whatever R-2's slot order
            slots.sort(key=lambda slot: -ids[player][slot])
            if player == seat:  # the slots its moves name (play 0 is the oldest card): where they are
                lines.append(" " * len(label) + "  ".join(f"slot {slot}".ljust(width) for slot in slots).rstrip())
        names = ["#" if hand[slot] is None else card_name(config, hand[slot]) for slot in slots]  # type: ignore[arg-type]
        lines.append(label + "  ".join(name.ljust(width) for name in names).rstrip())
        lines.append(" " * len(label) + "  ".join(row[slot].ljust(width) for slot in slots).rstrip())
    lines.append("discard     " + (_grouped(config, discard) or "-"))
    return "\n".join(lines)


def _grouped(config: GameConfig, cards: Sequence[Identity]) -> str:
    """[SH-board] the discard pile grouped by suit, each suit's cards in value order."""
    groups: list[list[Identity]] = [[] for _ in config.suits]
    for card in cards:
        groups[suit_of(card, config.values)].append(card)
    return " · ".join(" ".join(card_name(config, card) for card in sorted(group)) for group in groups if group)


def card_identity(config: GameConfig, suit: int, value: int) -> Identity:
    """The identity of (value, suit) with a check that both exist in ``config``."""
    if not 0 <= suit < config.suit_count or not 1 <= value <= config.values:
        raise ParseError(f"no card of suit {suit} and value {value} in {config.variant}")
    return identity(value, suit, config.values)


def show_game(states: Sequence[GameState], first: int | None = None, last: int | None = None,
              order: str | None = None) -> list[str]:
    """[SH-show] a game move by move: the board before the first move shown, then for each
    move its sentence and the board after it.  ``states``: the state after the deal and
    after each move (move k leads to ``states[k]``); ``first``/``last``: the moves shown
    (1-based, both included; by default every move).  A range past the game's end is
    cut to it.  ``order``: the hands' layout (SH-order; by default the preset's)."""
    moves = len(states) - 1
    start = 1 if first is None else max(first, 1)
    stop = moves if last is None else min(last, moves)
    before = min(start - 1, moves)
    lines = [f"=== {'the deal' if before == 0 else f'after move {before}'} ===", state_board(states[before], order)]
    for index in range(start, stop + 1):
        lines.append("")
        lines.append(f"=== move {index}: {state_event_text(states[index])} ===")
        lines.append(state_board(states[index], order))
    return lines
