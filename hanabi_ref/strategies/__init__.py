"""Strategies: each is a factory ``(config, seat, seed) -> Strategy`` [2.17-view].

``random`` plays uniformly random legal actions; ``simple`` plays a card it knows to be
playable, else hints a playable card, else discards; ``thesis`` is the thesis' rule-of-thumb
strategy (Algorithm 4.6) with its six parameters (``spec/strategies.md``); ``hat`` is the
hat player and ``recommendation`` the paper's hat strategy it improves on (``spec/hat.md``).

:data:`SPECS` describes every named strategy with its parameters [S-params];
:data:`STRATEGIES` maps each name to its factory with default parameters.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from hanabi_ref.strategy import StrategyFactory
from hanabi_ref.strategies.params import Param, ParamError, StrategySpec, Value, parse_assignments
from hanabi_ref.strategies.random import RandomStrategy
from hanabi_ref.strategies.simple import SimpleStrategy
from hanabi_ref.strategies.knowledge import upward_stacks_problem
from hanabi_ref.strategies.hat.player import CLASSIC_HAT_SPEC
from hanabi_ref.strategies.hat.reclue import HAT_SPEC
from hanabi_ref.strategies.hat.recommendation import RECOMMENDATION_SPEC
from hanabi_ref.strategies.info import INFO_SPEC, SEARCH_INFO_SPEC, SOURCE_INFO_SPEC
from hanabi_ref.strategies.learned import LEARNED_SPEC
from hanabi_ref.strategies.thesis import THESIS_SPEC


SPECS: Mapping[str, StrategySpec] = {
    "random": StrategySpec("random", "uniformly random legal actions", (), lambda values: RandomStrategy),
    "simple": StrategySpec(
        "simple", "play a card known playable, else hint a playable card, else discard", (), lambda values: SimpleStrategy,
        upward_stacks_problem,
    ),
    "thesis": THESIS_SPEC,
    "hat": HAT_SPEC,
    "hat-classic": CLASSIC_HAT_SPEC,
    "recommendation": RECOMMENDATION_SPEC,
    "info": INFO_SPEC,
    "info-source": SOURCE_INFO_SPEC,
    "info-search": SEARCH_INFO_SPEC,
    "learned-recommendation": LEARNED_SPEC,
}

class _Factories(Mapping[str, StrategyFactory]):
    """Each named strategy's factory with default parameters, built when first asked for
    (a learned strategy reads its model file then, not when this module is imported)."""

    def __init__(self) -> None:
        self._built: dict[str, StrategyFactory] = {}

    def __getitem__(self, name: str) -> StrategyFactory:
        if name not in self._built:
            self._built[name] = SPECS[name].factory()
        return self._built[name]

    def __iter__(self) -> Iterator[str]:
        return iter(SPECS)

    def __len__(self) -> int:
        return len(SPECS)


STRATEGIES: Mapping[str, StrategyFactory] = _Factories()


def strategy_spec(name: str) -> StrategySpec:
    """The named strategy, or :class:`ParamError` listing the known names [S-params]."""
    if name not in SPECS:
        raise ParamError(f"unknown strategy {name!r} (known: {', '.join(SPECS)})")
    return SPECS[name]


def factory_for(name: str, values: Mapping[str, object] | None = None) -> StrategyFactory:
    """The factory of strategy ``name`` with parameter ``values`` (text or Python values,
    checked; defaults for the rest) [S-params]."""
    return strategy_spec(name).factory(values)


__all__ = [
    "SPECS",
    "STRATEGIES",
    "Param",
    "ParamError",
    "StrategySpec",
    "Value",
    "factory_for",
    "parse_assignments",
    "strategy_spec",
]
