"""A replay viewer: one self-contained HTML file that steps through a game [VW-file].

``hanabi-ref replay FILE --html game.html`` writes it; spec/viewer.md says what it shows.
"""

from __future__ import annotations

from hanabi_ref.tools.viewer.html import read_divergence, render_viewer, write_viewer

__all__ = ["read_divergence", "render_viewer", "write_viewer"]
