"""A small multi-layer perceptron in numpy: training (Adam, softmax loss) and inference.

Both the occupancy model and the primary letter recogniser are one of these, so the reader needs only
numpy at run time (no Tesseract, no deep-learning runtime) and the shipped files are plain arrays:
input mean/scale, weights, biases and class names.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


@dataclass
class Mlp:
    mean: F32
    scale: F32
    weights: list[F32]
    biases: list[F32]
    classes: list[str]
    info: dict[str, str] = field(default_factory=dict)
    # Further arrays a model carries (the letter network's shape prototypes: `vision.recognise`).
    extras: dict[str, F32] = field(default_factory=dict)

    def standardise(self, x: F32) -> F32:
        """Inputs in the units the first layer sees."""
        return ((np.asarray(x, np.float32) - self.mean) / self.scale).astype(np.float32)

    def logits(self, x: F32) -> F32:
        h = (np.asarray(x, np.float32) - self.mean) / self.scale
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < len(self.weights) - 1:
                h = np.maximum(h, 0.0)
        return h.astype(np.float32)

    def predict_proba(self, x: F32) -> F32:
        z = self.logits(x)
        z = z - z.max(axis=1, keepdims=True)
        e = np.exp(z)
        return np.asarray(e / e.sum(axis=1, keepdims=True), np.float32)

    def save(self, path: Path) -> None:
        arrays: dict[str, npt.NDArray[np.generic]] = {"mean": self.mean, "scale": self.scale,
                                                       "classes": np.array(self.classes)}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w.astype(np.float32)
            arrays[f"b{i}"] = b.astype(np.float32)
        for name, arr in self.extras.items():
            arrays[f"x_{name}"] = arr
        arrays["info_keys"] = np.array(list(self.info.keys()))
        arrays["info_values"] = np.array(list(self.info.values()))
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> Mlp:
        with np.load(path, allow_pickle=False) as z:
            n = sum(1 for k in z.files if k.startswith("w"))
            info = dict(zip((str(k) for k in z["info_keys"]), (str(v) for v in z["info_values"]), strict=True))
            extras = {k[2:]: z[k] for k in z.files if k.startswith("x_")}
            return cls(z["mean"], z["scale"], [z[f"w{i}"] for i in range(n)], [z[f"b{i}"] for i in range(n)],
                       [str(c) for c in z["classes"]], info, extras)


def train_mlp(x: F32, y: npt.NDArray[np.int64], classes: list[str], hidden: tuple[int, ...] = (64,),
              epochs: int = 40, batch: int = 256, lr: float = 2e-3, l2: float = 1e-4, seed: int = 0,
              sample_weight: F32 | None = None) -> Mlp:
    """Fit an MLP with softmax cross-entropy by minibatch Adam; deterministic for a given seed."""
    rng = np.random.default_rng(seed)
    x = np.asarray(x, np.float32)
    mean = x.mean(axis=0).astype(np.float32)
    scale = (x.std(axis=0) + 1e-3).astype(np.float32)
    xs = (x - mean) / scale
    sizes = [x.shape[1], *hidden, len(classes)]
    ws = [(rng.standard_normal((a, b)) * np.sqrt(2.0 / a)).astype(np.float32) for a, b in itertools.pairwise(sizes)]
    bs = [np.zeros(b, np.float32) for b in sizes[1:]]
    params = ws + bs
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    sw = np.ones(len(x), np.float32) if sample_weight is None else np.asarray(sample_weight, np.float32)
    t = 0
    n = len(xs)
    for _epoch in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, batch):
            idx = order[start:start + batch]
            acts = [xs[idx]]
            for i in range(len(ws)):
                z = acts[-1] @ ws[i] + bs[i]
                acts.append(np.maximum(z, 0.0) if i < len(ws) - 1 else z)
            z = acts[-1] - acts[-1].max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            p[np.arange(len(idx)), y[idx]] -= 1.0
            wgt = sw[idx][:, None]
            grad = p * wgt / wgt.sum()
            gws: list[F32] = [np.zeros_like(w) for w in ws]
            gbs: list[F32] = [np.zeros_like(b) for b in bs]
            for i in range(len(ws) - 1, -1, -1):
                gws[i] = acts[i].T @ grad + l2 * ws[i]
                gbs[i] = grad.sum(axis=0)
                if i:
                    grad = (grad @ ws[i].T) * (acts[i] > 0)
            t += 1
            for j, (p_, g_) in enumerate(zip(params, gws + gbs, strict=True)):
                m1[j] = 0.9 * m1[j] + 0.1 * g_
                m2[j] = 0.999 * m2[j] + 0.001 * g_ * g_
                p_ -= lr * (m1[j] / (1 - 0.9 ** t)) / (np.sqrt(m2[j] / (1 - 0.999 ** t)) + 1e-8)
    return Mlp(mean, scale, ws, bs, list(classes))
