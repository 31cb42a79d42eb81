"""Case functions for the hanab.live variants that change what a play or a discard does:
orange suits and Up or Down [VEC-variants, VAR-engine-orange, VAR-engine-up-or-down].

Every expected value is transcribed from spec/variants.md: the suits, copies and clue
colours of each configuration, which slots a clue touches, and what each move does to
the fields, the discard pile, t and f.  The builder checks every move with
:mod:`hanabi_ref.tools.vectors.checks`, which reads VAR-engine-orange (a play of an orange card
is a discard, its discard a play) and VAR-engine-up-or-down (a stack must be a start of
1-5, 5-1, START 2-5 or START 4-1) from the clauses' text.  The moves are shown under
``hanab-live``; ``hle``, which admits No Variant only, refuses each name, and ``thesis``
resolves it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.show import touched_slots as show_touched_slots
from hanabi_ref.tools.vectors.build import Maker
from hanabi_ref.tools.vectors.cases_deck_plays import first_hint
from hanabi_ref.tools.vectors.cases_variants import CLASSIC, DARK, RYGB, RYGBP, Family, family_config, family_slug, own
from hanabi_ref.tools.vectors.model import Run, Vector, expect
from hanabi_ref.tools.vectors.scenario import BLUE, GREEN, PURPLE, RED, YELLOW, Card, start

PRESET: Final = "hanab-live"

# ------------------------------------------------------------------ the families, transcribed

ORANGE_CLAUSES: Final = ("VAR-orange", "VAR-engine-orange", "VAR-own-colour")
THREE_RED, THREE_BLUE, ORANGE = 0, 1, 2  # the suits of Orange (3 Suits): Red, Blue, Orange
DARK_ORANGE: Final = 5  # Dark Orange (6 Suits): the five suits of No Variant, then Dark Orange
ORANGE_FAMILIES: Final = (
    Family("Orange (3 Suits)", ("Red", "Blue", "Orange"), (CLASSIC,) * 3, ("Red", "Blue", "Orange"), own(3), 30,
           (1, 2, 3, 4, 5), ("VAR-single-suit", *ORANGE_CLAUSES), ()),
    Family("Dark Orange (6 Suits)", (*RYGBP, "Dark Orange"), (CLASSIC,) * 5 + (DARK,), (*RYGBP, "Orange"), own(6), 55,
           (1, 2, 3, 4, 5), ("VAR-single-suit", "VAR-dark", *ORANGE_CLAUSES), ()),
)

START: Final = 6  # [VAR-engine-up-or-down] value 6 is the START card
UP_OR_DOWN: Final = (1, 2, 2, 2, 1, 1)  # [VAR-up-or-down] one 1, two each of 2-4, one 5, one START
UP_OR_DOWN_DARK: Final = (1, 1, 1, 1, 1, 1)  # a dark suit: one of each, and one START
UP_OR_DOWN_CLAUSES: Final = ("VAR-up-or-down", "VAR-engine-up-or-down", "VAR-rules")
PINK: Final = 4  # Up or Down & Pink: Red, Yellow, Green, Blue, Pink
UP_OR_DOWN_FAMILIES: Final = (
    Family("Up or Down (5 Suits)", RYGBP, (UP_OR_DOWN,) * 5, RYGBP, own(5), 45, (1, 2, 3, 4, 5), UP_OR_DOWN_CLAUSES, ()),
    Family("Up or Down & Pink (5 Suits)", (*RYGB, "Pink"), (UP_OR_DOWN,) * 5, (*RYGB, "Pink"), own(5), 45, (1, 2, 3, 4, 5),
           (*UP_OR_DOWN_CLAUSES, "VAR-all-ranks", "VAR-own-colour"), ()),
    Family("Up or Down & Black (5 Suits)", (*RYGB, "Black"), (UP_OR_DOWN,) * 4 + (UP_OR_DOWN_DARK,), (*RYGB, "Black"), own(5), 42,
           (1, 2, 3, 4, 5), (*UP_OR_DOWN_CLAUSES, "VAR-dark", "VAR-own-colour"), ()),
)


def configs(out: Maker, families: Sequence[Family], values: int) -> Iterator[Vector]:
    """[VAR-engine, VAR-counts, VAR-max-score] each name resolves to its suits, copies,
    clue colours, N and ``values`` (n) under thesis and hanab-live; hle refuses it."""
    for family in families:
        if out.preset == "hle":
            given = {"preset": out.preset, "players": 2, "variant": family.name}
            yield out.config(family_slug(family.name), ("P-presets", "VAR-engine", *family.clauses), given,
                             f"hle admits No Variant only, not {family.name}", "$.variant")
            continue
        vector = family_config(out, family)
        expect(vector.data["derived"]["values"] == values, f"VAR-engine-up-or-down: n = {values}")
        yield vector


def touched_slots(run: Run, hint: Hint) -> tuple[int, ...]:
    """The target's slots the hint touched, from the move's record [2.17-history]."""
    return tuple(show_touched_slots(run.state.hands[hint.target], run.then(hint).state.history[-1].touched))


def outcome(run: Run, action: Action) -> bool | None:
    """The success value the move's record gives [VAR-engine-orange, 2.17-history]."""
    return run.then(action).state.history[-1].success


