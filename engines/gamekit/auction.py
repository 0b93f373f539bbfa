"""A simple open auction on a kit table: seats in turn raise the high bid or drop out, and the
last seat still in wins at the high bid.

The auction keeps its state on the table, under the names a game adds to its layout
(`Layout(counters=(..., *AUCTION_COUNTERS), values=(..., *AUCTION_VALUES))`), so it is public,
copied by `clone` and kept by `determinize` like the rest of the position.  The game encodes
a raise as an action id (`raises` gives the legal ones) and decides what the winner gets.
"""

from __future__ import annotations

from engines.gamekit.table import KitState

#: Per seat: 1 while the seat is still bidding.
AUCTION_COUNTERS = ("bidding",)
#: The high bid so far and who made it (-1: nobody yet).
AUCTION_VALUES = ("high_bid", "high_bidder")


def open_auction(state: KitState, first: int, opening: int = 0) -> None:
    """Every seat in, the high bid at `opening` (a raise must beat it), `first` to bid."""
    state.counters["bidding"] = [1] * state.num_players
    state.values["high_bid"] = opening
    state.values["high_bidder"] = -1
    state.to_move = first


def raises(state: KitState, offset: int, budget: int) -> list[int]:
    """The legal raises of the seat to act as action ids (`offset + amount`), every amount
    above the high bid up to `budget` (what the seat can pay)."""
    return [offset + amount for amount in range(state.values["high_bid"] + 1, budget + 1)]


def bid(state: KitState, amount: int) -> None:
    """The seat to act raises to `amount`; the next seat still bidding acts."""
    state.values["high_bid"] = amount
    state.values["high_bidder"] = state.to_move
    state.to_move = _next_bidder(state)


def drop(state: KitState) -> int:
    """The seat to act drops out.  Returns the winner once one seat is left (the seat to act
    is then that seat), -1 while the auction goes on (the next seat still bidding acts)."""
    bidding = state.counters["bidding"]
    bidding[state.to_move] = 0
    state.to_move = _next_bidder(state)
    return state.to_move if sum(bidding) == 1 else -1


def _next_bidder(state: KitState) -> int:
    bidding = state.counters["bidding"]
    seat = state.to_move
    for _ in range(state.num_players):
        seat = seat + 1 if seat + 1 < state.num_players else 0
        if bidding[seat]:
            return seat
    return state.to_move
