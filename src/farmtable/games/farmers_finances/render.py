"""A plain-text board for the terminal (no colour codes), drawn from a player's view only."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from farmtable.games.farmers_finances import components as c

if TYPE_CHECKING:
    from farmtable.games.farmers_finances.rules import FarmersFinancesState

_PHASE_WORDS = {
    "action": "takes an action (buy, sell or bake)",
    "market": "changes the market (move the die one row, or reroll)",
    "pick": "rolled a 6 and chooses the new market row",
}


def _header(view: dict[str, Any]) -> list[str]:
    players = view["players"]
    who = "solo" if players == 1 else f"{players} players"
    lines = [f"FARMERS FINANCES  {who}, turn {view['turn']}, goal {view['goal']} coins"]
    if view["variants"]:
        lines.append(f"Variants: {', '.join(view['variants'])}")
    if view["to_act"] is None:
        lines.append("The game is over.")
    else:
        must = " (the empty-market rule: reroll)" if view.get("must_reroll") else ""
        lines.append(f"Now: player {view['to_act']} {_PHASE_WORDS[view['phase']]}{must}")
    if view.get("end_triggered") and view["to_act"] is not None:
        lines.append("Someone has 70 coins: the game ends when this round is complete.")
    return lines


def _market(view: dict[str, Any]) -> list[str]:
    lines = ["", "MARKET CARD    BUY  SELL   wheat buy/sell   animal buy/sell"]
    for row in c.MARKET_ROWS:
        mark = ">>" if row == view["row"] else "  "
        wheat = f"{c.buy_cost(c.WHEAT, row)} / {c.sell_price(c.WHEAT, row)}"
        animal = f"{c.buy_cost(c.ANIMAL, row)} / {c.sell_price(c.ANIMAL, row)}"
        lines.append(
            f"{mark} row {row}       {c.BUY_MODIFIER[row]:+d}   {c.SELL_MODIFIER[row]:+d}"
            f"   {wheat:>9}        {animal:>9}"
        )
    last = view["last_roll"] or "-"
    lines.append(f"Bread always sells for {c.BREAD_PRICE}.  Die on row {view['row']}; last roll: {last}")
    return lines


def _marketplace(view: dict[str, Any]) -> list[str]:
    market = view["market"]
    lines = ["", f"MARKETPLACE   wheat {market[c.WHEAT]}   animal {market[c.ANIMAL]}"]
    piles = view.get("piles")
    if piles:
        left, right = piles["left"], piles["right"]
        lines.append(
            f"PILES         left: {left['top']} on top ({left['size']} cards)   "
            f"right: {right['top']} on top ({right['size']} cards)"
        )
        if left["top"] == right["top"]:
            lines.append("              (same card on both tops: you must buy from the right pile)")
    return lines


def _farms(view: dict[str, Any]) -> list[str]:
    lines = ["", "FARMS          coins  wheat  bread  animal"]
    for p, (money, farm) in enumerate(zip(view["money"], view["farms"], strict=True)):
        mark = ">" if p == view["to_act"] else " "
        lines.append(f"{mark} player {p}   {money:>6}  {farm[c.WHEAT]:>5}  {farm[c.BREAD]:>5}  {farm[c.ANIMAL]:>6}")
    return lines


def render_text(state: FarmersFinancesState, player: int | None = None) -> str:
    """The board as ``player`` sees it (``None``: a spectator), built from ``state.view(player)`` only."""
    view = state.view(player)
    lines = _header(view) + _market(view) + _marketplace(view) + _farms(view)
    if view["to_act"] is None:
        result = state.result()
        if view["players"] == 1:
            lines += ["", f"Result: {result.totals[0]} coins in {result.details['turns']} turns."]
        else:
            winners = " and ".join(f"player {p}" for p in result.winners)
            lines += ["", f"Winner: {winners}"]
    return "\n".join(lines)
