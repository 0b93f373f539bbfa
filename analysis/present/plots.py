"""Matplotlib charts of the balance statistics (Agg backend: no display needed).

Every function takes a result frame (or a stats table) and returns a `Figure`; `to_png`
turns one into bytes for the HTML report.  Seats are labelled 1..n (seat 1 moves first).
"""

from __future__ import annotations

import io
import typing

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.stats import balance  # noqa: E402


def _label(row: pd.Series | dict, columns: list[str]) -> str:
    parts = []
    for c in columns:
        value = row[c]
        if c == "players":
            parts.append(f"{value}p")
        elif c == "rules":
            parts.append(value or "official")
        else:
            parts.append(str(value))
    return " · ".join(parts)


def _panels(count: int, width: float, height: float) -> tuple[Figure, list]:
    """A grid of `count` panels, at most four per row; unused cells are hidden."""
    count = max(count, 1)
    cols = min(count, 4)
    rows = -(-count // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols + 1.5, height * rows),
                             squeeze=False)
    flat = list(axes.ravel())
    for ax in flat[count:]:
        ax.set_visible(False)
    return fig, flat[:count]


def to_png(fig: Figure, dpi: int = 100) -> bytes:
    """PNG bytes of the figure; the figure is closed (reports make many)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    plt.close(fig)
    return buffer.getvalue()


def _error_bars(share: np.ndarray, low: typing.Any, high: typing.Any) -> np.ndarray:
    """matplotlib's `yerr` (distances below and above each bar), never negative: an interval
    from another estimator (a bootstrap, clustered) need not hold its point estimate."""
    low, high = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
    return np.clip(np.vstack([share - low, high - share]), 0, None)


def seat_advantage(frame: pd.DataFrame) -> Figure:
    """Win share per seat with 95% error bars and the fair share, one panel per context."""
    table = balance.seat_win_share(frame)
    ctx = balance.context_columns(frame)
    groups = list(table.groupby(ctx, sort=True)) if ctx else [((), table)]
    fig, axes = _panels(len(groups), 3.2, 3.2)
    for ax, (_, group) in zip(axes, groups):
        seats = group["seat"].to_numpy() + 1
        share = group["win_share"].to_numpy()
        err = _error_bars(share, group["ci_low"], group["ci_high"])
        ax.bar(seats, share, yerr=err, capsize=4, color="#4C72B0")
        ax.axhline(group["fair"].iloc[0], color="#C44E52", linestyle="--", label="fair share")
        ax.set_xticks(seats)
        ax.set_xlabel("seat (1 moves first)")
        ax.set_title(_label(group.iloc[0], ctx), fontsize=9)
    axes[0].set_ylabel("win share")
    axes[0].legend(fontsize=8)
    fig.suptitle("Win share by seat (95% Wilson interval)", fontsize=10)
    return fig


def score_distributions(frame: pd.DataFrame, by: str = "bot") -> Figure:
    """Histogram of final scores per group (bot or seat), one panel per context."""
    ctx = balance.context_columns(frame)
    groups = list(frame.groupby(ctx, sort=True)) if ctx else [((), frame)]
    fig, axes = _panels(len(groups), 3.4, 3.2)
    for ax, (_, group) in zip(axes, groups):
        low, high = group["score"].min(), group["score"].max()
        bins = np.arange(np.floor(low), np.ceil(high) + 2) - 0.5 if high - low <= 60 else 40
        for name, part in group.groupby(by, sort=True):
            label = f"seat {name + 1}" if by == "seat" else str(name)
            ax.hist(part["score"], bins=bins, histtype="step", density=True, label=label)
        ax.set_xlabel("final score")
        ax.set_title(_label(group.iloc[0], ctx), fontsize=9)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("share of seat-games")
    fig.suptitle(f"Score distribution by {by}", fontsize=10)
    return fig


def scoring_sources(frame: pd.DataFrame, by: str = "seat") -> Figure:
    """Stacked bars of mean points by source per group (seat or bot), one panel per context."""
    table = balance.scoring_balance(frame, by)
    ctx = balance.context_columns(frame)
    groups = list(table.groupby(ctx, sort=True)) if ctx and len(table) else [((), table)]
    fig, axes = _panels(len(groups), 3.6, 3.4)
    for ax, (_, group) in zip(axes, groups):
        if group.empty:
            ax.text(0.5, 0.5, "no score breakdown", ha="center", transform=ax.transAxes)
            continue
        wide = group.pivot(index=by, columns="source", values="mean_points").fillna(0.0)
        labels = [f"seat {s + 1}" if by == "seat" else str(s) for s in wide.index]
        bottom = np.zeros(len(wide))
        for source in wide.columns:
            ax.bar(labels, wide[source], bottom=bottom, label=source)
            bottom += wide[source].to_numpy()
        ax.set_title(_label(group.iloc[0], ctx), fontsize=9)
        ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    axes[0].set_ylabel("mean points")
    axes[-1].legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
    fig.suptitle(f"Mean points by scoring source per {by}", fontsize=10)
    return fig


def rating_ladder(table: pd.DataFrame) -> Figure:
    """Bots by Plackett-Luce mu with bootstrap intervals (a `balance.ratings` table)."""
    table = table.sort_values("mu")
    fig, ax = plt.subplots(figsize=(6, 0.5 * len(table) + 1.2))
    y = np.arange(len(table))
    mu = table["mu"].to_numpy()
    if table["mu_low"].notna().all():
        # drawn as segments, not error bars: a percentile interval of an order-dependent
        # rating need not contain the point estimate (errorbar rejects negative lengths)
        low, high = table["mu_low"].to_numpy(), table["mu_high"].to_numpy()
        ax.hlines(y, low, high, color="#4C72B0")
        ax.plot(np.concatenate([low, high]), np.concatenate([y, y]), "|", ms=10,
                color="#4C72B0")
    ax.plot(mu, y, "o", color="#4C72B0")
    ax.set_yticks(y, table["bot"].tolist())
    ax.set_xlabel("rating mu (Plackett-Luce; 95% bootstrap interval)")
    ax.set_title("Bot rating ladder", fontsize=10)
    ax.grid(axis="x", alpha=0.3)
    return fig


def convergence(frame: pd.DataFrame, by: str = "bot") -> Figure:
    """Cumulative win share against games played, with the Wilson band (log x axis)."""
    table = balance.convergence(frame, by=by)
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for name, group in table.groupby(by, sort=True):
        label = f"seat {name + 1}" if by == "seat" else str(name)
        line, = ax.plot(group["games"], group["win_share"], label=label)
        ax.fill_between(group["games"], group["ci_low"], group["ci_high"], alpha=0.15,
                        color=line.get_color())
    if "players" in frame and frame["players"].nunique() == 1:
        ax.axhline(1 / frame["players"].iloc[0], color="#C44E52", linestyle="--", lw=1,
                   label="fair share")
    ax.set_xscale("log")
    ax.set_xlabel("games played")
    ax.set_ylabel("cumulative win share")
    ax.set_title(f"Convergence of win share by {by}", fontsize=10)
    ax.legend(fontsize=7)
    return fig


def systems_used(frame: pd.DataFrame) -> Figure:
    """Per action kind: share of each bot's games in which it used the kind (bars) and in which
    the kind was available (grey outline), one panel per context."""
    table = balance.coverage(frame)
    ctx = balance.context_columns(frame)
    groups = list(table.groupby(ctx, sort=True)) if ctx and len(table) else [((), table)]
    kinds_most = max((g["kind"].nunique() for _, g in groups), default=1)
    fig, axes = _panels(len(groups), 4.2, 0.28 * kinds_most + 1.4)
    for ax, (_, group) in zip(axes, groups):
        if group.empty:
            ax.text(0.5, 0.5, "no action kinds recorded", ha="center", transform=ax.transAxes)
            continue
        kinds = list(dict.fromkeys(group["kind"]))
        bots = sorted(group["bot"].unique())
        height = 0.8 / len(bots)
        y = np.arange(len(kinds))
        for i, (bot, part) in enumerate(group.groupby("bot", sort=True)):
            part = part.set_index("kind").reindex(kinds)
            offset = y - 0.4 + height * (i + 0.5)
            ax.barh(offset, part["available_share"].fillna(0), height=height, color="none",
                    edgecolor="#999999", linewidth=0.8,
                    label="available" if i == 0 else None)
            ax.barh(offset, part["used_share"], height=height, label=f"{bot}: used")
        ax.set_yticks(y, kinds, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of the bot's games")
        ax.set_title(_label(group.iloc[0], ctx), fontsize=9)
    axes[-1].legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
    fig.suptitle("Game systems used: games in which each kind was chosen, and available",
                 fontsize=10)
    return fig


def seats_by_lineup(frame: pd.DataFrame) -> Figure:
    """Seat win shares per line-up side by side (95% Wilson intervals), one panel per context."""
    from analysis.stats import robustness

    table = robustness.seat_shares(frame)
    ctx = balance.context_columns(frame)
    groups = list(table.groupby(ctx, sort=True)) if ctx else [((), table)]
    fig, axes = _panels(len(groups), 3.8, 3.2)
    for ax, (_, group) in zip(axes, groups):
        lineups = robustness._order(group["lineup"], robustness.REFERENCE)
        width = 0.8 / len(lineups)
        for i, lineup in enumerate(lineups):
            part = group[group["lineup"] == lineup]
            x = part["seat"].to_numpy() + 1 - 0.4 + width * (i + 0.5)
            share = part["win_share"].to_numpy()
            err = _error_bars(share, part["ci_low"], part["ci_high"])
            ax.bar(x, share, width=width, yerr=err, capsize=2, label=lineup)
        ax.axhline(group["fair"].iloc[0], color="#C44E52", linestyle="--", lw=1)
        ax.set_xticks(sorted(group["seat"].unique() + 1))
        ax.set_xlabel("seat (1 moves first)")
        ax.set_title(_label(group.iloc[0], ctx), fontsize=9)
        ax.legend(fontsize=6, loc="lower left")  # line-ups differ from panel to panel
    axes[0].set_ylabel("win share")
    fig.suptitle("Win share by seat under each line-up (95% Wilson interval; dashed: fair)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.95))
    return fig


def effect_sizes(table: pd.DataFrame) -> Figure:
    """What-if effects (a `sweep.effects` table): one panel per statistic, one bar per varied
    setting with its paired 95% interval; shares in points, game length in decisions."""
    if not table.empty:  # a statistic that never moves (no ties at all) gets no panel
        moved = table.groupby("statistic")[["ci_low", "ci_high"]].apply(
            lambda part: bool((part.abs() > 0).any().any()))
        table = table[table["statistic"].map(moved)]
    names = list(dict.fromkeys(table["statistic"])) if not table.empty else []
    fig, axes = _panels(len(names), 4.2, 0.35 * max(3, table.groupby("statistic").size().max()
                                                     if not table.empty else 3) + 1.2)
    for ax, name in zip(axes, names):
        part = table[table["statistic"] == name]
        scale = 1.0 if name == "length" else 100.0
        labels = [f"{k.removeprefix('components.')}={v}"[:38]
                  for k, v in zip(part["key"], part["setting"])]
        y = np.arange(len(part))
        effect = part["effect"].to_numpy() * scale
        err = np.vstack([effect - part["ci_low"].to_numpy() * scale,
                         part["ci_high"].to_numpy() * scale - effect])
        colours = ["tab:red" if s else "tab:gray" for s in part["significant"]]
        ax.barh(y, effect, xerr=err, color=colours, capsize=3)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, labels, fontsize=7)
        ax.set_title(name + (" (decisions)" if name == "length" else " (points)"), fontsize=9)
    fig.tight_layout()
    return fig
