"""The scoring helper: score finished Tiny Towns typed as text (``farmtable score tiny-towns FILE``)."""

from __future__ import annotations

from farmtable.core import BadInput, Result
from farmtable.games.tiny_towns import components as C
from farmtable.games.tiny_towns.scoring import (
    READING_MANDRAS_AROUND,
    READING_MARKET_BOTH,
    TownFacts,
    score_towns,
)

HELPER_FORMAT = """\
Tiny Towns end positions, one block per player. Lines starting with # are comments,
blank lines are ignored, upper/lower case does not matter. Example:

    buildings: Cottage, Farm, Well, Theater, Chapel, Tavern, Factory
    player: Ann
    monument: Barrett Castle
    COT COT FAR WEL
    WEL MON .   wood
    CHA TAV TAV TAV
    .   .   FAC COT
    turns: 4
    player: Ben
    COT COT COT COT
    FAR CHA CHA .
    TAV TAV .   .
    THE W   .   .
    turns: 3

The buildings line comes first: the Cottage and one card of each pile. Then each player:
'player: NAME', optionally 'monument: NAME' (the monument they BUILT), and the town as 4
rows of 4 squares: a building's three-letter code (COT FAR GRA GRE ORC WEL FOU MIL SHE THE
BAK MAR TAI CHA ABB CLO TEM TAV ALM FEA INN FAC BAN TRA WAR) or its name without spaces
(FeastHall), MON for the monument, and '.' or a resource (wood, W, ...) for a square
without a building. Optional lines in a player's block:

    turns: N       turns as Master Builder (a tie-break; default 0)
    warehouse: N   cubes stored on the player's Warehouses (-1 each)
    shrine: N      Shrine of the Elder Tree: buildings in the town when it was built,
                   itself included (needed with the Shrine)
    finished: N    The Starloom: 1 = first town completed (needed with the Starloom;
                   towns completed in the same round share a place)
    right feast halls: N
                   only when ONE town of a bigger game is typed: the Feast Halls in the
                   town of the player on its right (a Feast Hall scores 3 instead of 2 when the town has more);
                   the town is then not scored as a solo town (no solo rank)

Before the players, 'readings: market-row-and-column' and/or 'mandras-8-around' select
the other reading of those cards. Players are listed in seat order (the player on your
right is the one listed before you; the first player's right is the last). The result
is the score sheet per building kind, the monument and the empty squares, ranked with
the rulebook's tie-breaks: fewest Master Builder turns, fewest empty squares, most cottages.
One town typed alone is a solo town (its rank is shown) unless it has 'right feast halls:'."""

_EMPTY_TOKENS = {".", "-", "_", *C.RESOURCES, *(letter.lower() for letter in C.RESOURCE_LETTERS)}
_BUILDING_TOKENS: dict[str, str] = {}
for _name, _code in C.CODES.items():
    _BUILDING_TOKENS[_code.lower()] = _name
    _BUILDING_TOKENS[_name.replace(" ", "").lower()] = _name
_MONUMENTS_LOWER = {name.lower(): name for name in C.MONUMENTS}
_READINGS = (READING_MARKET_BOTH, READING_MANDRAS_AROUND)


class _Player:
    def __init__(self, name: str, line: int) -> None:
        self.name = name
        self.line = line
        self.rows: list[list[str]] = []
        self.monument: str | None = None
        self.warehouse = 0
        self.shrine: int | None = None
        self.finished: int | None = None
        self.turns = 0
        self.right_feast_halls: int | None = None


def _number(value: str, line: int, what: str) -> int:
    if not value.isdigit():
        raise BadInput(f"{what} must be a whole number, not '{value}'", line=line)
    return int(value)


def _buildings_line(value: str, line: int) -> tuple[str, ...]:
    names = [v.strip() for v in value.replace(";", ",").split(",") if v.strip()]
    found: list[str] = []
    for raw in names:
        name = _BUILDING_TOKENS.get(raw.replace(" ", "").lower())
        if name is None:
            raise BadInput(f"'{raw}' is not a Tiny Towns building card", line=line)
        found.append(name)
    if "Cottage" not in found:
        found.insert(0, "Cottage")
    by_pile = {C.BUILDINGS[n].colour: n for n in found if n != "Cottage"}
    if len(found) != 1 + len(C.PILES) or len(by_pile) != len(C.PILES):
        raise BadInput("the buildings line names the Cottage and one card of each of the six piles", line=line)
    return ("Cottage", *(by_pile[pile] for pile in C.PILES))


