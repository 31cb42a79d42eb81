"""Checking other Hanabi engines against the reference [EP-protocol, EP-compare]."""