# ------------------------------------------------------------------ orange


def orange_suits(out: Maker) -> Iterator[Vector]:
    """[VAR-orange, VAR-engine-orange, E-2] under hanab-live: an orange
    card played is discarded (to D, a token if t < t0, no error, no success value);
    discarded, it is played (a 1 starts its field, a 3 on an empty field is an error, a
    5 completes it and regains a token); with an orange suit a discard is legal at
    t = t0 (another card's discard then gains nothing); the Orange clue touches the
    orange cards (Dark Orange)."""
    yield from configs(out, ORANGE_FAMILIES, 5)
    if out.preset != PRESET:
        return
    yield from _orange_moves(out)
    yield from _orange_five(out)
    yield from _dark_orange(out)


ORANGE_HANDS: Final[tuple[tuple[Card, ...], ...]] = (
    ((1, ORANGE), (3, ORANGE), (2, THREE_RED), (1, THREE_RED), (1, THREE_BLUE)),
    ((1, ORANGE), (2, ORANGE), (4, ORANGE), (1, THREE_BLUE), (2, THREE_BLUE)),
)


def _orange_moves(out: Maker) -> Iterator[Vector]:
    """Orange (3 Suits): discards at t = t0 of an orange 1, an orange 3 and a red 2; the
    play of an orange 1 at t = 6."""
    config = make_config(2, PRESET, "Orange (3 Suits)")
    run = start(config, *ORANGE_HANDS)
    clauses = (*ORANGE_CLAUSES, "E-2", "2.16-2b-token")
    vector = out.transition("discard-orange-1-at-t0", (*clauses, "2.16-2c-success", "E-25"), run, Discard(0), "the orange 1 discarded is played: orange 1 starts its field")
    post = vector.data["post"]
    expect(post["fireworks"] == [0, 0, 1] and post["discard"] == [] and post["clue_tokens"] == 8, "VAR-engine-orange: a discarded orange 1 is played")
    expect(outcome(run, Discard(0)) is True, "VAR-engine-orange: the record has the play's success")
    yield vector
    vector = out.transition("discard-orange-3-fails", (*clauses, "2.16-2c-fail", "2.16-errors"), run, Discard(1), "the orange 3 discarded is played on an empty field: an error")
    post = vector.data["post"]
    expect(post["strikes"] == 1 and post["discard"] == [{"suit": ORANGE, "value": 3}] and post["fireworks"] == [0, 0, 0], "VAR-engine-orange: a failed play")
    expect(outcome(run, Discard(1)) is False, "VAR-engine-orange: the record has the play's failure")
    yield vector
    vector = out.transition("discard-red-at-t0", clauses, run, Discard(2), "with an orange suit a discard is legal at t = t0; a red 2 gains nothing")
    post = vector.data["post"]
    expect(post["discard"] == [{"suit": THREE_RED, "value": 2}] and post["clue_tokens"] == 8, "VAR-engine-orange: E-2 lifted, nothing gained")
    yield vector
    hinted = run.then(Hint(1, "colour", ORANGE), Hint(0, "colour", ORANGE))
    vector = out.transition("play-orange-1", (*ORANGE_CLAUSES, "2.16-2b-discard", "2.16-2b-token"), hinted, Play(0), "the orange 1 played is discarded: to D, t := t + 1, no error")
    pre, post = vector.data["pre"], vector.data["post"]
    expect(post["discard"] == [{"suit": ORANGE, "value": 1}] and post["fireworks"] == pre["fireworks"], "VAR-engine-orange: a played orange card is discarded")
    expect((pre["clue_tokens"], post["clue_tokens"], post["strikes"]) == (6, 7, 0), "VAR-engine-orange: t := t + 1, no error")
    expect(outcome(hinted, Play(0)) is None, "VAR-engine-orange: a played orange card has no success value")
    yield vector


