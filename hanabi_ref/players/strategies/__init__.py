"""Strategies: each is a factory ``(config, seat, seed) -> Strategy`` [2.17-view].

``random`` plays uniformly random legal actions; ``simple`` plays a card it knows to be
playable, else hints a playable card, else discards; ``thesis`` is the thesis' rule-of-thumb
strategy (Algorithm 4.6) with its six parameters (``spec/strategies.md``); ``hat`` is the
hat player and ``recommendation`` the paper's hat strategy it improves on (``spec/hat.md``).

:data:`SPECS` describes every named strategy with its parameters [S-params];
:data:`STRATEGIES` maps each name to its factory with default parameters.

Strategies that live above this layer, or in other packages, register themselves as entry
points of the group ``hanabi_ref.strategies`` (:data:`ENTRY_POINT_GROUP`): the name is the
strategy's, the value a :class:`StrategySpec` (``package.module:SPEC``).  Our own
``learned-recommendation`` registers so from ``hanabi_ref.tools.rl.learned`` (pyproject.toml),
so that this package never imports the RL tools.  A registered strategy is imported when
it is first asked for, not when this module is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from importlib import metadata
from typing import Final

from hanabi_ref.players.strategy import StrategyFactory
from hanabi_ref.players.strategies.params import Param, ParamError, StrategySpec, Value, parse_assignments
from hanabi_ref.players.strategies.random import RandomStrategy
from hanabi_ref.players.strategies.simple import SimpleStrategy
from hanabi_ref.players.strategies.knowledge import upward_stacks_problem
from hanabi_ref.players.strategies.hat.player import CLASSIC_HAT_SPEC
from hanabi_ref.players.strategies.hat.reclue import HAT_SPEC
from hanabi_ref.players.strategies.hat.recommendation import RECOMMENDATION_SPEC
from hanabi_ref.players.strategies.info import INFO_SPEC, SEARCH_INFO_SPEC, SOURCE_INFO_SPEC
from hanabi_ref.players.strategies.thesis import THESIS_SPEC
from hanabi_ref.players.strategies.natural import NATURAL_SPEC


BUILT_IN: Mapping[str, StrategySpec] = {
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
    "natural": NATURAL_SPEC,
}
"""The strategies of this package, by name."""

ENTRY_POINT_GROUP: Final = "hanabi_ref.strategies"
"""The entry-point group under which a strategy registers (see the module's text)."""


class Registry(MutableMapping[str, StrategySpec]):
    """Every named strategy: the built-in ones and those registered as entry points [S-register].

    The names of registered strategies come from the installed packages' metadata, read
    when first needed; a registered strategy's module is imported when its name is first
    looked up, and a value that is not a :class:`StrategySpec` of that name is a
    :class:`ParamError` naming the entry point.  Setting a name (as a test does to add a
    strategy of its own) shadows it for as long as it is set."""

    def __init__(self, built_in: Mapping[str, StrategySpec], group: str) -> None:
        self._group = group
        self._specs: dict[str, StrategySpec] = dict(built_in)
        self._registered: dict[str, metadata.EntryPoint] | None = None

    def _entry_points(self) -> dict[str, metadata.EntryPoint]:
        if self._registered is None:
            self._registered = {entry.name: entry for entry in metadata.entry_points(group=self._group)}
        return self._registered

    def __getitem__(self, name: str) -> StrategySpec:
        if name not in self._specs:
            entry = self._entry_points()[name]  # KeyError for an unknown name
            try:
                spec = entry.load()
            except Exception as error:  # a broken plug-in names itself, whatever it raised
                raise ParamError(f"strategy {name!r} (entry point {entry.value}): cannot be loaded: {error}") from None
            if not isinstance(spec, StrategySpec) or spec.name != name:
                raise ParamError(f"strategy {name!r} (entry point {entry.value}): not a StrategySpec named {name!r}")
            self._specs[name] = spec
        return self._specs[name]

    def __setitem__(self, name: str, spec: StrategySpec) -> None:
        self._specs[name] = spec

    def __delitem__(self, name: str) -> None:
        del self._specs[name]  # a registered strategy of that name is found again

    def __contains__(self, name: object) -> bool:
        return name in self._specs or name in self._entry_points()

    def __iter__(self) -> Iterator[str]:
        return iter([*self._specs, *(name for name in self._entry_points() if name not in self._specs)])

    def __len__(self) -> int:
        return len(list(iter(self)))


SPECS: Final = Registry(BUILT_IN, ENTRY_POINT_GROUP)
"""Every named strategy with its parameters [S-params]: :data:`BUILT_IN` and the registered ones."""


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
    "BUILT_IN",
    "ENTRY_POINT_GROUP",
    "SPECS",
    "Registry",
    "STRATEGIES",
    "Param",
    "ParamError",
    "StrategySpec",
    "Value",
    "factory_for",
    "parse_assignments",
    "strategy_spec",
]
