"""Matplotlib charts of the balance statistics (Agg backend: no display needed).

Every function takes a result frame (or a stats table) and returns a `Figure`; `to_png`
turns one into bytes for the HTML report.  Seats are labelled 1..n (the axis says who takes
the first turn: `formats.seat_order`);
partnership games are drawn by team ("seats 1+3").  A chart draws one panel per context
(game, rules, player count); `per_game` cuts a frame of many runs into one chart per game of
at most a few panels each, so a report of 18+ runs stays readable.  Panels whose bars are
compared share their scale.
"""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.present.formats import seat_order  # noqa: E402
from analysis.stats import balance  # noqa: E402

#: Panels per chart in `per_game` (two rows of four).
MAX_PANELS = 8
#: Tallest chart, in inches (100 px each in the report).
MAX_HEIGHT = 14.0
#: Widest chart, in inches: the report's column is 1100 px, and a wider image is shrunk
#: (and its labels with it) to fit.
MAX_WIDTH = 11.0


def per_game(frame: pd.DataFrame, panels: int = MAX_PANELS) -> list[tuple[str, pd.DataFrame]]:
    """The frame cut into one part per game (and per `panels` contexts of a game with more),
    each labelled by its game: charts of a part have few panels and one game's scales."""
    if "game" not in frame.columns or frame.empty:
        return [("", frame)]
    ctx = [c for c in balance.context_columns(frame) if c != "game"]
    parts = []
    for game, part in frame.groupby("game", sort=True):
        if not ctx:
            parts.append((str(game), part))
            continue
        keys = list(part.groupby(ctx, sort=True).groups.items())
        for start in range(0, len(keys), panels):
            index = np.concatenate([np.asarray(rows) for _, rows in keys[start:start + panels]])
            label = str(game) if len(keys) <= panels else \
                f"{game} ({start // panels + 1} of {-(-len(keys) // panels)})"
            parts.append((label, part.loc[np.sort(index)]))
    return parts


def _unit_label(seats: tuple[int, ...]) -> str:
    """'1' for a seat, '1+3' for a partnership (seats from 1)."""
    return "+".join(str(s + 1) for s in seats)


def _team_rows(group: pd.DataFrame) -> pd.DataFrame:
    """One row per game and team of a partnership context (win shares summed over partners:
    a team's win is one win), with `team` and the team's `label`; seats otherwise."""
    players = int(group["players"].iloc[0])
    teams = balance.teams_for(str(group["game"].iloc[0]) if "game" in group else "", players)
    if all(len(t) == 1 for t in teams):
        return group.assign(team=group["seat"], label=group["seat"].map(lambda s: f"seat {s + 1}"))
    keyed = group.assign(team=balance.team_column(group))
    key = [c for c in balance.GAME_KEY if c in keyed] + ["team"]
    kept = {"win_share": ("win_share", "sum"), "players": ("players", "first")}
    if "truncated" in keyed:
        kept["truncated"] = ("truncated", "first")
    rows = keyed.groupby(key, sort=True).agg(**kept).reset_index()
    return rows.assign(label=rows["team"].map(lambda t: f"seats {_unit_label(teams[t])}"))


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


def _seat_axis(group: pd.DataFrame) -> str:
    """'seat (1 takes the first turn)', or what the game and its rules say about turn order."""
    first = group.iloc[0]
    order = seat_order(str(first.get("game", "")), first.get("rules", "") or "",
                       int(first["players"]), short=True)
    return f"seat ({order})" if order else "seat"


def _titles(frame: pd.DataFrame) -> tuple[list[str], str]:
    """The context columns a panel title names, and the suffix of the chart's title: a chart of
    one game names it once, in its title, and its panels only rules and player count."""
    ctx = balance.context_columns(frame)
    if "game" in ctx and frame["game"].nunique() == 1:
        return [c for c in ctx if c != "game"], f": {frame['game'].iloc[0]}"
    return ctx, ""