def _orange_five(out: Maker) -> Iterator[Vector]:
    """Orange (3 Suits): seat 0 discards its orange 1 to 5 in turn while seat 1 hints; the
    orange 5 completes the field and regains a token."""
    config = make_config(2, PRESET, "Orange (3 Suits)")
    others = ((1, THREE_RED), (2, THREE_RED), (1, THREE_BLUE), (2, THREE_BLUE), (3, THREE_BLUE))
    run = start(config, tuple((value, ORANGE) for value in range(1, 6)), others)
    for _ in range(4):
        run = run.then(Discard(0))
        run = run.then(first_hint(run))
    vector = out.transition("discard-orange-5", (*ORANGE_CLAUSES, "2.16-2c-success", "2.16-2c-five"), run, Discard(0), "the orange 5 discarded is played: the field is complete, t := t + 1")
    pre, post = vector.data["pre"], vector.data["post"]
    expect(pre["fireworks"][ORANGE] == 4 and post["fireworks"][ORANGE] == 5, "VAR-engine-orange: the 5 completes the orange field")
    expect(post["clue_tokens"] == pre["clue_tokens"] + 1 == 5, "2.16-2c-five: a completed field regains a token")
    yield vector


def _dark_orange(out: Maker) -> Iterator[Vector]:
    """Dark Orange (6 Suits): the Orange clue touches the dark orange cards; its only 5
    played is discarded (no error)."""
    config = make_config(2, PRESET, "Dark Orange (6 Suits)")
    hands = (((1, DARK_ORANGE), (5, DARK_ORANGE), (2, RED), (1, RED), (1, YELLOW)),
             ((1, GREEN), (2, GREEN), (1, BLUE), (2, BLUE), (3, PURPLE)))
    run = start(config, *hands)
    clauses = (*ORANGE_CLAUSES, "VAR-dark")
    hinted = run.then(Hint(1, "value", 1))
    hint = Hint(0, "colour", DARK_ORANGE)
    vector = out.transition("dark-orange-clue", ("VAR-orange", "VAR-own-colour", "VAR-touch", "VAR-engine-masks", "2.16-2a-suit", "2.14"), hinted, hint, "the Orange clue touches the dark orange 1 and 5")
    expect(touched_slots(hinted, hint) == (0, 1), "VAR-orange: Dark Orange is touched by the Orange clue")
    yield vector
    played = hinted.then(hint)
    vector = out.transition("dark-orange-play-5", (*clauses, "2.16-2b-discard", "2.16-2b-token"), played, Play(1), "the only dark orange 5 played is discarded: t := t + 1, no error")
    post = vector.data["post"]
    expect(post["discard"] == [{"suit": DARK_ORANGE, "value": 5}] and (post["clue_tokens"], post["strikes"]) == (7, 0), "VAR-engine-orange: discarded")
    expect(not post["terminal"], "R-1: points are still possible")
    yield vector


# ------------------------------------------------------------------ Up or Down


def up_or_down(out: Maker) -> Iterator[Vector]:
    """[VAR-up-or-down, VAR-engine-up-or-down, VAR-clue-ranks, 2.16-2c] under hanab-live:
    n = 6 (value 6 is START), copies 1, 2, 2, 2, 1 and one START (a dark suit one of
    each), 25 points at most; an empty stack takes a 5 or START, START takes a 2 (then
    up) or a 4 (then down); a 3 on an empty stack and a 2 on (5, 4) fail; the fifth card
    completes a stack and regains a token; no rank clue touches a START card, which has
    no rank clue 6, except a Pink START, touched by every rank clue."""
    yield from configs(out, UP_OR_DOWN_FAMILIES, 6)
    if out.preset != PRESET:
        return
    yield from _up_or_down_clues(out)
    yield from _up_or_down_plays(out)
    yield from _up_or_down_pink(out)