def score_text(text: str) -> Result:
    """Score the towns in ``text`` (format: :data:`HELPER_FORMAT`); BadInput(msg, line=n) on a problem."""
    buildings: tuple[str, ...] | None = None
    readings: set[str] = set()
    players: list[_Player] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        value = value.strip()
        if sep and key == "buildings":
            if buildings is not None or players:
                raise BadInput("the buildings line comes once, before the players", line=number)
            buildings = _buildings_line(value, number)
            continue
        if sep and key in ("readings", "variants"):
            for word in value.replace(",", " ").split():
                if word.lower() not in _READINGS:
                    raise BadInput(f"unknown reading '{word}'; readings: {', '.join(_READINGS)}", line=number)
                readings.add(word.lower())
            continue
        if sep and key == "player":
            if buildings is None:
                raise BadInput("start with the buildings line: buildings: Cottage, Farm, ...", line=number)
            players.append(_Player(value or f"player {len(players)}", number))
            continue
        if not players:
            raise BadInput("expected 'buildings: ...' or 'player: NAME' here", line=number)
        player = players[-1]
        if sep and key == "monument":
            name = _MONUMENTS_LOWER.get(value.lower())
            if name is None:
                raise BadInput(f"'{value}' is not a Tiny Towns monument", line=number)
            player.monument = name
        elif sep and key == "warehouse":
            player.warehouse = _number(value, number, "warehouse cubes")
        elif sep and key == "shrine":
            player.shrine = _number(value, number, "the Shrine's building count")
        elif sep and key == "finished":
            player.finished = _number(value, number, "the completion place")
        elif sep and key == "turns":
            player.turns = _number(value, number, "Master Builder turns")
        elif sep and key.replace("-", " ").replace("_", " ") == "right feast halls":
            player.right_feast_halls = _number(value, number, "the Feast Halls of the player on the right")
        elif sep:
            raise BadInput(
                f"unknown line '{key}:'; expected monument, warehouse, shrine, finished, turns or right feast halls",
                number,
            )
        else:
            player.rows.append(_grid_row(line, number, buildings or (), player))
    if not players:
        raise BadInput("no players: add 'player: NAME' and the town's 4 rows")
    if buildings is None:  # cannot happen: a player line needs the buildings line first
        raise BadInput("start with the buildings line: buildings: Cottage, Farm, ...")
    _check_across_players(players)
    towns = [_facts(player, buildings) for player in players]
    right = players[0].right_feast_halls if len(players) == 1 else None
    result = score_towns(towns, buildings, frozenset(readings), right_feast_halls=right)
    result.details["names"] = [p.name for p in players]
    result.details["buildings"] = list(buildings)
    return result


def _grid_row(line: str, number: int, buildings: tuple[str, ...], player: _Player) -> list[str]:
    if len(player.rows) == C.TOWN_SIZE:
        raise BadInput(f"{player.name}'s town already has {C.TOWN_SIZE} rows", line=number)
    tokens = line.split()
    if len(tokens) != C.TOWN_SIZE:
        raise BadInput(f"a town row has {C.TOWN_SIZE} squares, this one has {len(tokens)}", line=number)
    row: list[str] = []
    for token in tokens:
        low = token.lower()
        if low in _EMPTY_TOKENS:
            row.append("")
        elif low == C.MONUMENT_CODE.lower():
            if player.monument is None:
                raise BadInput("MON stands for the monument: give 'monument: NAME' first", line=number)
            row.append(player.monument)
        elif low in _BUILDING_TOKENS:
            name = _BUILDING_TOKENS[low]
            if name not in buildings:
                raise BadInput(f"{name} is not in this game's building set ({', '.join(buildings)})", line=number)
            row.append(name)
        else:
            raise BadInput(f"'{token}' is not a building code, MON, '.' or a resource", line=number)
    return row


def _check_across_players(players: list[_Player]) -> None:
    """What one town cannot show alone: a monument is built by one player only (each player's two
    monument cards are their own), and 'finished:' places run from 1 to the number of towns typed
    (1 to 6 when one town is typed alone)."""
    owner: dict[str, _Player] = {}
    for player in players:
        if player.monument is None:
            continue
        if player.monument in owner:
            first = owner[player.monument]
            raise BadInput(
                f"{player.name} and {first.name} both built {player.monument}: each monument is built once",
                line=player.line,
            )
        owner[player.monument] = player
    if len(players) > 1:
        for player in players:
            if player.right_feast_halls is not None:
                raise BadInput(
                    f"{player.name}: 'right feast halls:' is only for one town typed alone; with several"
                    " towns the player on the right is the one listed before",
                    line=player.line,
                )
    # One town typed alone may come from a bigger game; several towns typed are the whole table.
    places = len(players) if len(players) > 1 else C.MAX_PLAYERS
    for player in players:
        if player.finished is not None and not 1 <= player.finished <= places:
            raise BadInput(
                f"{player.name} finished {player.finished}: with {places} towns the places are 1 to {places}",
                line=player.line,
            )


def _facts(player: _Player, buildings: tuple[str, ...]) -> TownFacts:
    if len(player.rows) != C.TOWN_SIZE:
        raise BadInput(f"{player.name}'s town has {len(player.rows)} rows, not {C.TOWN_SIZE}", line=player.line)
    grid = [name for row in player.rows for name in row]
    monuments = [name for name in grid if name in C.MONUMENTS]
    if len(monuments) > 1:
        raise BadInput(f"{player.name}'s town shows the monument twice: a monument is built once", line=player.line)
    monument = monuments[0] if monuments else None
    if player.monument and not monument:
        raise BadInput(f"{player.name} built {player.monument}: put MON on its square", line=player.line)
    if player.warehouse and "Warehouse" not in grid:
        raise BadInput(f"{player.name} stores cubes but has no Warehouse", line=player.line)
    capacity = C.WAREHOUSE_CAPACITY * grid.count("Warehouse")
    if player.warehouse > capacity:
        raise BadInput(f"{player.name}'s Warehouses hold at most {capacity} cubes", line=player.line)
    shrine_vp = 0
    if monument == "Shrine of the Elder Tree":
        if player.shrine is None:
            raise BadInput("Shrine of the Elder Tree: add 'shrine: N' (buildings when it was built)", line=player.line)
        shrine_vp = C.SHRINE_TABLE[min(player.shrine, len(C.SHRINE_TABLE) - 1)]
    place = 0
    if monument == "The Starloom":
        if player.finished is None or player.finished < 1:
            raise BadInput("The Starloom: add 'finished: N' (1 = first town completed)", line=player.line)
        place = player.finished
    return TownFacts(
        grid=grid,
        monument=monument,
        warehouse_cubes=player.warehouse,
        shrine_vp=shrine_vp,
        starloom_place=place,
        mb_turns=player.turns,
    )
