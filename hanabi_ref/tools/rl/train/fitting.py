"""Fitting a network with PyTorch, seeded, the way every trainer of ``rl.train`` does
[RL-train-seeds, RL-train-extra]: the recommender (``learn``), the judge, the offset and
the information models all fit through here, and PyTorch is imported only when one does.
"""

from __future__ import annotations

from typing import Any, Final

from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.base.extras import install_hint

MINIBATCH: Final = 256
"""Examples per gradient step."""

EXTRA_HINT: Final = install_hint("train") + " (PyTorch's CPU build is enough)"
"""How to install what training needs."""


def torch_module() -> Any:
    """The ``torch`` module, or :class:`RLError` ``RL-train-extra`` saying how to install it."""
    try:
        import torch
    except ImportError:
        raise RLError("RL-train-extra", f"training needs PyTorch, which is not installed: {EXTRA_HINT}") from None
    return torch


def seeded_torch(seed: int) -> tuple[Any, Any]:
    """[RL-train-seeds] ``torch`` on one thread with deterministic algorithms, its global
    generator seeded with ``seed`` (initial weights), and a generator seeded with seed + 1
    (minibatch orders)."""
    torch = torch_module()
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    return torch, torch.Generator().manual_seed(seed + 1)


def fit_minibatches(torch: Any, network: Any, inputs: Any, targets: Any, loss_of: Any, epochs: int, draws: Any,
                    falling: bool = False) -> list[float]:
    """Fit ``network`` to (inputs, targets) by ``loss_of`` with Adam at rate 10⁻³ (falling
    linearly to 5 % over the passes if ``falling``), minibatches of :data:`MINIBATCH` in
    orders drawn from ``draws``, ``epochs`` passes; each pass's mean loss."""
    optimizer = torch.optim.Adam(network.parameters(), lr=1e-3)
    losses = []
    for epoch in range(epochs):
        if falling:
            for group in optimizer.param_groups:
                group["lr"] = 1e-3 * max(0.05, 1 - epoch / epochs)
        order = torch.randperm(len(inputs), generator=draws)
        total = 0.0
        for start in range(0, len(inputs), MINIBATCH):
            rows = order[start:start + MINIBATCH]
            loss = loss_of(network(inputs[rows]), targets[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += float(loss.detach()) * len(rows)
        losses.append(total / max(len(inputs), 1))
    return losses
