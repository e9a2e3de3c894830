"""Wild tiles: a hand read by its faces under a joker ruleset (:func:`read_faces`,
the one notation of every front door), the turned indicator's checks, stand-ins, and the
core's ukeire under known wild kinds (:func:`_with_wild`)."""
from __future__ import annotations

from typing import Any

import numpy as np

from .._core import efficiency as _eff
from ..errors import InvalidHandError, RuleError
from ..hand import Hand, as_hand
from ..tiles import N_KINDS, tile_name
from ._ruleset import _get_ruleset


def _check_indicator(hand: Any, ruleset: Any, indicator: Any) -> Any:
    """The hand with its wild tiles read from their faces (:func:`read_faces`), after
    checking a turned `indicator`: a tile (also under a ruleset whose jokers do not need
    one, or without a ruleset), in the ruleset's tile set, and refused for a fixed joker.

    Raises
    ------
    RuleError, InvalidNotationError
        An indicator that is not a tile, not in the tile set, or given for a fixed joker.
    InvalidHandError
        As :func:`read_faces`.
    """
    if indicator is None:
        return read_faces(hand, ruleset, None)
    from ..rules.model import _kind_of, game_model
    _kind_of(indicator)     # a tile even where nothing reads it (40, 'zz': errors)
    if ruleset is None:
        return hand
    model = game_model(ruleset)
    if model.jokers is None:
        return hand
    if model.jokers.flowers:
        raise RuleError(f"{model.name}'s jokers are its flowers (花鬼): no indicator is "
                        "turned; leave the indicator out")
    if model.jokers.source == "fixed":
        raise RuleError(f"{model.name}'s joker kind is fixed ({tile_name(model.jokers.fixed)}):"
                        " no indicator is turned; leave the indicator out")
    return read_faces(hand, ruleset, indicator)


def read_faces(hand: Any, ruleset: Any, indicator: Any = None) -> Any:
    """A hand written as its tiles look, read under a joker ruleset: the one notation of
    every front door (shanten, ukeire, discard tables, advise, the probabilities, the
    scoring through :mod:`majiang.scoring.faces`).

    Once the wild kinds are known (:meth:`GameModel.joker_kinds`: a fixed joker such as
    杭州 白板, or the turned `indicator`: 天津 1m turned = 1m and 2m 混儿), every concealed
    tile of a wild kind IS a joker, exactly as a ``*`` (a joker whose face is not given);
    both may be mixed.  A stand-in (:attr:`JokerRule.substitute`: 安庆 红中, 温州 / 上海百搭
    活动百搭 / 杭州 翻财神 白板) is written as the tile it is (``7z``, ``5z``) and plays as
    the wild kind's face, in the concealed tiles and in a pung or kong.  Without a ruleset,
    without jokers, or with a turned joker and no indicator, the hand is returned as given.

    Returns
    -------
    Hand or the input
        A :class:`~majiang.hand.Hand` with the wild faces moved to ``jokers`` and the
        stand-ins moved to the face; the input itself when nothing changes (and for a
        count vector, which has no place for jokers: pass ``jokers=``).

    Raises
    ------
    InvalidHandError
        More tiles of a wild kind than its wild copies in play (天津 1m turned: 3), more
        jokers than the ruleset has, or more stand-ins than the wall holds.
    """
    if ruleset is None or not isinstance(hand, (str, Hand)):
        if indicator is not None and ruleset is not None and not isinstance(hand, (str, Hand)):
            _refuse_wild_counts(hand, ruleset, indicator)
        return hand
    jr = _get_ruleset(ruleset).jokers
    if jr is None or jr.flowers or (indicator is None and jr.needs_indicator):
        return hand                 # (花鬼: no face is wild, a flower is written '*')
    from ..rules.model import game_model
    model = game_model(ruleset)
    h = hand if isinstance(hand, Hand) else as_hand(hand, strict=False)
    kinds = model.joker_kinds(indicator)
    wall = model.wall(indicator)
    conc = np.array(h.concealed, dtype=np.uint8)
    melds = h.melds
    moved = 0
    for k, cp in zip(kinds, jr.kind_copies):
        n = int(conc[k])
        if n > cp:
            ind = "" if indicator is None else f" with indicator {tile_name(_kind(indicator))}"
            raise InvalidHandError(
                f"the hand holds {n} {tile_name(k)}: under {model.name}{ind} they are "
                f"jokers and {cp} of them are in play")
        moved += n
        conc[k] = 0
    sub = jr.substitute
    face = kinds[0]
    changed_melds = False
    if sub is not None and len(kinds) == 1 and sub != face:
        stand = int(conc[sub]) + sum(m.tiles.count(sub) for m in melds)
        if stand > int(wall.counts[face]):
            raise InvalidHandError(
                f"the hand holds {stand} {tile_name(sub)}: under {model.name} they are "
                f"stand-ins playing as {tile_name(face)}, and the wall holds "
                f"{int(wall.counts[face])}")
        if conc[sub]:
            conc[face] += conc[sub]
            conc[sub] = 0
            changed_melds = True
        if any(m.tile == sub and m.kind != "chow" for m in melds):
            from ..rules.shapes import melds_as_face
            melds = melds_as_face(melds, face, sub)
            changed_melds = True
    if not moved and not changed_melds:
        return hand
    if h.jokers + moved > wall.jokers:
        raise InvalidHandError(f"{h.jokers + moved} jokers ('*' and wild faces) but "
                               f"{model.name} has {wall.jokers}")
    return Hand(conc, melds, h.flowers, h.jokers + moved)


