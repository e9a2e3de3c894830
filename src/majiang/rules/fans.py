"""Shared fan predicates for the regional rulesets (over a :class:`WinningHand`).

Each helper is a small pure function; regional modules build their fan tables
from them with :func:`fan`.  Jokers: when :mod:`majiang.scoring.regional` scores a
hand with jokers it replaces each joker by the kind it stands for and publishes the
assignment through :data:`JOKERS` (read with :func:`joker_info`, both defined in
:mod:`.assignment`), so fans such as 硬 (no jokers), 金雀 or 七对有钻 can see them.
"""
from __future__ import annotations

from .assignment import JOKERS, joker_info
from .base import Fan
from ..tiles import KINDS_258, MASK_258
from .shapes import Spec, core_shanten_counts, meld_suits

__all__ = ["JOKERS", "joker_info", "fan", "big_shapes", "shape_families",
           "BIG_SHAPE_FAMILIES"]

def fan(id, chinese, english, value, predicate, excludes=(), forms=None, tags=(), source="",
        fallback=False, minimum=True, reduces=()) -> Fan:
    if fallback:
        predicate = never          # a fallback fan is counted only when nothing else is
    return Fan(id, chinese, english, value, predicate=predicate, excludes=frozenset(excludes),
               forms=forms, tags=frozenset(tags), source=source, fallback=fallback,
               minimum=minimum, reduces=reduces)


