"""The information strategy (spec/info.md): public knowledge, hint codes of size k,
questions whose answers every hint carries to every other seat."""

from hanabi_ref.players.strategies.info.player import INFO_SPEC, SEARCH_INFO_SPEC, SOURCE_INFO_SPEC, InfoPlayer
from hanabi_ref.players.strategies.info.reading import InfoError

__all__ = ["INFO_SPEC", "SEARCH_INFO_SPEC", "SOURCE_INFO_SPEC", "InfoError", "InfoPlayer"]
