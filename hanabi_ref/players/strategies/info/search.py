"""The endgame search of the information strategy [I-search] *(ours)*.

Near the end of a game the seat to move asks, of each move it might make, how often the
game would still end perfect if it made that move and every seat then played as the
strategy plays.  It cannot see its own cards nor the order of the stack, so it answers
on *worlds*: its own cards drawn from its private knowledge (the public sets and the
copies it cannot see), the stack shuffled from the copies left.  In a world every
seat's choices are known (each seat plays the strategy without the search, from that
world's views), so a move's outcome in a world is one roll-out to the end of the game.

Only moves that tell the other seats nothing false are tried (I-search): the strategy's
own move, any play, the strategy's hint, and a discard when the discard's I-no-hint-
needed reading is true and it is not one of the cards whose discard carries answers
(I-useless-hat).  What seats read from a move is therefore the same as in the strategy
without the search, and every number still decodes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.legality import is_discard_allowed
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.info.knowledge import Board, Weights, identities
from hanabi_ref.engine.transition import apply
from hanabi_ref.engine.view import PlayerView, ViewMaker

if TYPE_CHECKING:
    from hanabi_ref.players.strategies.info.player import InfoPlayer

CHECK_SHARE = 4
"""[I-search] the strategy's own move is first rolled out on worlds // 4 worlds (at least 1)."""

MARGIN = 2
"""[I-search] another move replaces the strategy's only when it ends perfect in at least
this many more of the same worlds."""

TRIES = 20
"""[I-search] draws of the own cards per world asked for before giving up on a world."""


def world_rng(seed: int, turn: int, round_: int) -> random.Random:
    """The generator of one batch of worlds: from the seat's seed, the turn and which
    batch (the check or the comparison), so the same view always gives the same worlds."""
    return random.Random((seed * 1_000_003 + turn) * 4 + round_)


def sample_worlds(view: PlayerView, own: Sequence[int], weights: Weights, count: int,
                  rng: random.Random) -> list[GameState]:
    """[I-search] up to ``count`` states that agree with ``view``: the seat's own cards
    take identities in their private sets ``own`` (slots in a random order, each identity
    drawn in proportion to its copies not yet placed), the rest of the unseen copies
    (``weights``) make the stack in a random order.  A draw that leaves a slot without an
    identity is drawn again (at most :data:`TRIES` times per world)."""
    config, tables = view.config, view.tables
    deck: list[int] = [0] * tables.deck_size
    for ids, cards in zip(view.hands, view.cards):
        for card_id, card in zip(ids, cards):
            if card is not None:
                deck[card_id] = card
    for card_id, card in view.played:
        deck[card_id] = card
    for card_id, card in view.discard:
        deck[card_id] = card
    next_card = tables.deck_size - view.deck_size
    own_ids = view.hands[view.seat]
    played = tuple(card_id for card_id, _ in view.played)
    discard = tuple(card_id for card_id, _ in view.discard)
    choices = [identities(mask) for mask in own]
    worlds: list[GameState] = []
    tries = 0
    while len(worlds) < count and tries < count * TRIES:
        tries += 1
        left = list(weights.counts)
        drawn: list[tuple[int, int]] = []
        for slot in rng.sample(range(len(own)), len(own)):
            options = [option for option in choices[slot] if left[option] > 0]
            if not options:
                break
            chosen = rng.choices(options, [left[option] for option in options])[0]
            left[chosen] -= 1
            drawn.append((slot, chosen))
        if len(drawn) < len(own):
            continue
        world = list(deck)
        for slot, chosen in drawn:
            world[own_ids[slot]] = chosen
        rest = [left_card for left_card, copies in enumerate(left) for _ in range(copies)]
        if len(rest) != tables.deck_size - next_card:
            continue  # only where the public knowledge contradicts the cards (a partner broke the convention)
        rng.shuffle(rest)
        world[next_card:] = rest
        worlds.append(GameState(config=config, deck=tuple(as_identities(world)), next_card=next_card, hands=view.hands,
                                knowledge=view.knowledge, fireworks=view.fireworks, played=played, discard=discard,
                                clue_tokens=view.clue_tokens, strikes=view.strikes, current_player=view.current_player,
                                remaining=view.remaining, turns=view.turns, history=view.history,
                                terminal=view.terminal, tables=tables))
    return worlds


def roll_out(player: InfoPlayer, world: GameState, first: Action) -> int:
    """[I-search] the score of ``world`` after ``first`` and then every seat playing the
    strategy without the search, each seat starting from ``player``'s public knowledge
    (which every seat holds alike, I-common)."""
    seats = range(world.config.players)
    maker = ViewMaker(world.config, sealed=False)
    players = [player.blueprint_copy(view) for view in maker.views(world, seats)]
    state = apply(world, first)
    while not state.terminal:
        event = state.history[-1]
        views = maker.views(state, seats)
        for copy, view in zip(players, views):
            copy.observe(view, event)
        actor = state.current_player
        state = apply(state, players[actor].act(views[actor]))
    return state.score


def candidates(view: PlayerView, blueprint: Action, own: Sequence[int], board: Board,
               weights: Weights, hint: Hint | None, public_useless: Sequence[int],
               hint_needed: bool) -> list[Action]:
    """[I-search] the moves tried besides the strategy's own (``blueprint``): each play of
    a card that may be playable (private weights), the strategy's hint ``hint`` (None
    without a token), and, when a discard is legal and tells no falsehood (no token, or no
    seat needs a hint: I-no-hint-needed), each discard of a card that does not carry
    answers (I-useless-hat: not one of two or more publicly useless cards)."""
    moves: list[Action] = []
    for slot, mask in enumerate(own):
        if board.possibly(mask, board.playable, weights):
            moves.append(Play(slot))
    if hint is not None:
        moves.append(hint)
    if is_discard_allowed(view.tables, view.clue_tokens) and (view.clue_tokens == 0 or not hint_needed):
        carries = len(public_useless) >= 2
        for slot in range(len(own)):
            if not (carries and slot in public_useless):
                moves.append(Discard(slot))
    return [move for move in moves if move != blueprint]


def choose(player: InfoPlayer, view: PlayerView, blueprint: Action, moves: Sequence[Action], own: Sequence[int],
           weights: Weights, worlds: int, seed: int) -> Action:
    """[I-search] the strategy's move ``blueprint`` unless another of ``moves`` ends
    perfect in at least :data:`MARGIN` more of ``worlds`` worlds; then the one ending
    perfect most often (the higher total score on ties, then the earlier in ``moves``).
    ``own`` and ``weights``: the seat's private sets and unseen copies.

    The strategy's move is first rolled out on worlds // :data:`CHECK_SHARE` worlds; when
    every one of them ends perfect it is kept without trying the others.  A move stops
    being rolled out as soon as it can no longer reach the count it needs."""
    best = view.tables.max_score
    check = sample_worlds(view, own, weights, max(1, worlds // CHECK_SHARE), world_rng(seed, view.turns, 0))
    if not check or all(roll_out(player, world, blueprint) == best for world in check):
        return blueprint
    compared = sample_worlds(view, own, weights, worlds, world_rng(seed, view.turns, 1))
    base = sum(roll_out(player, world, blueprint) == best for world in compared)
    chosen, chosen_key = blueprint, (base + MARGIN, -1)
    for move in moves:
        perfect = total = 0
        for done, world in enumerate(compared):
            if perfect + len(compared) - done < chosen_key[0]:
                break
            score = roll_out(player, world, move)
            perfect += score == best
            total += score
        else:
            if (perfect, total) > chosen_key:
                chosen, chosen_key = move, (perfect, total)
    return chosen
