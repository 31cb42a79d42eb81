"""hanab.live's variants as a compositional model: suits with touch properties, rank
modifiers and game rules [VAR-model].  ``engine`` is the bridge to the engine (suits,
clue masks, the rule set a variant plays by); ``ruleset`` holds the interface the steps
ask what a variant family changes, with the thesis' rules as its default; each family
that changes it is one module (``updown``: Up or Down; ``orange``: orange suits)."""

from hanabi_ref.engine.variants.model import (
    GameRules,
    NotSupported,
    SpecialRank,
    SuitKind,
    Variant,
)
from hanabi_ref.engine.variants.names import parse_variant
from hanabi_ref.engine.variants.touch import Clue, touches

__all__ = ["Clue", "GameRules", "NotSupported", "SpecialRank", "SuitKind", "Variant", "parse_variant", "touches"]
