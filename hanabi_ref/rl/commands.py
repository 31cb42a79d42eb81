"""The ``hanabi-ref rl`` commands [RL-cli]: ``check`` (the encoders against OpenSpiel) and
``play`` (one game's encodings, section by section, for people writing an encoder)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
import numpy as np

from hanabi_ref.actions import describe
from hanabi_ref.game import play_game
from hanabi_ref.rl.encoders import encode
from hanabi_ref.rl.layout import Layout, layout
from hanabi_ref.rules import GameConfig
from hanabi_ref.strategy import StrategyFactory
from hanabi_ref.transition import initial_state
from hanabi_ref.transition import apply as apply_action
from hanabi_ref.view import make_view


def run_check(states: int, seed: int, as_json: bool) -> bool:
    """[RL-check, RL-cli] compare at least ``states`` (state, seat) pairs per encoding with
    OpenSpiel; print the count and the first difference; True when there is none."""
    from tqdm import tqdm

    from hanabi_ref.rl.check import check_against_openspiel

    with tqdm(total=states, unit="state", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False) as bar:
        def advance(seats: int) -> None:
            bar.update(seats)

        report = check_against_openspiel(states, seed, progress=advance)
    difference = None if report.difference is None else report.difference.describe()
    if as_json:
        print(json.dumps({"against": "openspiel", "encodings": ["canonical", "minimal"], "states": report.states,
                          "games": report.games, "configurations": report.configs,
                          "coverage": dict(sorted(report.coverage.items())), "difference": difference},
                         sort_keys=True))
    else:
        verdict = "0 differences" if difference is None else f"DIFFERENT: {difference}"
        print(f"canonical and minimal against OpenSpiel: {report.states} states per encoding, {report.games} games, "
              f"{report.configs} configurations (seed {seed}): {verdict}")
        print("situations: " + ", ".join(f"{name} {count}" for name, count in sorted(report.coverage.items())))
    return difference is None


def _name(config: GameConfig, card: int) -> str:
    """A card identity as its suit letter and value, e.g. ``R3``."""
    return f"{config.suits[card // config.values].abbreviation}{card % config.values + 1}"


def sections_of(lay: Layout, config: GameConfig, vector: np.ndarray) -> Iterator[tuple[str, str, str]]:
    """Each section's name, clause and its content in words: the offsets set to one, and
    for the belief, card by card (relative seat, slot), the identities with their weights."""
    dims = lay.dims
    per = dims.identities + dims.colours + dims.ranks
    for section in lay.sections:
        part = vector[section.start:section.stop]
        if section.name != "belief":
            yield section.name, section.clause, " ".join(str(int(index)) for index in np.nonzero(part)[0])
            continue
        cards = []
        for index in range(section.length // per):
            card = part[index * per:(index + 1) * per]
            if card.any():
                weights = " ".join(f"{_name(config, int(i))}:{card[i]:.3f}" for i in np.nonzero(card[:dims.identities])[0])
                shown = [int(i) for i in np.nonzero(card[dims.identities:])[0]]
                cards.append(f"(+{index // dims.hand_size} slot {index % dims.hand_size}: {weights}; revealed {shown})")
        yield section.name, section.clause, " ".join(cards)


def run_play(encoding: str, config: GameConfig, factory: StrategyFactory, seed: int, all_seats: bool,
             as_json: bool) -> None:
    """[RL-cli] play the game of ``seed`` and print, before every move and at the end, the
    encoding of the acting seat's view (every seat's with ``all_seats``)."""
    lay = layout(encoding, config)  # refuse the name or the configuration before playing
    record = play_game(config, factory, seed=seed)
    state = initial_state(config, record.trace.deck)
    actions = list(record.trace.actions)
    for index in range(len(actions) + 1):
        seats = range(config.players) if all_seats or state.terminal else [state.current]
        action = describe(actions[index]) if index < len(actions) else None
        for seat in seats:
            vector = encode(encoding, make_view(state, seat))
            if as_json:
                print(json.dumps({"turn": state.turn, "seat": seat, "acting": seat == state.current and not state.terminal,
                                  "action": action if seat == state.current else None, "encoding": encoding,
                                  "vector": [float(value) for value in vector]}))
            else:
                head = f"turn {state.turn} seat {seat}" + (f" (then {action})" if action and seat == state.current else "")
                print(head)
                for name, clause, entries in sections_of(lay, config, vector):
                    print(f"  {name:<22} [{clause}] {entries}")
        if index < len(actions):
            state = apply_action(state, actions[index])
