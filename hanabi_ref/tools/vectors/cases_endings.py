"""Case functions for the end of a game, whole games and player views [VEC-transition,
VEC-game, VEC-view, 2.16-3].

The endings: the last round after the stack runs out (2.16-3-last-round, 2.16-3-R0),
the maximum score (2.16-3-max), no more points possible (R-1, hanab-live), an empty
stack right after the deal (E-6), and the strikeout (in ``cases_moves``); each is
reached by legal play and shown as single moves and as whole games.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.cards import value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, is_nothing_playable_left, stop_clause
from hanabi_ref.tools.vectors.build import Maker
from hanabi_ref.tools.vectors.checks import reachable_score
from hanabi_ref.tools.vectors.model import CaseFailure, Run, Vector, expect
from hanabi_ref.tools.vectors.scenario import (
    JOHN,
    MARY,
    careful_rule,
    drive,
    drive_to_end,
    greedy,
    is_playable,
    players_of,
    random_rule,
    runs_first,
    slug,
    start,
    thrifty,
    variants_of,
)
from hanabi_ref.engine.tables import tables_for

LAST_ROUND_CLAUSES: Final = ("2.16-3-last-round", "2.16-2-R", "2.16-3", "E-5", "2.13-hand-size", "2.16-2b-draw", "2.16-2c-draw")


# ------------------------------------------------------------------ the last round


def last_round(out: Maker) -> Iterator[Vector]:
    """[2.16-3-last-round, 2.16-2-R, 2.16-3-R0, E-5, E-13, 2.13-hand-size] the move that
    draws the last card sets R := p; each player, the drawer included, then moves once
    more, drawing nothing (its hand keeps h - 1 cards); the p-th of them brings R to 0 and
    the game stops with the sum of the field heights."""
    for players in (2, 3):
        config = make_config(players, out.preset)
        deck = deck_from_seed(config, 50 + players)
        run = drive(Run.start(config, deck), careful_rule(players), lambda r: r.state.next_card == len(r.deck) - 1)
        expect(not run.state.terminal, "2.16-3: the game reaches its last card")
        for index in range(players + 1):
            # [2.16-2b-draw] the first of these moves must draw the last card.
            action = drawing_move(run.state) if index == 0 else careful_rule(100 + index)(run.state)
            vector = out.transition(f"p{players}-move-{index}", (*LAST_ROUND_CLAUSES, "2.16-3-R0", "E-13"), run, action, _last_round_text(index, players))
            post = vector.data["post"]
            expect(post["remaining"] == players - index or post["terminal"], "2.16-3-last-round: R = p after the last draw, then p - 1, ...")
            expect(post["terminal"] == (index == players), "2.16-3-R0: the game stops when R reaches 0")
            yield vector
            run = run.then(action)
        expect(run.state.terminal and vector.data["post"]["score"] == sum(vector.data["post"]["fireworks"]), "2.16-3-R0: the score")


def drawing_move(state: GameState) -> Action:
    """A move that draws: a playable play, else a discard, else a play of slot 0."""
    legal = legal_actions(state)
    plays = [a for a in legal if isinstance(a, Play) and is_playable(state, a.slot)]
    discards = [a for a in legal if isinstance(a, Discard)]
    return (plays or discards or [Play(0)])[0]


def _last_round_text(index: int, players: int) -> str:
    if index == 0:
        return "the last card is drawn: R := p"
    return f"last round, move {index} of {players}"


# ------------------------------------------------------------------ the maximum score


def max_score(out: Maker) -> Iterator[Vector]:
    """[2.16-3-max, 2.16-2c-five, R-3] with one copy of every card on top of the stack,
    open play completes every suit while the stack still has cards: the completing play
    stops the game with n*k; it draws its card except under hle (R-3).  The whole
    perfect game is a vector too (No Variant)."""
    for variant in variants_of(out.preset)[:2]:
        config = make_config(2, out.preset, variant)
        run = drive(Run.start(config, runs_first(config)), greedy, lambda r: sum(r.state.fireworks) == tables_for(config).max_score - 1)
        action = greedy(run.state)
        vector = out.transition(f"{slug(variant)}-final-play", ("2.16-3-max", "2.16-2c-five", "R-3", "2.16-3"), run, action, "the last card of the last suit")
        pre, post = vector.data["pre"], vector.data["post"]
        expect(post["terminal"] and post["score"] == config.values * config.suit_count, "2.16-3-max: stop with n*k")
        expect(pre["deck_size"] > 0 and (post["deck_size"] < pre["deck_size"]) == (out.preset != "hle"), "R-3: the final draw")
        yield vector
        if variant == "No Variant":
            yield out.game(f"{slug(variant)}-p2-perfect", ("2.16-3-max", "R-3"), run.then(action), "a perfect game")


# ------------------------------------------------------------------ no more points possible


def one_discarder(state: GameState) -> Action:
    """Two hints, then two discards of 1s, in turn; a hint instead when no 1 is held."""
    legal = legal_actions(state)
    if state.turns % 4 >= 2:
        deck = state.deck
        ones = [a for a in legal if isinstance(a, Discard) and value_of(deck[state.hands[state.current_player][a.slot]], state.config.values) == 1]
        if ones:
            return ones[0]
    return next(a for a in legal if isinstance(a, Hint))


def ones_first(config: GameConfig) -> tuple[int, ...]:
    """A deck with all 1s on top (suit by suit), then the rest in canonical order."""
    tables = tables_for(config)
    ones = [card for card in tables.canonical_deck if value_of(card, config.values) == 1]
    rest = [card for card in tables.canonical_deck if value_of(card, config.values) != 1]
    return tuple(ones + rest)


def early_end(out: Maker) -> Iterator[Vector]:
    """[R-1, R-3, 2.16-3] when every 1 has been discarded no point can be scored: under
    hanab-live (end_when_no_points_possible) the game stops at once with the current score
    (the move still draws), under thesis and hle it goes on; while a point is still
    possible no preset stops."""
    config = make_config(2, out.preset)
    run = Run.start(config, ones_first(config))
    run = drive(run, one_discarder, lambda r: len(r.state.discard) == 13 and isinstance(one_discarder(r.state), Discard))
    vector = out.transition("one-1-left", ("R-1", "2.16-3"), run, one_discarder(run.state), "the fourteenth 1 is discarded")
    expect(reachable_score(config, vector.data["post"]) == 5 and not vector.data["post"]["terminal"], "R-1: a suit can still reach 5")
    yield vector
    run = drive(run.then(one_discarder(run.state)), one_discarder, lambda r: isinstance(one_discarder(r.state), Discard))
    action = one_discarder(run.state)
    vector = out.transition("last-one", ("R-1", "R-3", "2.16-3"), run, action, "the fifteenth 1 is discarded")
    post = vector.data["post"]
    expect(reachable_score(config, post) == 0 == post["score"], "R-1: nothing more can be scored")
    expect(post["terminal"] == (out.preset == "hanab-live"), "R-1: only hanab-live stops")
    yield vector
    if out.preset == "hanab-live":
        yield out.game("p2-no-points-left", ("R-1", "R-3"), run.then(action), "every 1 discarded")
    elif out.preset == "thesis":
        option = make_config(2, out.preset, end_when_no_points_possible=True)
        same = Run.start(option, run.deck).then(*run.actions)
        vector = out.transition("last-one-with-option", ("R-1", "P-options"), same, action, "the same move with the R-1 option")
        expect(vector.data["post"]["terminal"], "R-1: the option stops the game")
        yield vector


# ------------------------------------------------------------------ nothing left to play


def nothing_playable_move(config: GameConfig) -> Run:
    """The first careful game of 2 players (seeds 0, 1, ...) in which a move of the last
    round leaves no card that a stack may take in the hand of a seat still to move, while
    no other clause of step 3 stops it: the run up to that move, which is its last action."""
    tables = tables_for(config)
    for seed in range(200):
        run = Run.start(config, deck_from_seed(config, seed))
        rule = careful_rule(seed)
        while not run.state.terminal:
            after = run.then(rule(run.state))
            state = after.state
            if stop_clause(tables, state.deck, state.fireworks, state.discard, state.remaining, state.played) is None and \
                    is_nothing_playable_left(tables, state.deck, state.fireworks, state.played, state.hands, state.current_player,
                                             state.remaining):
                return after
            run = after
    raise CaseFailure("R-4: no careful game of seeds 0-199 reaches a last round with nothing left to play")


def nothing_playable(out: Maker) -> Iterator[Vector]:
    """[R-4, HL-end, 2.16-3] in the last round, once nobody who still moves holds a card
    a stack may take, the hanab-live preset (end_when_nothing_playable) stops the game
    with the current score; thesis and hle play the last round out.  Under thesis the
    same move with the option stops too."""
    config = make_config(2, out.preset)
    found = nothing_playable_move(make_config(2, out.preset, end_when_nothing_playable=True))
    run = Run.start(config, found.deck).then(*found.actions[:-1])
    action = found.actions[-1]
    vector = out.transition("p2-nothing-playable", ("R-4", "2.16-3"), run, action,
                            "the last round leaves no playable card with a seat still to move")
    post = vector.data["post"]
    expect(post["remaining"] is not None and post["remaining"] > 0, "R-4: the last round is on")
    expect(post["terminal"] == (out.preset == "hanab-live"), "R-4: only hanab-live stops")
    yield vector
    if out.preset == "hanab-live":
        yield out.game("p2-nothing-playable-game", ("R-4",), run.then(action), "a game ended with nothing left to play")
    elif out.preset == "thesis":
        option = make_config(2, out.preset, end_when_nothing_playable=True)
        same = Run.start(option, run.deck).then(*run.actions)
        vector = out.transition("p2-nothing-playable-with-option", ("R-4", "P-options"), same, action,
                                "the same move with the R-4 option")
        expect(vector.data["post"]["terminal"], "R-4: the option stops the game")
        yield vector


# ------------------------------------------------------------------ an empty stack after the deal


def empty_deal_games(out: Maker) -> Iterator[Vector]:
    """[E-6, 2.16-3-last-round, 2.16-3-R0, 2.13-hand-size, E-5] when the deal takes the
    whole stack the game lasts p moves (Example 3.12: one move); under the literal reading
    (initial_stop_check = false, thesis only here) the first player moves twice and ends
    with h - 2 cards."""
    clauses = ("E-6", "2.16-3-last-round", "2.16-3-R0", "2.13-hand-size", "E-5")
    if out.preset == "thesis":
        config = make_config(1, composition=[[1, 1, 1, 1]], hand_size=4)
        run = Run.start(config, tables_for(config).canonical_deck)
        yield out.transition("example-3.12-move", clauses, run, Play(0), "the only move of Example 3.12")
        yield out.game("example-3.12", clauses, run.then(Play(0)), "Example 3.12: one move")
        literal = make_config(1, composition=[[1, 1, 1, 1]], hand_size=4, initial_stop_check=False)
        game = Run.start(literal, tables_for(literal).canonical_deck).then(Play(0), Play(0))
        expect(len(game.state.hands[0]) == 2 and game.state.terminal, "2.13-hand-size: h - 2 under the literal reading")
        yield out.game("example-3.12-literal", (*clauses, "P-options"), game, "the literal reading: two moves")
        return
    config = make_config(2, out.preset, hand_size=25)
    run = drive_to_end(Run.start(config, deck_from_seed(config, 6)), greedy)
    expect(len(run.actions) == 2, "E-6: p moves when N = p*h")
    yield out.game("p2-h25", clauses, run, "N = p*h: two moves")


# ------------------------------------------------------------------ whole games


GAME_CLAUSES: Final = ("2.16", "2.16-2", "2.16-actions", "2.13-conservation", "2.16-tokens", "2.16-errors", "2.14-sound")


def _ending(state: GameState) -> str:
    """Which clause of step 3 stopped the game [2.16-3]."""
    if state.remaining == -1:
        return "2.16-3-strikeout"
    if state.remaining == 0:
        return "2.16-3-R0"
    if sum(state.fireworks) == state.tables.max_score:
        return "2.16-3-max"
    return "R-1"


def games(out: Maker) -> Iterator[Vector]:
    """[2.16, 2.16-3, PR-length, PR-legal-action] whole games for every admitted player
    count: open play (to the last round or the maximum) and random play (usually
    a strikeout); random games in the other admitted variants."""
    for players in players_of(out.preset):
        config = make_config(players, out.preset)
        for label, rule, seed in (("open", thrifty, 1), ("random", random_rule(players), 2)):
            deck_seed = 1000 * players + seed
            run = drive_to_end(Run.start(config, deck_from_seed(config, deck_seed)), rule)
            ending = _ending(run.state)
            yield out.game(f"p{players}-{label}", (*GAME_CLAUSES, ending), run, f"{label} play, {players} players, ends by {ending}", seed=deck_seed)
    for variant in variants_of(out.preset)[1:]:
        config = make_config(3, out.preset, variant)
        run = drive_to_end(Run.start(config, deck_from_seed(config, 77)), random_rule(77))
        yield out.game(f"p3-{slug(variant)}-random", (*GAME_CLAUSES, _ending(run.state), "V-suit"), run, f"{variant}", seed=77)
    if out.preset == "thesis":
        yield from _thesis_option_games(out)


def _thesis_option_games(out: Maker) -> Iterator[Vector]:
    """[2.9-f0, E-18, 2.16-3-strikeout, 2.9-composition, P-options] games under options:
    unbounded errors (random play in three classic suits runs past f = 3 to the last
    round), a strikeout scored by the fireworks, and a small custom composition."""
    unbounded = _random_game(make_config(2, composition=[[3, 2, 2, 2, 1]] * 3, errors=None))
    expect(unbounded.state.strikes > 3 and unbounded.state.remaining == 0, "2.16-2c-strikeout: no strikeout with f0 = infinity")
    yield out.game("unbounded-errors", (*GAME_CLAUSES, "2.16-3-R0", "2.9-f0", "E-18", "2.16-2c-strikeout"), unbounded, "f0 = null", seed=9)
    fireworks = _random_game(make_config(2, strikeout_score="fireworks"))
    expect(fireworks.state.remaining == -1, "2.16-3-strikeout: this game ends by the last allowed error")
    yield out.game("fireworks-strikeout", (*GAME_CLAUSES, "2.16-3-strikeout", "P-options"), fireworks, "strikeout_score = fireworks", seed=9)
    custom = _random_game(make_config(2, composition=[[2, 1, 1], [1, 1, 1]], hand_size=2, hints=2, errors=2))
    yield out.game("custom-composition", (*GAME_CLAUSES, _ending(custom.state), "2.9-composition", "2.9-k", "2.9-n", "2.9-t0"), custom, "n = 3, k = 2, t0 = 2, f0 = 2", seed=9)


def _random_game(config: GameConfig) -> Run:
    """A whole game of random legal moves on the deck of seed 9 [D-seed]."""
    return drive_to_end(Run.start(config, deck_from_seed(config, 9)), random_rule(9))


# ------------------------------------------------------------------ views


def views(out: Maker) -> Iterator[Vector]:
    """[2.17-view, 2.17-history, E-8] what each seat may know after a hint, a play, a
    misplay and a discard: every hand's card ids, the others' identities but not its own,
    every knowledge set, the stack's size, the piles, t, f, R, the public history, and
    for the seat to move its legal actions."""
    clauses = ("2.17-view", "2.17-history", "E-8")
    run = start(make_config(2, out.preset), MARY, JOHN).then(Hint(1, "value", 1), Play(0), Play(0), Discard(0))
    for seat in range(2):
        yield out.view(f"p2-seat-{seat}", clauses, run, seat, f"seat {seat} after four moves")
    config = make_config(3, out.preset)
    run = drive(Run.start(config, deck_from_seed(config, 12)), careful_rule(12), lambda r: len(r.actions) == 7)
    for seat in range(3):
        yield out.view(f"p3-seat-{seat}", clauses, run, seat, f"seat {seat} after seven moves")
    over = drive_to_end(run, random_rule(13))
    yield out.view("p3-game-over", clauses, over, 0, "after the game stopped: no legal actions")


CASES: Final = (last_round, max_score, early_end, nothing_playable, empty_deal_games, games, views)
"""The case functions of this module, in the order of generation [VEC-cases]."""
