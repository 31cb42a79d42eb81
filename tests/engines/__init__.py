"""Engines the tests run behind the engine protocol, as scripts; ``buggy`` is also imported in-process."""