UP_OR_DOWN_HANDS: Final[tuple[tuple[Card, ...], ...]] = (
    ((5, BLUE), (4, BLUE), (3, BLUE), (2, BLUE), (1, BLUE)),
    ((START, RED), (2, RED), (START, YELLOW), (4, YELLOW), (3, GREEN)),
)


def _up_or_down_clues(out: Maker) -> Iterator[Vector]:
    """[VAR-engine-up-or-down, VAR-clue-ranks] a rank clue 2 touches the red 2, not the
    START cards (which lose the value 2); the red clue touches the red START and 2; a
    rank clue 6 does not exist."""
    config = make_config(2, PRESET, "Up or Down (5 Suits)")
    run = start(config, *UP_OR_DOWN_HANDS)
    clauses = (*UP_OR_DOWN_CLAUSES, "VAR-touch", "VAR-engine-masks", "2.14")
    hint = Hint(1, "value", 2)
    vector = out.transition("rank-2-not-start", (*clauses, "2.16-2a-value"), run, hint, "a rank clue 2 touches the red 2, not the START cards")
    expect(touched_slots(run, hint) == (1,), "VAR-engine-up-or-down: no rank clue touches START")
    start_known = vector.data["post"]["knowledge"][1][0]
    expect(start_known == {"suits": [0, 1, 2, 3, 4], "values": [1, 3, 4, 5, START]}, "2.16-2a: the START card is not a 2")
    yield vector
    hint = Hint(1, "colour", RED)
    vector = out.transition("red-clue-touches-start", (*clauses, "2.16-2a-suit", "VAR-own-colour"), run, hint, "the red clue touches the red START and the red 2")
    expect(touched_slots(run, hint) == (0, 1), "VAR-up-or-down: a START card has its suit's colour")
    yield vector
    yield out.refusal("rank-6-refused", clauses, run, Hint(1, "value", START), "VAR-clue-ranks", "there is no rank clue for START")


def _up_or_down_plays(out: Maker) -> Iterator[Vector]:
    """[VAR-engine-up-or-down] seat 0 builds blue down from 5 while seat 1 plays red START
    then 2 and yellow START then 4; a 2 on (5, 4) and a green 3 on an empty stack fail;
    the blue 1 completes blue and regains a token."""
    config = make_config(2, PRESET, "Up or Down (5 Suits)")
    run = start(config, *UP_OR_DOWN_HANDS)
    steps: tuple[tuple[str | None, Sequence[str], str, int, int], ...] = (
        # label, clauses, description, suit whose field grows (-1: a failure), its height after
        ("five-on-empty", ("2.16-2c-success",), "a 5 starts an empty stack (downwards)", BLUE, 1),
        ("start-on-empty", ("2.16-2c-success",), "a START card starts an empty stack", RED, 1),
        (None, (), "", BLUE, 2),
        ("start-then-two", ("2.16-2c-success",), "a 2 after START: the stack goes up", RED, 2),
        (None, (), "", BLUE, 3),
        (None, (), "", YELLOW, 1),
        (None, (), "", BLUE, 4),
        ("start-then-four", ("2.16-2c-success",), "a 4 after START: the stack goes down", YELLOW, 2),
    )
    for index, (label, clauses, description, suit, height) in enumerate(steps):
        if index == 4:
            # [VAR-engine-up-or-down] seat 0's stack (5, 4) takes its 3, not the 2 in slot 1.
            vector = out.transition("two-on-five-four-fails", (*UP_OR_DOWN_CLAUSES, "2.16-2c-fail"), run, Play(1), "a 2 on the stack (5, 4) fails")
            expect(vector.data["post"]["strikes"] == 1 and vector.data["post"]["fireworks"][BLUE] == 2, "VAR-engine-up-or-down: a 2 does not follow 4 downwards")
            yield vector
        if label is not None:
            vector = out.transition(label, (*UP_OR_DOWN_CLAUSES, *clauses), run, Play(0), description)
            expect(vector.data["post"]["fireworks"][suit] == height, f"VAR-engine-up-or-down: the field counts {height} cards")
            yield vector
        run = run.then(Play(0))
        expect(run.state.fireworks[suit] == height, "VAR-engine-up-or-down: the field grows")
    run = run.then(first_hint(run))
    vector = out.transition("three-on-empty-fails", (*UP_OR_DOWN_CLAUSES, "2.16-2c-fail", "2.16-errors"), run, Play(0), "a 3 on an empty stack fails")
    expect(vector.data["post"]["strikes"] == 1 and vector.data["post"]["discard"] == [{"suit": GREEN, "value": 3}], "VAR-engine-up-or-down: a 3 cannot start")
    yield vector
    run = run.then(Play(0))
    vector = out.transition("one-completes-down", (*UP_OR_DOWN_CLAUSES, "2.16-2c-success", "2.16-2c-five", "VAR-max-score"), run, Play(0), "the blue 1 completes 5-4-3-2-1: t := t + 1")
    pre, post = vector.data["pre"], vector.data["post"]
    expect(post["fireworks"][BLUE] == 5 and post["clue_tokens"] == pre["clue_tokens"] + 1 == 8, "VAR-engine-up-or-down: a complete stack regains a token")
    yield vector


