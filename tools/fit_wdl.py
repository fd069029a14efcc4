#!/usr/bin/env python3
"""Fits the chess win/draw/loss model of `UCI_ShowWDL` to qiyi's own games.

Reads `qiyi datagen` lines (`<FEN> | <result> | <score>`, result and score from White's
view) and fits, for the side to move with score s (centipawns) and material m (pawns 1,
knights and bishops 3, rooks 5, queens 9, both sides, taken between 10 and 78):

    win  = 1 / (1 + exp((a(m) - s) / b(m)))
    loss = 1 / (1 + exp((a(m) + s) / b(m)))
    draw = 1 - win - loss

First a and b per material count by maximum likelihood (a grid, then a finer grid around
its best), then cubic polynomials in x = m / 58 through them, weighted by how many
positions each count has, as src/games/chess/wdl.rs evaluates them.

    python3 tools/fit_wdl.py /work/nnue-data/chess-gen0.txt

Needs numpy (`pip install numpy`).
"""
import argparse

import numpy as np

VALUES = {'p': 1, 'n': 3, 'b': 3, 'r': 5, 'q': 9}
MIN_MATERIAL = 10


def read(path):
    material, score, outcome = [], [], []
    with open(path) as f:
        for line in f:
            fields = line.split(' | ')
            if len(fields) != 3:
                continue
            fen = fields[0].split()
            white = fen[1] == 'w'
            result = float(fields[1])
            s = int(fields[2])
            material.append(sum(VALUES.get(c.lower(), 0) for c in fen[0]))
            score.append(s if white else -s)
            r = result if white else 1.0 - result
            outcome.append(2 if r == 1.0 else (1 if r == 0.5 else 0))
    return np.array(material), np.array(score, dtype=float), np.array(outcome)


def log_likelihood(a, b, s, o):
    """Summed over the positions, for arrays of candidate a and b (broadcast)."""
    s = s[None, :]
    win = 1 / (1 + np.exp((a[:, None] - s) / b[:, None]))
    loss = 1 / (1 + np.exp((a[:, None] + s) / b[:, None]))
    draw = np.clip(1 - win - loss, 1e-9, 1)
    p = np.where(o[None, :] == 2, win, np.where(o[None, :] == 0, loss, draw))
    return np.log(np.clip(p, 1e-9, 1)).sum(axis=1)


def fit_bin(s, o):
    best = None
    for a_range, b_range in [((0, 600, 25), (20, 400, 20)), (None, None)]:
        if a_range is None:
            a0, b0 = best
            a_grid = np.arange(a0 - 25, a0 + 26, 2.5)
            b_grid = np.arange(max(5, b0 - 20), b0 + 21, 2.0)
        else:
            a_grid = np.arange(*a_range, dtype=float)
            b_grid = np.arange(*b_range, dtype=float)
        aa, bb = np.meshgrid(a_grid, b_grid)
        aa, bb = aa.ravel(), bb.ravel()
        ll = np.zeros(len(aa))
        for start in range(0, len(s), 20000):
            ll += log_likelihood(aa, bb, s[start:start + 20000], o[start:start + 20000])
        i = int(np.argmax(ll))
        best = (aa[i], bb[i])
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="`qiyi datagen --game chess` lines")
    args = ap.parse_args()
    material, score, outcome = read(args.data)
    print(f'{len(score)} positions')
    xs, a_s, b_s, weights = [], [], [], []
    # Below 10 the counts are few and their fits erratic (a at the grid's edge): the
    # model holds there at its value for 10.
    for m in range(MIN_MATERIAL, 79):
        keep = material == m
        n = int(keep.sum())
        if n < 2000:
            continue
        a, b = fit_bin(score[keep], outcome[keep])
        print(f'material {m:2}: {n:6} positions  a {a:6.1f}  b {b:6.1f}')
        xs.append(m / 58)
        a_s.append(a)
        b_s.append(b)
        weights.append(np.sqrt(n))
    pa = np.polyfit(xs, a_s, 3, w=weights)
    pb = np.polyfit(xs, b_s, 3, w=weights)
    print('a(x) coefficients, highest power first:', ', '.join(f'{c:.3f}' for c in pa))
    print('b(x) coefficients, highest power first:', ', '.join(f'{c:.3f}' for c in pb))
    # How well the fitted curves predict, against always predicting the average.
    a = np.polyval(pa, np.clip(material, MIN_MATERIAL, 78) / 58)
    b = np.polyval(pb, np.clip(material, MIN_MATERIAL, 78) / 58)
    win = 1 / (1 + np.exp((a - score) / b))
    loss = 1 / (1 + np.exp((a + score) / b))
    draw = 1 - win - loss
    p = np.where(outcome == 2, win, np.where(outcome == 0, loss, draw))
    freq = np.bincount(outcome, minlength=3) / len(outcome)
    print(f'mean log-likelihood {np.log(np.clip(p, 1e-9, 1)).mean():.4f}, '
          f'outcome frequencies alone {np.log(freq[outcome]).mean():.4f}')


if __name__ == '__main__':
    main()
