"""What both game loops read from the rule spec besides its shape options: the forms
only the Python loop plays, the joker indicator going back into play, 过水 / 漏和 and
whether the bots check their waits with THE predicate (:func:`min_aware`) and whether a
win reads which flowers the winner holds (:func:`flower_faces`)."""
from __future__ import annotations

import numpy as np


_ALL_PAIRS = (1 << 34) - 1


def _shape_extra(model) -> bool:
    """The model has a shape outside the core that only the Python loop plays (十三烂-like
    extra forms; honour chows, :attr:`RuleSpec.honor_chows
    <majiang.rules.model.RuleSpec.honor_chows>`: the compiled loop's shape check and
    chow claims know suited chows only); all_258 (将将胡 of any shape) is not one: the
    compiled loop checks its shape itself (every tile a 2, 5 or 8, ``FastHand.only258``)
    as the Python loop does with :func:`~majiang.scoring.waiting.beyond_core`, and THE
    predicate decides."""
    return bool(set(model.extra_forms) - {"all_258"}) or model.honor_chows


def _beyond_forms(model) -> bool:
    """The model has a form the compiled shape check does not know (十三烂-like extra
    forms, 将将胡 of any shape, honour chows): :func:`~majiang.scoring.waiting.beyond_core`
    is asked beside it."""
    return bool(model.extra_forms) or model.honor_chows


def _indicator_back(jr, model, t) -> bool:
    """Whether the turned indicator ``t`` goes back into play: the turned kind itself is
    wild (``source="turned"``) with every copy wild (:attr:`JokerRule.copies` = the
    kind's copies, 南昌 正精; :meth:`GameModel.wall` then keeps no natural copy)."""
    return jr.source == "turned" and int(jr.copies) >= int(model.copies[int(t)])


def _indicator_back_possible(jr, model) -> bool:
    """Some indicator goes back into play (:func:`_indicator_back`); the compiled loop
    always sets the turned tile aside, so such rulesets play in the Python loop."""
    return jr.source == "turned" and int(jr.copies) >= int(np.max(model.copies))


def _pass_lock(rs):
    """过水 / 漏和 of the ruleset (:attr:`Ruleset.pass_lock`): None, ``"kind"`` (Shandong
    不能弃先和后: the passed kind, :func:`majiang.rules.shandong.may_win`) or ``"all"``
    (Guangdong 漏和: every win on a discard until the player's own turn)."""
    return getattr(rs, "pass_lock", "") or None


def min_aware(model) -> bool:
    """Whether the efficiency bot checks its tenpai waits with THE predicate
    (:func:`~majiang.game.players.pick_valid_wait`): under the ruleset a complete shape
    of the bots' shape options may still not win when self-drawn: the rule spec's shape
    options are not exact (:meth:`RuleSpec.shape <majiang.rules.model.RuleSpec.shape>`:
    a minimum in fan or in points (螺山 100 / 200, 天津 2, 温州 / 罗源 1), a constraint
    beyond the shape such as 二五八将 for a small win or 八枝, extra forms)."""
    return not model.shape(()).exact


_TAGS: dict = {}


def _fan_tags(model) -> frozenset:
    """Every tag of the ruleset's fans, read once per ruleset (both loops ask per hand)."""
    rs = model.ruleset
    got = _TAGS.get(id(rs))
    if got is None or got[0] is not rs:
        got = _TAGS[id(rs)] = (rs, frozenset(t for f in rs.fans for t in f.tags))
    return got[1]


_FLOWERS: dict = {}


def _flower_facts(model) -> tuple:
    """``(flower_faces, seven_rob_one, flower_win)`` of the model, read once per model
    (both loops ask per hand)."""
    got = _FLOWERS.get(id(model))
    if got is None or got[0] is not model:
        from ...rules.fans import FLOWER_FACES, FLOWER_WIN, ROB_FLOWER
        eight, tags = model.n_flowers == 8, _fan_tags(model)
        got = _FLOWERS[id(model)] = (model, (eight and FLOWER_FACES in tags,
                                             eight and ROB_FLOWER in tags,
                                             eight and FLOWER_WIN in tags))
    return got[1]


def discard_win(model) -> bool:
    """Whether a seat's own discards can make it win at once (出牌即胡: a fan tagged
    :data:`~majiang.rules.fans.DISCARD_WIN`, 云南 十风).  The Python loop plays it after
    each discard (:class:`~.wins.DiscardWinResult`, how ``"discard_win"``); a compiled
    hand where one may have happened is played again by the Python loop
    (:func:`discard_win_possible`)."""
    from ...rules.fans import DISCARD_WIN
    return DISCARD_WIN in _fan_tags(model)