def _panels(count: int, width: float, height: float, sharex: bool = False,
            sharey: bool = False) -> tuple[Figure, list]:
    """A grid of `count` panels, at most four per row; unused cells are hidden.  Shared axes
    where the panels' bars are compared; rows never exceed `MAX_HEIGHT` in all."""
    count = max(count, 1)
    cols = min(count, 4)
    rows = -(-count // cols)
    height = min(height, MAX_HEIGHT / rows)
    width = min(width, (MAX_WIDTH - 1.5) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(width * cols + 1.5, height * rows),
                             squeeze=False, sharex=sharex, sharey=sharey)
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


def seat_advantage(frame: pd.DataFrame) -> Figure:
    """Win share per seat (per team in partnership games) with 95% error bars and the fair
    share, one panel per context, on one scale."""
    table = balance.team_win_share(frame)
    columns, suffix = _titles(frame)
    ctx = balance.context_columns(frame)
    groups = list(table.groupby(ctx, sort=True)) if ctx else [((), table)]
    fig, axes = _panels(len(groups), 3.2, 3.2, sharey=True)
    teamed = False
    for ax, (_, group) in zip(axes, groups):
        teams = balance.teams_for(str(group["game"].iloc[0]) if "game" in group else "",
                       int(group["players"].iloc[0]))
        x = np.arange(len(group)) + 1
        share = group["win_share"].to_numpy()
        err = np.clip(np.vstack([share - group["ci_low"], group["ci_high"] - share]), 0, None)
        ax.bar(x, share, yerr=err, capsize=4, color="#4C72B0")
        ax.axhline(group["fair"].iloc[0], color="#C44E52", linestyle="--", label="fair share")
        ax.set_xticks(x, [_unit_label(teams[int(t)]) for t in group["team"]])
        partners = any(len(t) > 1 for t in teams)
        teamed |= partners
        ax.set_xlabel("team (partners' seats)" if partners else _seat_axis(group))
        ax.set_title(_label(group.iloc[0], columns), fontsize=9)
    axes[0].set_ylabel("win share")
    axes[0].set_ylim(bottom=0)
    axes[0].legend(fontsize=8)
    unit = "seat or team" if teamed else "seat"
    fig.suptitle(f"Win share by {unit}{suffix} (95% Wilson interval)", fontsize=10)
    fig.tight_layout()
    return fig


def score_distributions(frame: pd.DataFrame, by: str = "bot") -> Figure:
    """Histogram of final scores per group (bot or seat), one panel per context."""
    ctx = balance.context_columns(frame)
    columns, suffix = _titles(frame)
    groups = list(frame.groupby(ctx, sort=True)) if ctx else [((), frame)]
    fig, axes = _panels(len(groups), 3.4, 3.2, sharex=True)
    for ax, (_, group) in zip(axes, groups):
        low, high = group["score"].min(), group["score"].max()
        bins = np.arange(np.floor(low), np.ceil(high) + 2) - 0.5 if high - low <= 60 else 40
        for name, part in group.groupby(by, sort=True):
            label = f"seat {name + 1}" if by == "seat" else str(name)
            ax.hist(part["score"], bins=bins, histtype="step", density=True, label=label)
        ax.set_xlabel("final score")
        ax.tick_params(axis="x", labelbottom=True)
        ax.set_title(_label(group.iloc[0], columns), fontsize=9)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("share of seat-games")
    fig.suptitle(f"Score distribution by {by}{suffix}", fontsize=10)
    fig.tight_layout()
    return fig


def scoring_sources(frame: pd.DataFrame, by: str = "seat") -> Figure:
    """Stacked bars of mean points by source per group (seat or bot), one panel per context on
    one scale; each source keeps its colour across panels."""
    table = balance.scoring_balance(frame, by)
    ctx = balance.context_columns(frame)
    columns, suffix = _titles(frame)
    groups = list(table.groupby(ctx, sort=True)) if ctx and len(table) else [((), table)]
    sources = sorted(table["source"].unique()) if len(table) else []
    palette = plt.get_cmap("tab20" if len(sources) > 10 else "tab10")
    colour = {source: palette(i % palette.N) for i, source in enumerate(sources)}
    fig, axes = _panels(len(groups), 3.6, 3.4, sharey=True)
    for ax, (_, group) in zip(axes, groups):
        if group.empty:
            ax.text(0.5, 0.5, "no score breakdown", ha="center", transform=ax.transAxes)
            continue
        wide = group.pivot(index=by, columns="source", values="mean_points").fillna(0.0)
        labels = [f"seat {s + 1}" if by == "seat" else str(s) for s in wide.index]
        bottom = np.zeros(len(wide))
        for source in wide.columns:
            ax.bar(labels, wide[source], bottom=bottom, label=source, color=colour[source])
            bottom += wide[source].to_numpy()
        ax.set_title(_label(group.iloc[0], columns), fontsize=9)
        ax.tick_params(axis="x", labelrotation=30, labelsize=8)
    axes[0].set_ylabel("mean points")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colour[s]) for s in sources]
    if handles:
        axes[-1].legend(handles[::-1], sources[::-1], fontsize=7, bbox_to_anchor=(1.02, 1),
                        loc="upper left")
    fig.suptitle(f"Mean points by scoring source per {by}{suffix}", fontsize=10)
    fig.tight_layout()
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
    """Cumulative win share against games played, with the Wilson band (log x axis), one panel
    per context on one scale; by seat, partnership games are drawn by team."""
    ctx = balance.context_columns(frame)
    columns, suffix = _titles(frame)
    groups = list(frame.groupby(ctx, sort=True)) if ctx else [((), frame)]
    fig, axes = _panels(len(groups), 4.4, 3.2, sharey=True)
    for ax, (key, group) in zip(axes, groups):
        where = dict(zip(ctx, key if isinstance(key, tuple) else (key,)))
        if by == "seat":
            group = _team_rows(group)
            labels = group.drop_duplicates("team").set_index("team")["label"]
            table = balance.convergence(group, by="team")
            fair = 1 / len(labels)
        else:
            labels, table = None, balance.convergence(group, by=by)
            fair = 1 / group["players"].iloc[0] if "players" in group else None
        for name, part in table.groupby("team" if by == "seat" else by, sort=True):
            line, = ax.plot(part["games"], part["win_share"],
                            label=labels[name] if labels is not None else str(name))
            ax.fill_between(part["games"], part["ci_low"], part["ci_high"], alpha=0.15,
                            color=line.get_color())
        if fair is not None:
            ax.axhline(fair, color="#C44E52", linestyle="--", lw=1, label="fair share")
        ax.set_xscale("log")
        ax.set_xlabel("games played")
        if columns:
            ax.set_title(_label(where, columns), fontsize=9)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("cumulative win share")
    fig.suptitle(f"Convergence of win share by {by}{suffix}", fontsize=10)
    fig.tight_layout()
    return fig


