#!/usr/bin/env python3
"""The PyTorch variant of learn_sets.py: an MLP trained from impactset batch files.

SupportDataset reads one or more batch files (docs/dataset-format.md, "Batch files") with h5py:
per state, the parameters (/states/parameters, names in /design/parameters) become the
touchdown state (learn_sets.state_features) and /features/<output>/support is the target; states
whose /states/status is not 0 are left out. learn_sets.py --torch trains on its training files
and adds the result to its table. On its own, on files a learn_sets.py --data DIR run kept:

  learn_sets_torch.py DIR/train-0.h5 DIR/train-1.h5 --test DIR/held-out.h5 [--epochs E]
"""
import argparse
import time

import h5py
import numpy as np
import torch

from learn_sets import OUTPUT, state_features

torch.set_num_threads(1)  # a network this small is not faster on more threads


class SupportDataset(torch.utils.data.Dataset):
    """(state, support vector) of every ok state of the batch files, as float32 tensors.

    An item is one state; an index may also be a list of states (then the rows come back
    stacked), which lets a DataLoader with a BatchSampler read a whole batch at once."""

    def __init__(self, paths, output=OUTPUT):
        states, targets, self.directions = [], [], None
        for path in paths:
            with h5py.File(path, "r") as f:
                names = [n.decode() if isinstance(n, bytes) else n
                         for n in f["design/parameters"][()]]
                ok = f["states/status"][()] == 0
                states.append(state_features(names, f["states/parameters"][()][ok]))
                targets.append(f[f"features/{output}/support"][()][ok])
                directions = f[f"features/{output}/directions"][()]
            if self.directions is not None and not np.array_equal(directions, self.directions):
                raise ValueError(f"{path}: other support directions than {paths[0]}")
            self.directions = directions
        self.states = torch.tensor(np.concatenate(states), dtype=torch.float32)
        self.support = torch.tensor(np.concatenate(targets), dtype=torch.float32)

    def __len__(self):
        return len(self.states)

    def __getitem__(self, index):
        return self.states[index], self.support[index]


class SupportMlp(torch.nn.Module):
    """State -> support vector: two hidden layers of 64, on standardised inputs and targets
    (the training data's means and deviations, 1 for a constant column, are stored with the
    weights)."""

    def __init__(self, data, width=64):
        super().__init__()
        for name, t in (("x", data.states), ("y", data.support)):
            self.register_buffer(f"{name}_mean", t.mean(0))
            std = t.std(0)
            self.register_buffer(f"{name}_std", torch.where(std > 0, std, torch.ones_like(std)))
        d_in, d_out = data.states.shape[1], data.support.shape[1]
        self.net = torch.nn.Sequential(
            torch.nn.Linear(d_in, width), torch.nn.SiLU(),
            torch.nn.Linear(width, width), torch.nn.SiLU(),
            torch.nn.Linear(width, d_out))

    def standardised(self, x):
        """The prediction in standardised target units (what the loss compares)."""
        return self.net((x - self.x_mean) / self.x_std)

    def forward(self, x):
        return self.standardised(x) * self.y_std + self.y_mean


def train(paths, epochs=300, batch_size=64, lr=1e-2, seed=0, log=None):
    """Fits a SupportMlp to the batch files' states; returns it and the mean training loss
    (standardised mean squared error) of every epoch."""
    torch.manual_seed(seed)
    data = SupportDataset(paths)
    model = SupportMlp(data)
    sampler = torch.utils.data.BatchSampler(torch.utils.data.RandomSampler(data), batch_size,
                                            drop_last=False)
    loader = torch.utils.data.DataLoader(data, sampler=sampler, batch_size=None)
    optimiser = torch.optim.Adam(model.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, epochs)
    losses = []
    for epoch in range(epochs):
        total = 0.0
        for x, y in loader:
            optimiser.zero_grad()
            loss = torch.nn.functional.mse_loss(model.standardised(x),
                                                (y - model.y_mean) / model.y_std)
            loss.backward()
            optimiser.step()
            total += float(loss) * len(x)
        schedule.step()
        losses.append(total / len(data))
        if log and (epoch % 10 == 0 or epoch == epochs - 1):
            log(f"epoch {epoch + 1:4d}  training loss {losses[-1]:.5f}")
    return model.eval(), losses


def predict(model, states):
    """Support vectors (S, D) of states (S, 4) as numpy arrays."""
    with torch.no_grad():
        return model(torch.as_tensor(np.asarray(states), dtype=torch.float32)).double().numpy()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("train", nargs="+", help="training batch files")
    ap.add_argument("--test", required=True, help="held-out batch file")
    ap.add_argument("--epochs", type=int, default=300)
    args = ap.parse_args()
    t0 = time.perf_counter()
    model, _ = train(args.train, epochs=args.epochs, log=print)
    test = SupportDataset([args.test])
    error = np.abs(predict(model, test.states) - test.support.double().numpy()).mean()
    print(f"{len(test)} held-out states: support MAE {1e3 * error:.2f} mm/s "
          f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