def wild_faces(hand: Any, ruleset: Any, indicator: Any = None) -> np.ndarray | None:
    """``uint8 (34,)``: the concealed tiles of the wild kinds as written (their faces), read
    before :func:`read_faces` turns them into jokers; None without jokers, without known
    wild kinds (a turned joker and no indicator), for a count vector or a hand that
    :func:`read_faces` refuses (it says what is wrong).  A face matters where a wild tile
    may stand for its own face (南昌 德国, :attr:`JokerRule.own_face_natural`: in 十三烂 /
    七星, which take no joker, it plays as that natural tile)."""
    if ruleset is None or not isinstance(hand, (str, Hand)):
        return None
    from ..errors import MahjongError
    from ..rules.model import game_model
    try:
        model = game_model(ruleset)
        if model.jokers is None or (indicator is None and model.jokers.needs_indicator):
            return None
        h = hand if isinstance(hand, Hand) else as_hand(hand, strict=False)
        kinds = model.joker_kinds(indicator)
    except MahjongError:
        return None
    out = np.zeros(N_KINDS, dtype=np.uint8)
    for k in kinds:
        out[int(k)] = h.concealed[int(k)]
    return out


def _kind(x: Any) -> int:
    from ..rules.model import _kind_of
    return _kind_of(x)


def _stand_in_names(ruleset: Any, indicator: Any) -> dict:
    """``{face name: stand-in name}`` when a stand-in plays as the wild kind's face under
    `ruleset` and `indicator` (安庆 红中 as the 钻牌's face; :func:`read_faces` moved the
    held stand-ins to the face, whose other copies are all jokers): a discard of the face
    is a discard of the stand-in, shown by the tile's own name.  Empty otherwise."""
    if ruleset is None:
        return {}
    rs = _get_ruleset(ruleset)
    if rs.jokers is None or rs.jokers.substitute is None:
        return {}
    from ..rules.shapes import stand_in
    si = stand_in(rs, indicator)
    return {} if si is None else {tile_name(si[0]): tile_name(si[1])}


def _refuse_wild_counts(hand: Any, ruleset: Any, indicator: Any) -> None:
    """A count vector (34,) has no place for jokers: a wild kind in it is refused, beyond
    the stand-ins the wall holds (安庆: a count of the 钻牌's face is a 红中 playing as it)."""
    from ..rules.model import game_model
    model = game_model(ruleset)
    if model.jokers is None or not model.jokers.needs_indicator:
        return
    conc = np.asarray(hand)
    if conc.shape != (N_KINDS,):
        return
    wall = model.wall(indicator)
    for k in wall.joker_kinds:
        if int(conc[k]) > int(wall.counts[k]):
            raise InvalidHandError(
                f"the counts hold {int(conc[k])} {tile_name(k)}, a wild kind under "
                f"indicator {tile_name(_kind(indicator))}: count its copies in jokers=")


def _with_wild(counts, live, s, mask, quads, caps, vis, jokers, fifth, extra, jr, indicator,
               ruleset=None):
    """The core's ukeire under known wild kinds (as :func:`majiang.rules.shapes.ruleset_ukeire`
    lists them): the wild kinds' faces are not draws of their own; a joker draw that
    lowers the shanten is keyed ``"<kinds>*"`` with the wild copies left (minus the jokers
    held and the wild copies visible).  With a substitute kind (白板 under 上海百搭 活动百搭,
    杭州 flip; :func:`majiang.rules.shapes.stand_in`) a drawn substitute plays as the
    face: when the face would help it is listed under the substitute's own name, live =
    the face's drawable copies − face tiles held − visible substitutes."""
    from ..rules.shapes import joker_draw_left, listed_draws, named_draws, stand_in
    if jr.flowers:      # 花鬼: no wild kind; a flower draw is a joker, the flowers not held
        out = {tile_name(k): int(live[k]) for k in np.flatnonzero(live >= 0)}
        if jokers < jr.copies and _eff.shanten_one(counts, mask, quads, caps, jokers + 1,
                                                   fifth, **extra) < s:
            out["*"] = int(jr.copies) - int(jokers)
        return out
    kinds = jr.kinds(indicator)
    jk, jcopies = (kinds, jr.kind_copies) if len(kinds) > 1 else (kinds[0], jr.total_copies)
    si = None
    copies = caps_t = (4,) * N_KINDS                # plain shapes: the 136 / 144 sets
    if ruleset is not None:
        rs = _get_ruleset(ruleset)
        if jr.substitute is not None:
            si = stand_in(rs, indicator)
        if caps is not None:
            copies, caps_t = rs.copies, caps
    better = {int(k) for k in np.flatnonzero(live >= 0)}
    joker_better = (joker_draw_left(jk, jcopies, jokers)
                    and _eff.shanten_one(counts, mask, quads, caps, jokers + 1, fifth,
                                         **extra) < s)
    return named_draws(listed_draws(better, joker_better, counts, caps_t, copies, vis, jk,
                                    jcopies, si, jokers), jk)