# ---------------------------------------------------------------- tiles
def suits(w) -> set:
    return {t // 9 for t in w.kinds if t < 27}


def has_honors(w) -> bool:
    return w.kinds[-1] >= 27


def flush(w) -> int:
    """清一色: one suit, no honors."""
    return int(len(suits(w)) == 1 and not has_honors(w))


def half_flush(w) -> int:
    """混一色: one suit plus honors."""
    return int(len(suits(w)) == 1 and has_honors(w))


def all_honors(w) -> int:
    return int(not suits(w))


def all_258(w) -> int:
    """将一色/将将胡: every tile a 2, 5 or 8."""
    return int(all(t in KINDS_258 for t in w.kinds))


def no_terminals(w) -> int:
    """断幺九/中张: no 1, 9 or honor."""
    return int(all(t < 27 and t % 9 not in (0, 8) for t in w.kinds))


def quads_in_hand(w) -> int:
    """根: kinds of which the hand holds all four (kong, pung + 1, or four concealed)."""
    return sum(1 for c in w.counts if c == 4)


# ---------------------------------------------------------------- shapes
def regular(w) -> bool:
    return w.form == "regular"


def all_pungs(w) -> int:
    """碰碰和/对对胡: four (five) pungs or kongs and a pair."""
    return int(w.form == "regular" and not w.chows)


def all_chows(w) -> int:
    return int(w.form == "regular" and not w.pungs)


def seven_pairs(w) -> int:
    return int(w.form == "seven_pairs")


def seven_pairs_quads(w) -> int:
    """Quads (four of a kind) inside seven pairs: 龙/豪华 count."""
    if w.form != "seven_pairs":
        return 0
    p = w.pairs
    return sum(1 for i in range(1, len(p)) if p[i] == p[i - 1])


def pair_258(w) -> bool:
    return w.pair in KINDS_258


def outside(w) -> int:
    """带幺九: every set and the pair hold a 1 or 9."""
    if w.form != "regular":
        return 0
    def term(t):
        return t < 27 and t % 9 in (0, 8)
    for s in w.sets:
        if s.kind == "chow":
            if s.tile % 9 not in (0, 6):
                return 0
        elif not term(s.tile):
            return 0
    return int(term(w.pair))


def straight(w) -> int:
    """一条龙: 123 456 789 of one suit as chows."""
    ch = w.chows
    for b in (0, 9, 18):
        if b in ch and b + 3 in ch and b + 6 in ch:
            return 1
    return 0


def dragon_pungs(w) -> int:
    return sum(1 for t in w.pungs if t >= 31)


def wind_pungs(w) -> int:
    return sum(1 for t in w.pungs if 27 <= t <= 30)


def concealed(w) -> int:
    """门清: no claimed meld (a concealed kong keeps the hand concealed)."""
    return int(w.n_exposed == 0)


def single_left(w) -> int:
    """金钩钓/大吊车/手把一: everything melded, a single tile waited on for the pair."""
    return int(w.hand.n_concealed + w.hand.jokers == 1 or
               (w.hand.n_concealed == 1 and w.form == "regular"))


def melded_all(w) -> int:
    """全求人: every set claimed and the single wait won on a discard."""
    return int(single_left(w) and w.n_exposed == len(w.hand.melds) and len(w.hand.melds) > 0
               and not w.context.self_drawn)


def exposed_kongs(w) -> int:
    return sum(1 for m in w.hand.melds if m.kind == "kong" and not m.concealed)


def concealed_kongs(w) -> int:
    return sum(1 for m in w.hand.melds if m.kind == "kong" and m.concealed)


def kongs(w) -> int:
    return exposed_kongs(w) + concealed_kongs(w)


# ---------------------------------------------------------------- the win
def self_drawn(w) -> int:
    return int(w.context.self_drawn)


def kong_flower(w) -> int:
    return int(w.context.kong_replacement)


def kong_chain(w) -> int:
    """杠开 once per kong of the unbroken chain the win ends (杭州 ×2 each): the win
    context's :attr:`~majiang.winning.WinContext.kong_chain` (at least 1) on a kong
    replacement win, else 0."""
    ctx = w.context
    return max(1, ctx.kong_chain) if ctx.kong_replacement else 0


KONG_CHAIN = "kong_chain"
"""Tag of a fan that reads :attr:`WinContext.kong_chain <majiang.winning.WinContext.kong_chain>`
(the kongs made in a row before a win on the last one's replacement, 杭州 杠开 ×2 per kong,
:func:`kong_chain`): the compiled game loop counts the kongs in play only for a ruleset with
such a fan or with kong payments (:func:`majiang.game.engine.kongs.kongs_read`)."""


def robbing(w) -> int:
    return int(w.context.robbing_kong)


def kong_discard(w) -> int:
    """杠上炮 / 杠后炮: won on the discard its discarder made right after his own kong
    (:attr:`majiang.winning.WinContext.kong_discard`)."""
    return int(w.context.kong_discard)


def flower_replacement(w) -> int:
    """A self-draw on the tile drawn for a flower (花上添花;
    :attr:`majiang.winning.WinContext.flower_replacement`)."""
    return int(w.context.flower_replacement)


def kong_flower_claimed(w) -> int:
    """A win on the replacement of a kong made on another's discard (南京 大杠开花;
    :attr:`majiang.winning.WinContext.kong_claimed`)."""
    return int(w.context.kong_replacement and w.context.kong_claimed)


def kong_flower_own(w) -> int:
    """A win on the replacement of a kong of one's own tiles — a concealed kong or a pung
    made up with a drawn tile (南京 小杠开花)."""
    return int(w.context.kong_replacement and not w.context.kong_claimed)


def last_tile(w) -> int:
    """海底: won on the last tile, drawn or discarded."""
    return int(w.context.last_tile)


def declared_concealed(w) -> int:
    """暗楼: the winner had declared ready, the hand not shown
    (:attr:`majiang.winning.WinContext.declared_ready` ``"concealed"``)."""
    return int(w.context.declared_ready == "concealed")


def declared_open(w) -> int:
    """明楼 / 明摸: the winner had declared ready with the hand shown (a self-draw;
    :attr:`majiang.winning.WinContext.declared_ready` ``"open"``)."""
    return int(w.context.declared_ready == "open")


def declared_on_deal(w) -> int:
    """天听: the winner had declared ready on the dealt hand
    (:attr:`majiang.winning.WinContext.declared_ready` ``"deal"``)."""
    return int(w.context.declared_ready == "deal")


def declared_first_draw(w) -> int:
    """地听 / 软报: the winner had declared ready with the discard right after his first draw
    (:attr:`majiang.winning.WinContext.declared_ready` ``"first_draw"``)."""
    return int(w.context.declared_ready == "first_draw")


def discarder_declared(w) -> int:
    """明打: the win is on the discard of a player who had declared ready
    (:attr:`majiang.winning.WinContext.discarder_ready`)."""
    return int(w.context.discarder_ready)


def last_self(w) -> int:
    return int(w.context.last_tile and w.context.self_drawn)


def last_discard(w) -> int:
    return int(w.context.last_tile and not w.context.self_drawn)


def dealer(w) -> int:
    return int(w.context.seat_wind == 0)


FLOWER_FACES = "flower_faces"
"""Tag of a fan that reads which flowers the winner holds (:attr:`Hand.flowers
<majiang.hand.Hand.flowers>`), not only how many: the game engine then gives the hand it
scores the seat's flowers (台湾 正花 / 花槓)."""


FLOWER_WIN = "flower_win"
"""Tag of the fans a flower win counts (台湾 八仙過海: a seat that holds every flower wins at
once).  A ruleset with such a fan plays flower wins in the game engine, which counts the
fans so tagged on the win's context alone (no hand: their predicates read only
``w.context`` and ``w.hand.flowers``)."""

DISCARD_WIN = "discard_win"
"""Tag of the fans a discard win counts (出牌即胡, 云南 十风: a seat's own discards make it win
at once, on the discard that completes them).  A ruleset with such a fan plays discard wins
in the game engine (:func:`~majiang.game.engine.facts.discard_win`), which counts the fans
so tagged on a view of the seat alone after each of its discards: ``w.discards`` (every
tile it has discarded, in order, claimed or not), ``w.melds`` (its melds, concealed kongs
included) and ``w.context``; a regular win has no ``discards``.  A discard of kind -1 is
one whose kind is not known (the compiled loop's over-estimate,
:func:`~majiang.game.engine.facts.discard_win_possible`): a predicate counts it as any
kind."""


def ten_honour_discards(w) -> int:
    """十风 (:data:`DISCARD_WIN`): the seat's first ten discards are all honours and it has
    made no call or kong (docs/rules/yunnan.md §3)."""
    d = tuple(getattr(w, "discards", ()))
    return int(len(d) >= 10 and all(k >= 27 or k < 0 for k in d[:10])
               and not getattr(w, "melds", 1))


READY_CONCEALED = "ready_concealed"
"""Tag of a fan that pays a concealed ready declaration (报听, 山东 暗楼): a ruleset with such
a fan lets its players declare ready in the game engine (:func:`~majiang.game.engine.facts.
ready_kinds`); a ruleset whose :attr:`~majiang.rules.Ruleset.ready` is ``"required"`` lets
them declare without one."""

READY_OPEN = "ready_open"
"""Tag of a fan that pays a ready declaration made with the hand shown (山东 明楼, 海南
明摸 / 明打: the declared hand wins only by self-draw): a ruleset with such a fan lets its
players declare ready that way in the game engine."""

READY_DEAL = "ready_deal"
"""Tag of a fan that reads a ready declaration made on the dealt hand (天听: a non-dealer
before the dealer's first discard, the dealer with his first discard; 贵州 天听, 南京 地胡):
a ruleset with such a fan lets its players declare so in the game engine (the ``"deal"``
kind of :func:`~majiang.game.engine.facts.ready_kinds`)."""

READY_FIRST_DRAW = "ready_first_draw"
"""Tag of a fan that reads a ready declaration made with the discard right after the seat's
first draw (贵州 地听 / 软报): a ruleset with such a fan lets its players declare so in the
game engine (the ``"first_draw"`` kind of :func:`~majiang.game.engine.facts.ready_kinds`)."""

ROB_FLOWER = "rob_flower"
"""Tag of a flower-win fan won by robbing the last flower (台湾 七搶一: when every flower is
out, a seat holding seven wins at once and the seat holding the eighth pays it alone).  A
ruleset with such a fan plays it in the game engine (:func:`~majiang.game.engine.facts.
seven_rob_one`); the fan's predicate reads the robbed win (``w.robbed``)."""


def seat_flowers(w) -> int:
    """正花 / 門花: the flowers bearing the seat's number (1 East, 2 South, 3 West, 4 North):
    flowers ``1f``..``4f`` (春夏秋冬) and ``5f``..``8f`` are numbered 1..4 (Taiwanese sets
    print 菊 as 3 and 竹 as 4: the number on the tile decides)."""
    return sum(1 for f in w.hand.flowers if f % 4 == w.context.seat_wind)


def flower_sets(w) -> int:
    """花槓: the full sets of four flowers held (春夏秋冬 ``1f``-``4f``, the four plants
    ``5f``-``8f``)."""
    fs = set(w.hand.flowers)
    return int(fs >= {0, 1, 2, 3}) + int(fs >= {4, 5, 6, 7})


def heavenly(w) -> int:
    """天和 / 天胡: the dealer wins on the dealt tiles (:attr:`WinContext.first_turn`)."""
    return int(w.context.first_turn == "heavenly")


def earthly(w) -> int:
    """地和 / 地胡: a non-dealer wins on its first self-draw, nothing called before."""
    return int(w.context.first_turn == "earthly")


def human(w) -> int:
    """人和 / 人胡: a non-dealer wins on a discard before its own first draw."""
    return int(w.context.first_turn == "human")


def earthly_or_human(w) -> int:
    """地和 read as any non-dealer win in the first go-around before any call (the
    tables without a separate 人和)."""
    return int(w.context.first_turn in ("earthly", "human"))


def edge(w) -> int:
    return int(w.win_position == "edge")


def closed(w) -> int:
    return int(w.win_position == "closed")


def single(w) -> int:
    return int(w.win_position == "pair")


def unique_wait(w) -> int:
    return int(w.win_position in ("edge", "closed", "pair") and w.unique_wait)


def no_jokers(w) -> int:
    return int(joker_info(w)[0] == 0)


def jokers_held(w) -> int:
    return joker_info(w)[0]


def always(w) -> int:
    return 1


def never(w) -> int:
    return 0


def waits_by_shape(w) -> int:
    """Number of kinds that complete the hand before the win (any size, 16-tile too),
    by the regular form, judged by shape (copies visible elsewhere ignored)."""
    h = w.hand
    c = [int(x) for x in h.concealed]
    caps = [4] * 34
    for m in h.melds:
        for t in m.tiles:
            caps[t] -= 1
    spec = Spec(("regular",))
    n = 0
    for k in range(34):
        if c[k] >= caps[k]:
            continue
        c[k] += 1
        if core_shanten_counts(c, jokers=h.jokers, caps=caps, n_melds=len(h.melds), spec=spec,
                               meld_suits=meld_suits(h.melds)) == -1:
            n += 1
        c[k] -= 1
    return n


def single_wait_any_size(w) -> int:
    """獨聽 for any hand size: edge, closed or single wait on exactly one kind."""
    return int(w.win_position in ("edge", "closed", "pair") and waits_by_shape(w) == 1)


# ---------------------------------------------------------------- big-win shapes
BIG_SHAPE_FAMILIES = ("seven_pairs", "all_pungs", "flush", "all_honors", "all_258",
                      "melded_all")
"""Shapes a 大胡 (fan tagged ``"big"``) can give by shape alone, without a situational
context: 七小对 (seven pairs), 碰碰胡 (a regular hand of pungs), 清一色 (a regular hand
of one suit), 风一色 (a regular hand of honors), 将将胡 / 将一色 (every tile a 2, 5 or 8,
any shape: the ``all_258`` form), 全求人 (every set claimed, the pair won on a
discard)."""


def big_shapes(rs) -> frozenset:
    """The :data:`BIG_SHAPE_FAMILIES` that win as a 大胡 under ruleset `rs` by shape alone.

    Read from the fans tagged ``"big"``: a fan whose predicate is one of the shared
    shape predicates of this module (``seven_pairs``, ``all_pungs``,
    ``flush``, ``all_honors``, ``all_258``, ``melded_all``), or that carries a tag
    ``"shape:<family>"`` (e.g. 豪华七小对, a kind of seven pairs).  Fans tagged
    ``"situational"`` (海底捞月, 杠上开花, 抢杠胡, 天胡 …) need the win's context and
    never make a hand ready by shape; other big fans are ignored the same way.
    ``seven_pairs`` counts only when the ruleset lists the seven-pairs form and
    ``all_258`` only when it lists the ``all_258`` form (the fan alone then needs a
    regular or seven-pairs reading, which those families already cover).
    """
    known = {seven_pairs: "seven_pairs", all_pungs: "all_pungs", flush: "flush",
             all_honors: "all_honors", all_258: "all_258", melded_all: "melded_all"}
    out = set()
    for f in rs.fans:
        if "big" not in f.tags or "situational" in f.tags:
            continue
        fam = known.get(f.predicate)
        if fam is not None:
            out.add(fam)
        out.update(t[6:] for t in f.tags if t.startswith("shape:"))
    if "seven_pairs" not in rs.forms:
        out.discard("seven_pairs")
    if "all_258" not in rs.forms:
        out.discard("all_258")
    return frozenset(out & set(BIG_SHAPE_FAMILIES))


_ALL_PAIRS = (1 << 34) - 1


def shape_families(rs) -> tuple[int, frozenset]:
    """What wins by shape under a ruleset of the 2-5-8 shape families
    (:attr:`GameModel.shapes_258 <majiang.rules.model.GameModel.shapes_258>`):
    ``(small_pair, families)``.

    ``small_pair`` (int, a bit per kind; ``(1 << 34) - 1`` = any pair) is the pair of a
    small win (a regular hand); ``families`` are the shapes that win with any pair
    (:data:`BIG_SHAPE_FAMILIES`).  Under ``pair_258_small`` the small win needs a 2, 5
    or 8 pair and the families are the ruleset's 大胡 shapes (:func:`big_shapes`); with
    the ``all_258`` form alone (合肥 ``jiang_258=False``) every form wins by itself: the
    regular hand with any pair, or a 2-5-8 one under ``pair_258`` (二五八将), and the
    families are the seven-pairs and 将将胡 forms listed.  The one reading of the
    families: :mod:`majiang.efficiency` (shanten / ukeire / advice) and
    :func:`majiang.scoring.waits` both take it from here."""
    if "pair_258_small" in rs.constraints:
        return MASK_258, big_shapes(rs)
    small = MASK_258 if "pair_258" in rs.constraints else _ALL_PAIRS
    return small, frozenset(f for f in ("seven_pairs", "all_258") if f in rs.forms)
