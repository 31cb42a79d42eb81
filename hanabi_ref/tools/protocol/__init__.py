"""The engine protocol: what every engine under test is driven through, below both
``verify``, which compares engines, and ``peers``, which adapts real ones [EP-protocol].
"""
