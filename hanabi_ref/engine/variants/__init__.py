"""hanab.live's variants as a compositional model: suits with touch properties, rank
modifiers and game rules [VAR-model].  Standalone: not wired into the engine yet."""

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