def systems_used(frame: pd.DataFrame) -> Figure:
    """Per action kind: share of each bot's games in which it used the kind (bars) and in which
    the kind was available (grey outline), one panel per context.  Each panel lists its own
    game's kinds; pass one game at a time (`per_game`) to share the kind axis."""
    table = balance.coverage(frame)
    ctx = balance.context_columns(frame)
    columns, suffix = _titles(frame)
    groups = list(table.groupby(ctx, sort=True)) if ctx and len(table) else [((), table)]
    kinds_most = max((g["kind"].nunique() for _, g in groups), default=1)
    bots_most = max((g["bot"].nunique() for _, g in groups), default=1)
    one_game = "game" not in table or table["game"].nunique() <= 1
    fig, axes = _panels(len(groups), 4.2, (0.16 + 0.06 * bots_most) * kinds_most + 1.4,
                        sharey=one_game)
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
        ax.set_ylim(len(kinds) - 0.5, -0.5)  # first kind on top
        ax.set_xlim(0, 1)
        ax.set_xlabel("share of the bot's games")
        ax.set_title(_label(group.iloc[0], columns), fontsize=9)
    axes[-1].legend(fontsize=7, bbox_to_anchor=(1.02, 1), loc="upper left")
    fig.suptitle(f"Game systems used{suffix}: games in which each kind was chosen, and "
                 "available", fontsize=10)
    fig.tight_layout()
    return fig


def seats_by_lineup(frame: pd.DataFrame) -> Figure:
    """Seat (team) win shares per line-up side by side (95% Wilson intervals), one panel per
    context on one scale."""
    from analysis.stats import robustness

    frame = robustness.with_lineups(frame)
    ctx = balance.context_columns(frame)
    columns, suffix = _titles(frame)
    groups = list(frame.groupby(ctx, sort=True)) if ctx else [((), frame)]
    fig, axes = _panels(len(groups), 3.8, 3.2, sharey=True)
    for ax, (_, group) in zip(axes, groups):
        teams = balance.teams_for(str(group["game"].iloc[0]) if "game" in group else "",
                       int(group["players"].iloc[0]))
        lineups = robustness._order(group["lineup"], robustness.REFERENCE)
        width = 0.8 / len(lineups)
        for i, lineup in enumerate(lineups):
            part = balance.team_win_share(group[group["lineup"] == lineup])
            x = part["team"].to_numpy() + 1 - 0.4 + width * (i + 0.5)
            share = part["win_share"].to_numpy()
            # clipped: at a share of 0 or 1 the Wilson bound can miss it by a rounding error
            err = np.clip(np.vstack([share - part["ci_low"], part["ci_high"] - share]), 0, None)
            ax.bar(x, share, width=width, yerr=err, capsize=2, label=lineup)
        ax.axhline(1 / len(teams), color="#C44E52", linestyle="--", lw=1)
        ax.set_xticks(np.arange(len(teams)) + 1, [_unit_label(t) for t in teams])
        partners = any(len(t) > 1 for t in teams)
        ax.set_xlabel("team (partners' seats)" if partners else _seat_axis(group))
        ax.set_title(_label(group.iloc[0], columns), fontsize=9)
        ax.legend(fontsize=6, loc="lower left")  # line-ups differ from panel to panel
    axes[0].set_ylabel("win share")
    axes[0].set_ylim(bottom=0)
    fig.suptitle(f"Win share by seat under each line-up{suffix} (95% Wilson interval; "
                 "dashed: fair)", fontsize=10)
    fig.tight_layout()
    return fig