def _up_or_down_pink(out: Maker) -> Iterator[Vector]:
    """[VAR-up-or-down, VAR-all-ranks] Up or Down & Pink: a rank clue 3 touches the red 3
    and the pink 2 (the pink card may be any pink card or any 3: its knowledge lists its
    cards), not the red START; a rank clue 1 touches the pink START; the pink START and
    then the pink 4 are played."""
    config = make_config(2, PRESET, "Up or Down & Pink (5 Suits)")
    hands = (((START, PINK), (4, PINK), (1, RED), (2, YELLOW), (3, GREEN)),
             ((START, RED), (3, RED), (1, YELLOW), (2, PINK), (4, BLUE)))
    run = start(config, *hands)
    clauses = (*UP_OR_DOWN_CLAUSES, "VAR-all-ranks", "VAR-touch", "VAR-engine-masks", "2.14", "2.16-2a-value")
    hint = Hint(1, "value", 3)
    vector = out.transition("pink-rank-3", clauses, run, hint, "a rank clue 3 touches the red 3 and the pink 2, not the red START")
    expect(touched_slots(run, hint) == (1, 3), "VAR-all-ranks: every rank clue touches a pink card; none touches the red START")
    pink = vector.data["post"]["knowledge"][1][3]
    expect("cards" in pink and {"suit": PINK, "value": START} in pink["cards"] and {"suit": RED, "value": 3} in pink["cards"], "2.14: any pink card or any 3")
    yield vector
    run = run.then(hint)
    hint = Hint(0, "value", 1)
    vector = out.transition("pink-rank-1-touches-start", clauses, run, hint, "a rank clue 1 touches the pink START, the pink 4 and the red 1")
    expect(touched_slots(run, hint) == (0, 1, 2), "VAR-up-or-down: a pink START is touched by every rank clue")
    yield vector
    run = run.then(hint)
    vector = out.transition("pink-start-on-empty", (*UP_OR_DOWN_CLAUSES, "2.16-2c-success"), run, Play(0), "the pink START starts the pink stack")
    expect(vector.data["post"]["fireworks"][PINK] == 1, "VAR-engine-up-or-down: START on an empty stack")
    yield vector
    run = run.then(Play(0))
    run = run.then(first_hint(run))
    vector = out.transition("pink-start-then-four", (*UP_OR_DOWN_CLAUSES, "2.16-2c-success"), run, Play(0), "the pink 4 after START: the stack goes down")
    expect(vector.data["post"]["fireworks"][PINK] == 2, "VAR-engine-up-or-down: 4 after START")
    yield vector


CASES: Final = (orange_suits, up_or_down)
"""The case functions of this module, in the order of generation [VEC-cases]."""
