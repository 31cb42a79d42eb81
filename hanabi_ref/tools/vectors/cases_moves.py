"""Case functions for single moves: hints, discards, plays, errors and the end of a move
[VEC-transition, 2.16-2].

Every transition vector is checked clause by clause by the builder (the knowledge update
of 2a, the pile and draw of 2b/2c, the token and error counts, the turn and R); the
cases add the particular fact each scenario is about, stated from the spec.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from hanabi_ref.engine.actions import Discard, Hint, Play, describe
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.vectors.build import Maker
from hanabi_ref.tools.vectors.cases_setup import SIXTH_SUITS
from hanabi_ref.tools.vectors.model import Run, Vector, expect
from hanabi_ref.tools.vectors.scenario import (
    BLUE,
    GREEN,
    JOHN,
    MARY,
    PURPLE,
    RED,
    SIXTH_HAND,
    YELLOW,
    discarder,
    drive,
    players_of,
    slug,
    start,
    variants_of,
)
from hanabi_ref.engine.tables import tables_for

THIRD: Final = ((1, YELLOW), (1, GREEN), (2, GREEN), (3, RED), (1, BLUE))
HINT_CLAUSES: Final = ("2.16-2a", "2.14", "E-19", "2.16-2-next", "2.16-2-R", "E-9", "2.16-tokens", "2.16-2a-cost")


def is_empty_refused(preset: str) -> bool:
    """[2.16-2a-empty, E-20, P-presets] hle and hanab-live refuse a hint touching no card."""
    return preset != "thesis"


# ------------------------------------------------------------------ 2a


def hint_value(out: Maker) -> Iterator[Vector]:
    """[2.16-2a-value, 2.16-2a-cost, 2.16-2a-empty, E-20, 2.14, E-19] value hints 1..5 to
    John (Example 2.8): a touched card keeps only that value, the others lose it, t drops
    by one; a value John does not hold is an empty hint (legal only in the thesis)."""
    run = start(make_config(2, out.preset), MARY, JOHN)
    held = {value for value, _ in JOHN}
    for value in range(1, 6):
        hint = Hint(1, "value", value)
        if value not in held and is_empty_refused(out.preset):
            yield out.refusal(f"p2-value-{value}", ("2.16-2a-empty", "E-20"), run, hint, "2.16-2a-empty", f"no card of John is a {value}")
            continue
        vector = out.transition(f"p2-value-{value}", (*HINT_CLAUSES, "2.16-2a-value", "2.16-2a-empty", "E-20"), run, hint, f"John is told his {value}s")
        known = vector.data["post"]["knowledge"][1]
        exact = [k["values"] == [value] for k in known]
        expect(exact == [v == value for v, _ in JOHN], "2.16-2a-value: exactly the cards of that value keep only it")
        yield vector
    three = start(make_config(3, out.preset), JOHN, THIRD, MARY)
    yield out.transition("p3-to-seat-2", (*HINT_CLAUSES, "2.16-2a-value"), three, Hint(2, "value", 2), "seat 0 hints seat 2, not its neighbour")
    back = three.then(Hint(2, "value", 3))
    yield out.transition("p3-seat-1-to-seat-0", (*HINT_CLAUSES, "2.16-2a-value"), back, Hint(0, "value", 4), "seat 1 hints seat 0")


def hint_colour(out: Maker) -> Iterator[Vector]:
    """[2.16-2a-suit, V-suit, V-rainbow, V-black, V-6-suits, V-dutch-rainbow, E-24] every
    clue colour of every admitted variant to a hand holding a card of the sixth suit: a
    touched card keeps the suits the colour touches (Rainbow: its own and the rainbow
    suit), an untouched card loses them."""
    for variant in variants_of(out.preset):
        config = make_config(2, out.preset, variant)
        six = config.suit_count == 6
        run = start(config, MARY, SIXTH_HAND if six else JOHN)
        held = {suit for _, suit in (SIXTH_HAND if six else JOHN)}
        for colour in range(len(config.colours)):
            clauses = (*HINT_CLAUSES, "2.16-2a-suit", "V-suit", *SIXTH_SUITS[variant][3])
            hint, label = Hint(1, "colour", colour), f"{slug(variant)}-colour-{colour}"
            touches = colour in held or variant == "Rainbow (6 Suits)"
            if not touches and is_empty_refused(out.preset):
                yield out.refusal(label, (*clauses, "E-20"), run, hint, "2.16-2a-empty", f"{config.colours[colour]} touches no card")
                continue
            vector = out.transition(label, clauses, run, hint, f"{variant}: a {config.colours[colour]} hint")
            if variant == "Rainbow (6 Suits)":
                expect(vector.data["post"]["knowledge"][1][0]["suits"] == sorted({colour, 5}), "V-rainbow: every colour touches the rainbow card")
            yield vector
    if out.preset == "thesis":
        yield from _custom_colours(out)


def _custom_colours(out: Maker) -> Iterator[Vector]:
    """[2.9-composition, V-suit, 2.16-2a-suit] a custom composition: one clue colour per suit."""
    config = make_config(2, composition=[[2, 1], [1, 1], [1, 1]], hand_size=2)
    run = Run.start(config, tables_for(config).canonical_deck)
    for colour in range(3):
        yield out.transition(f"custom-colour-{colour}", (*HINT_CLAUSES, "2.16-2a-suit", "V-suit", "2.9-composition"), run, Hint(1, "colour", colour), "a custom suit's own colour")


def hint_sequence(out: Maker) -> Iterator[Vector]:
    """[2.14, E-19, E-12, 2.14-initial, 2.16-2a-value, 2.16-2a-suit] hints intersect
    (Example 2.8: "4", then "green" leaves John's green 4 known exactly); knowledge
    belongs to the physical card: after a red 1 is played, the drawn red 1 starts from
    Cards(H) while the hinted red 1 keeps its knowledge."""
    run = start(make_config(2, out.preset), MARY, JOHN).then(Hint(1, "value", 4), Hint(0, "value", 2))
    vector = out.transition("example-2.8-green-after-4", (*HINT_CLAUSES, "2.16-2a-suit"), run, Hint(1, "colour", GREEN), "green after 4")
    known = vector.data["post"]["knowledge"][1]
    expect(known[1] == {"suits": [GREEN], "values": [4]}, "2.14: the green 4 is known exactly")
    expect(known[2] == {"suits": [GREEN], "values": [1, 2, 3, 5]}, "2.14: the green 5 is green, not 4")
    yield vector
    twins = ((1, RED), (1, RED), (4, GREEN), (5, GREEN), (4, PURPLE))
    run = start(make_config(2, out.preset), MARY, twins, then=[(1, RED)]).then(Hint(1, "value", 1))
    vector = out.transition("equal-cards-differ", ("E-12", "2.14", "2.14-initial", "2.16-2c-draw", "2.16-2c-success", "R-2", "E-15", "2.13-3"), run, Play(0), "a hinted and a fresh red 1")
    post = vector.data["post"]
    expect(post["hands"][1][0] == post["hands"][1][4] == {"suit": RED, "value": 1}, "2.13-3: two red 1s in one hand")
    expect(post["knowledge"][1][0] != post["knowledge"][1][4], "E-12: equal cards, different knowledge sets")
    yield vector


def hint_refused(out: Maker) -> Iterator[Vector]:
    """[2.16-2a-target, E-4, 2.16-2a-value, 2.16-2a-suit, 2.16-2a-token, E-21, E-11,
    2.16-2] illegal hints are refused naming the clause: one's own hand, a seat that does
    not exist, value 0 or n + 1, a clue colour that does not exist, no token left."""
    config = make_config(2, out.preset)
    run = start(config, MARY, JOHN)
    colours = len(config.colours)
    for label, hint, clause in (
        ("own-hand", Hint(0, "value", 2), "2.16-2a-target"),
        ("no-such-seat", Hint(2, "value", 1), "2.16-2a-target"),
        ("value-0", Hint(1, "value", 0), "2.16-2a-value"),
        ("value-6", Hint(1, "value", 6), "2.16-2a-value"),
        (f"colour-{colours}", Hint(1, "colour", colours), "2.16-2a-suit"),
    ):
        yield out.refusal(label, ("E-4",) if clause == "2.16-2a-target" else (), run, hint, clause, describe(hint))
    rainbow = "Rainbow (6 Suits)"
    if rainbow in variants_of(out.preset):
        six = start(make_config(2, out.preset, rainbow), MARY, SIXTH_HAND)
        yield out.refusal("rainbow-colour-5", ("V-rainbow",), six, Hint(1, "colour", 5), "2.16-2a-suit", "the rainbow suit has no clue colour")
    last = start(make_config(2, out.preset, hints=1), MARY, JOHN).then(Hint(1, "value", 1), Play(0))
    expect(last.state.clue_tokens == 0, "2.16-2a-cost: the only token is spent")
    yield out.refusal("no-token", ("E-21", "E-11", "2.9-t0"), last, Hint(1, "value", 4), "2.16-2a-token", "t = 0")
    if out.preset == "thesis":
        own = start(make_config(2, self_hints=True), MARY, JOHN)
        yield out.transition("self-hint-option", (*HINT_CLAUSES, "2.16-2a-target", "E-4", "2.16-2a-value", "P-options"), own, Hint(0, "value", 2), "self_hints = true")


# ------------------------------------------------------------------ 2b


DISCARD_CLAUSES: Final = ("2.16-2b-discard", "2.16-2b-draw", "2.16-2b-token", "2.13-1", "2.13-2", "E-23", "E-12", "R-2", "E-15", "2.14-initial", "2.16-tokens")


def discard(out: Maker) -> Iterator[Vector]:
    """[2.16-2b, 2.16-2b-discard, 2.16-2b-draw, 2.16-2b-token, E-2, R-2, E-23] a discard
    appends the card to D, draws the top card into the last slot with K = Cards(H) and
    regains a token if t < t0; at t = t0 it is legal (nothing gained) only in the thesis."""
    config = make_config(2, out.preset)
    run = start(config, MARY, JOHN, then=[(1, YELLOW), (1, GREEN)])
    if out.preset == "thesis":
        vector = out.transition("at-t0", (*DISCARD_CLAUSES, "E-2"), run, Discard(0), "t = t0: legal, no token")
        expect(vector.data["post"]["clue_tokens"] == 8, "2.16-2b-token: nothing gained at t = t0")
        yield vector
    else:
        yield out.refusal("at-t0", ("E-2", "2.16-2b-token"), run, Discard(0), "E-2", "t = t0: no discard")
    hinted = run.then(Hint(1, "value", 1))
    for slot in (0, 2, 4):
        vector = out.transition(f"slot-{slot}-below-t0", DISCARD_CLAUSES, hinted, Discard(slot), f"discard slot {slot} at t = 7")
        post = vector.data["post"]
        expect(post["clue_tokens"] == 8 and post["hands"][1][-1] == {"suit": YELLOW, "value": 1}, "2.16-2b-draw: the yellow 1 on top is drawn last")
        yield vector
    lower = hinted.then(Hint(0, "value", 2))
    yield out.transition("t6-to-t7", DISCARD_CLAUSES, lower, Discard(0), "t = 6 becomes 7")
    yield out.refusal("no-such-slot", ("2.16-2b",), hinted, Discard(5), "2.16-2b", "slot h does not exist")
    if out.preset == "thesis":
        first = start(make_config(2, draw_position="newest-first"), MARY, JOHN, then=[(1, YELLOW)]).then(Hint(1, "value", 1))
        vector = out.transition("newest-first", (*DISCARD_CLAUSES, "P-options"), first, Discard(0), "the drawn card goes to slot 0")
        expect(vector.data["post"]["hands"][1][0] == {"suit": YELLOW, "value": 1}, "R-2: newest-first draws into slot 0")
        yield vector


# ------------------------------------------------------------------ 2c


PLAY_CLAUSES: Final = ("2.16-2c-success", "2.16-2c-draw", "2.13-4", "E-14", "E-3", "E-13", "2.16-tokens")
RUN_OF_RED: Final = tuple((value, RED) for value in range(1, 6))
RUN_OF_YELLOW: Final = tuple((value, YELLOW) for value in range(1, 5)) + ((1, BLUE),)


def play(out: Maker) -> Iterator[Vector]:
    """[2.16-2c, 2.16-2c-success, 2.16-2c-fail, E-3, E-10, E-25, E-14] a 1 on an empty
    field starts it (the purple 1 starts purple, value first); a green 4 on an empty field
    fails: to D, f + 1, F and t unchanged; a slot that does not exist is refused."""
    run = start(make_config(2, out.preset), JOHN, MARY)
    vector = out.transition("red-1", (*PLAY_CLAUSES, "E-25"), run, Play(0), "a 1 on an empty field")
    expect(vector.data["post"]["fireworks"] == [1, 0, 0, 0, 0], "2.16-2c-success: F[red] = (1)")
    yield vector
    vector = out.transition("purple-1", (*PLAY_CLAUSES, "E-25"), run, Play(3), "value first: the purple 1")
    expect(vector.data["post"]["fireworks"] == [0, 0, 0, 0, 1], "E-3: the purple field")
    yield vector
    vector = out.transition("green-4-fails", ("2.16-2c-fail", "E-10", "2.16-2c-draw", "2.16-errors"), run, Play(1), "a 4 on an empty field")
    expect(vector.data["post"]["strikes"] == 1 and vector.data["post"]["discard"] == [{"suit": GREEN, "value": 4}], "2.16-2c-fail")
    yield vector
    yield out.refusal("no-such-slot", ("2.16-2c",), run, Play(5), "2.16-2c", "slot h does not exist")


def play_five(out: Maker) -> Iterator[Vector]:
    """[2.16-2c-success, 2.16-2c-five, 2.16-tokens] red 1..5 played in turn: the 2 extends
    the field; completing the suit regains a token when t < t0 and nothing at t = t0."""
    config = make_config(2, out.preset)
    plays = start(config, RUN_OF_RED, RUN_OF_YELLOW)
    for _ in range(4):
        plays = plays.then(Play(0), Play(0))
    vector = out.transition("five-at-t0", (*PLAY_CLAUSES, "2.16-2c-five"), plays, Play(0), "the red 5 with t = t0")
    expect(vector.data["post"]["clue_tokens"] == 8 and vector.data["post"]["fireworks"][RED] == 5, "2.16-2c-five: nothing at t0")
    yield vector
    hints = start(config, RUN_OF_RED, RUN_OF_YELLOW)
    yield out.transition("two-extends", PLAY_CLAUSES, hints.then(Play(0), Hint(0, "value", 5)), Play(0), "the red 2 on the red 1")
    for _ in range(4):
        hints = hints.then(Play(0), Hint(0, "value", 5))
    vector = out.transition("five-below-t0", (*PLAY_CLAUSES, "2.16-2c-five"), hints, Play(0), "the red 5 with t = 4")
    expect(vector.data["post"]["clue_tokens"] == 5, "2.16-2c-five: t := t + 1 below t0")
    yield vector


# ------------------------------------------------------------------ errors and the strikeout


STRIKE_HANDS: Final = (
    ((1, RED), (3, YELLOW), (4, YELLOW), (3, GREEN), (4, GREEN)),
    ((3, BLUE), (4, BLUE), (3, PURPLE), (4, PURPLE), (3, RED)),
)
STRIKE_CLAUSES: Final = ("2.16-2c-fail", "2.16-2c-strikeout", "2.16-3-strikeout", "2.16-3", "2.16-errors", "R-3")


def strikeout(out: Maker) -> Iterator[Vector]:
    """[2.16-2c-strikeout, 2.16-3-strikeout, 2.16-errors, R-3, 2.16-2, 2.16-3] the third
    error (f = f0 = 3) sets R := -1 and stops the game with score 0; the move draws its
    card except under hle (R-3); afterwards every action is refused."""
    config = make_config(2, out.preset)
    run = start(config, *STRIKE_HANDS).then(Play(0), Play(0))
    yield out.transition("second-error", STRIKE_CLAUSES, run, Play(0), "f = 2: the game goes on")
    run = run.then(Play(0))
    vector = out.transition("third-error", STRIKE_CLAUSES, run, Play(0), "f = f0: R = -1, score 0")
    pre, post = vector.data["pre"], vector.data["post"]
    expect((post["remaining"], post["terminal"], post["score"]) == (-1, True, 0), "2.16-3-strikeout: stop with 0")
    drew = post["deck_size"] < pre["deck_size"]
    expect(drew == (out.preset != "hle"), "R-3: the final move draws except under hle")
    yield vector
    over = run.then(Play(0))
    yield out.refusal("hint-after-stop", ("2.16-3",), over, Hint(1, "value", 4), "2.16-3", "the game is over")
    yield out.refusal("play-after-stop", ("2.16-3",), over, Play(0), "2.16-3", "the game is over")
    unbounded = start(make_config(2, out.preset, errors=None), *STRIKE_HANDS).then(Play(0), Play(0), Play(0))
    vector = out.transition("unbounded-errors", ("2.16-2c-strikeout", "2.9-f0", "E-18", "2.16-errors"), unbounded, Play(0), "f0 = null")
    expect(not vector.data["post"]["terminal"] and vector.data["post"]["remaining"] is None, "2.16-2c-strikeout: never with f0 = infinity")
    yield vector
    if out.preset == "thesis":
        fireworks = start(make_config(2, strikeout_score="fireworks"), *STRIKE_HANDS).then(Play(0), Play(0), Play(0))
        vector = out.transition("fireworks-score", (*STRIKE_CLAUSES, "P-options"), fireworks, Play(0), "strikeout_score = fireworks")
        expect(vector.data["post"]["score"] == 1, "2.16-3-strikeout: the fireworks' sum")
        yield vector


# ------------------------------------------------------------------ the end of a move


def turns(out: Maker) -> Iterator[Vector]:
    """[2.16-2-next, E-7, E-9, 2.16-2-R] the turn passes to the next seat, seat 0 after
    seat p - 1 (with one player the same seat again); the move counter counts moves."""
    for players in sorted({players_of(out.preset)[0], players_of(out.preset)[-1]}):
        config = make_config(players, out.preset)
        run = drive(Run.start(config, deck_from_seed(config, 40 + players)), discarder, lambda r: len(r.actions) == players - 1 + players)
        vector = out.transition(f"p{players}-wrap", ("2.16-2-next", "E-7", "E-9", "2.16-2-R"), run, discarder(run.state), f"seat {players - 1} moves, then seat 0")
        expect(vector.data["post"]["current"] == 0 and vector.data["post"]["turns"] == 2 * players, "2.16-2-next: seat 0 after seat p - 1")
        yield vector


CASES: Final = (
    hint_value, hint_colour, hint_sequence, hint_refused, discard, play, play_five, strikeout, turns,
)
"""The case functions of this module, in the order of generation [VEC-cases]."""