def discard_win_possible(model, seats) -> bool:
    """Whether a hand the compiled loop played to its end may hold a discard win
    (:func:`discard_win`) it did not stop for; :func:`~.play.play_hand` then plays it again
    in the Python loop (the same moves up to there), which does.  ``seats``: the final
    seats (``discards``: the tiles still in each pool, in order; ``melds`` with ``frm``,
    the seat a claimed tile came from).  An over-estimate: each seat's discards are its
    pool with its claimed discards put first as -1 (a kind not known, which the fans'
    predicates count as any kind, :data:`~majiang.rules.fans.DISCARD_WIN`), and no
    melds."""
    from types import SimpleNamespace

    from ...rules.fans import DISCARD_WIN
    fans = [f for f in model.ruleset.fans if DISCARD_WIN in f.tags]
    claimed = [0] * len(seats)
    for s in seats:
        for m in s.melds:
            if m.get("frm") is not None:
                claimed[int(m["frm"])] += 1
    for p, s in enumerate(seats):
        view = SimpleNamespace(discards=(-1,) * claimed[p] + tuple(int(t) for t in s.discards),
                               melds=0, context=None)
        if any(f.predicate(view) for f in fans):
            return True
    return False


def ready_kinds(model) -> tuple:
    """The ready declarations (报听) the game engine plays under the model's ruleset, a
    tuple of ``"concealed"`` / ``"open"`` (:data:`majiang.winning.READY_DECLARATIONS`),
    empty when declaring changes nothing:

    * ``Ruleset.ready == "none"``: none;
    * ``"concealed"`` where a fan is tagged :data:`~majiang.rules.fans.READY_CONCEALED`
      (山东 暗楼) or the ruleset requires a declaration to win (``ready="required"``: 保定,
      立四);
    * ``"open"`` (the hand shown, self-draw only) where a fan is tagged
      :data:`~majiang.rules.fans.READY_OPEN` (山东 明楼, 海南 推倒胡 明摸 / 明打);
    * ``"deal"`` (天听, on the dealt hand) where a fan is tagged
      :data:`~majiang.rules.fans.READY_DEAL` (贵州 天听, 南京 地胡);
    * ``"first_draw"`` (地听 / 软报, with the discard right after the seat's first draw)
      where a fan is tagged :data:`~majiang.rules.fans.READY_FIRST_DRAW` (贵州 地听).

    The first two are offered with any discard that leaves the hand ready, the last two
    only at their moment (:mod:`.declare`).

    An ``"optional"`` declaration that no fan or payment reads is not played (MCR and the
    other rulesets whose sources name no value for it): declaring would only lock the
    hand.  The Python loop plays declarations; the compiled loop leaves such rulesets to it
    (:func:`~.fast.fast_eligible`)."""
    rs = model.ruleset
    if rs is None or rs.ready == "none":
        return ()
    from ...rules.fans import READY_CONCEALED, READY_DEAL, READY_FIRST_DRAW, READY_OPEN
    tags = _fan_tags(model)
    out = []
    if rs.ready == "required" or READY_CONCEALED in tags:
        out.append("concealed")
    for kind, tag in (("open", READY_OPEN), ("deal", READY_DEAL),
                      ("first_draw", READY_FIRST_DRAW)):
        if tag in tags:
            out.append(kind)
    return tuple(out)


def flower_faces(model) -> bool:
    """Whether the value of a win reads which flowers the winner holds, not only how many
    (a fan tagged :data:`~majiang.rules.fans.FLOWER_FACES`: 台湾 正花 / 花槓) and the tile
    set's non-playing tiles are the eight flowers ``1f``..``8f`` (physical tile 34 + i is
    flower i): both loops then give the hand they score the seat's flowers."""
    return _flower_facts(model)[0]


def seven_rob_one(model) -> bool:
    """Whether a seat holding seven flowers robs the eighth (台湾 七搶一: a fan tagged
    :data:`~majiang.rules.fans.ROB_FLOWER`) with the eight flowers of the tile set: once
    every flower is out, one seat holding seven and another one, the seven-flower seat
    wins at once and the other pays it.  Played by the Python loop; a compiled hand that
    ends with flowers split seven and one is played again by it
    (:func:`~.play.play_hand`)."""
    return _flower_facts(model)[1]


def rob_split(counts) -> tuple | None:
    """``(winner, robbed)`` when the flower counts per seat are seven and one (every one
    of the eight out), else None (台湾 七搶一)."""
    counts = list(counts)
    if sum(counts) != 8 or sorted(counts)[-2:] != [1, 7]:
        return None
    return counts.index(7), counts.index(1)


def flower_win(model) -> bool:
    """Whether a seat that holds every flower wins at once (台湾 八仙過海: a fan tagged
    :data:`~majiang.rules.fans.FLOWER_WIN`) with the eight flowers of the tile set.  The
    Python loop plays it; a compiled hand in which a seat ends with every flower is
    played again by the Python loop (:func:`~.play.play_hand`)."""
    return _flower_facts(model)[2]