def effect_sizes(table: pd.DataFrame) -> Figure:
    """What-if effects (a `sweep.effects` table): one panel per statistic, one bar per varied
    setting with its paired 95% interval.  Shares read in points, every share panel on one
    scale so their bars compare; game length reads in decisions, on its own scale (last)."""
    if not table.empty:  # a statistic that never moves (no ties at all) gets no panel
        moved = table.groupby("statistic")[["ci_low", "ci_high"]].apply(
            lambda part: bool((part.abs() > 0).any().any()))
        table = table[table["statistic"].map(moved)]
    names = list(dict.fromkeys(table["statistic"])) if not table.empty else []
    names = [n for n in names if n != "length"] + [n for n in names if n == "length"]
    fig, axes = _panels(len(names), 4.2, 0.35 * max(3, table.groupby("statistic").size().max()
                                                     if not table.empty else 3) + 1.2)
    points = [ax for ax, name in zip(axes, names) if name != "length"]
    for ax, name in zip(axes, names):
        part = table[table["statistic"] == name]
        scale = 1.0 if name == "length" else 100.0
        labels = [f"{k.removeprefix('components.')}={v}"[:38]
                  for k, v in zip(part["key"], part["setting"])]
        y = np.arange(len(part))
        effect = part["effect"].to_numpy() * scale
        err = np.clip(np.vstack([effect - part["ci_low"].to_numpy() * scale,
                                 part["ci_high"].to_numpy() * scale - effect]), 0, None)
        colours = ["tab:red" if s else "tab:gray" for s in part["significant"]]
        ax.barh(y, effect, xerr=err, color=colours, capsize=3)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(y, labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("change in decisions" if name == "length" else "change in points")
        ax.set_title(name + (" (decisions)" if name == "length" else " (points)"), fontsize=9)
    shared = table[table["statistic"] != "length"] if not table.empty else table
    if points and len(shared):
        low = min(0.0, float(np.nanmin(shared["ci_low"]))) * 100
        high = max(0.0, float(np.nanmax(shared["ci_high"]))) * 100
        pad = 0.05 * (high - low) or 1.0
        for ax in points:
            ax.set_xlim(low - pad, high + pad)
    if names:
        fig.suptitle("Effects against the reference value (95% paired interval; red: "
                     "significant after Holm); share panels on one scale", fontsize=10)
    fig.tight_layout()
    return fig


def landscape_heatmap(matrix: pd.DataFrame, cells: pd.DataFrame) -> Figure:
    """A strategy landscape: rows the lone seat's style, columns the table's; each cell its
    win share as a multiple of fair with the 95% interval, coloured red above fair and blue
    below on a scale centred at 1, framed when significant after the landscape's family
    correction (`cells`: `metagame.adjusted`).  The diagonal is fair by definition."""
    from matplotlib.colors import TwoSlopeNorm

    styles = list(matrix.index)
    k = len(styles)
    values = matrix.to_numpy(dtype=float)
    spread = max(0.05, float(np.nanmax(np.abs(values - 1.0))))
    size = min(MAX_WIDTH, 1.3 * k + 2.5)
    fig, ax = plt.subplots(figsize=(size, min(MAX_HEIGHT, 1.0 * k + 2.0)))
    # a share is never below 0: the blue half stops at 0 when the red half reaches past 2
    image = ax.imshow(values, cmap="RdBu_r", norm=TwoSlopeNorm(1.0, max(0.0, 1.0 - spread),
                                                              1.0 + spread))
    look = {(r.style, r.table): r for r in cells.itertuples()}
    for i, style in enumerate(styles):
        for j, table in enumerate(styles):
            row = look.get((style, table))
            text = "fair" if row is None else \
                f"{row.ratio:.2f}\n[{row.ratio_low:.2f}, {row.ratio_high:.2f}]"
            dark = abs(values[i, j] - 1.0) > 0.6 * spread
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="white" if dark else "black")
            if row is not None and row.significant:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False,
                                           edgecolor="black", linewidth=2))
    ax.set_xticks(range(k), styles, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(k), styles, fontsize=8)
    ax.set_xlabel("table of (every other seat)")
    ax.set_ylabel("lone seat")
    ax.set_title("Lone seat's win share, × fair [95% interval]; framed: significant "
                 "after Holm", fontsize=9)
    fig.colorbar(image, ax=ax, label="× fair share", shrink=0.8)
    fig.tight_layout()
    return fig
