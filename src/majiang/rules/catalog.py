"""Every variant of docs/rules/README.md with its status (``majiang rules --all``).

``complete``: a registered ruleset plays and scores the variant (its module says
which facts come from which public source; docs/rules/ has them).
``partial``: the documents leave facts out; the entry names them (and, where the
known facts suffice for shapes, a registered ruleset covers what is known).
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Variant", "VARIANTS", "variants"]


@dataclass(frozen=True)
class Variant:
    section: str
    chinese: str
    english: str
    ruleset: str | None       # registered name, if any
    status: str               # "complete" | "partial"
    missing: tuple = ()


VARIANTS = (
    Variant("§2", "国标麻将", "Chinese Official (MCR)", "mcr", "complete"),
    Variant("§3.1", "山东/烟台", "Shandong / Yantai", "shandong", "complete"),
    Variant("§3.2", "安庆", "Anqing", "anqing", "complete"),
    Variant("§3.3", "西安", "Xi'an", "xian", "complete"),
    Variant("§3.4", "广东 推倒胡/鸡平胡", "Guangdong", "guangdong", "complete"),
    Variant("§3.5", "台湾 16张", "Taiwan 16-tile", "taiwan", "complete"),
    Variant("§3.6", "杭州", "Hangzhou", "hangzhou", "complete",
            ("docs/rules/hangzhou.md; 十风 undefined, 清七对 value, kong money not stated",
             "财飘 抓打圈 and kong/飘 chains need the game history, which one hand does not hold")),
    Variant("§3.7", "南昌", "Nanchang", "nanchang", "complete",
            ("honour chows (three winds / three dragons) not modelled",
             "德中德, 抄庄, dealer streak, extra 精 rounds (docs/rules/nanchang.md §5)")),
    Variant("§3.8", "合肥", "Hefei", "hefei", "complete",
            ("Changsha values (docs/rules/hefei.md §1); Hefei 嘴 table not found",
             "八枝 (8 of a suit) judged at the win, not in shanten")),
    Variant("§3.9", "贵州 捉鸡", "Guizhou chicken", "guizhou", "complete",
            ("values, 豆 and 鸡 from docs/rules/guizhou.md; 报听 / 热炮 / 烧 not modelled",)),
    Variant("§3.10", "四川 血战到底", "Sichuan bloody battle", "sichuan", "complete"),
    Variant("§3.11", "三峡/宜昌 血流成河", "Three Gorges river of blood", "sichuan_xueliu",
            "complete", ("Yichang values (Sichuan standard used)",)),
    Variant("§3.12", "内蒙", "Inner Mongolia", "neimeng", "complete",
            ("the 敖汉 game of one vendor (docs/rules/neimeng.md §1); 宁城 as an option",
             "interpreted: 杠开 besides 自摸",
             "call limits, 杠后炮, 亮喜, side bets not played")),
    Variant("§3.13", "河北", "Hebei", "hebei", "complete",
            ("read as the Tianjin-style 混儿 game (docs/rules/hebei.md)",
             "interpreted: the turned tile and 4 jokers, 基点 as the stake, no plain win",
             "kong of four 混儿, 拉庄 / 跟庄 not played")),
    Variant("§3.14", "温州", "Wenzhou", "wenzhou", "complete",
            ("docs/rules/wenzhou.md; 八对 / 硬八对 (no eight-pairs form) not modelled",
             "财神单钓's full go-around, lone-honour discard order, 连庄 re-seating")),
    Variant("§3.15", "天津", "Tianjin", "tianjin", "complete",
            ("indicator in play or face up: option (docs/rules/tianjin.md §6)",
             "扣听, dealer side bets, caps, wall end not stated")),
    Variant("§3.16", "武汉 红中赖子杠", "Wuhan red dragon joker kong", "wuhan", "complete",
            ("values provisional (docs/rules/wuhan.md)",)),
    Variant("§3.17", "广水 拳打脚踢", "Guangshui", "kawuxing", "complete",
            ("values of 卡五星 (docs/rules/kawuxing.md)",)),
    Variant("§3.18", "襄阳 卡五星", "Xiangyang Ka Wu Xing", "kawuxing", "complete"),
    Variant("§3.19", "长沙 二五八/转转", "Changsha", "changsha", "complete"),
    Variant("§3.20", "海南", "Hainan", "hainan", "complete",
            ("items 7-9 of the 番 list inferred (docs/rules/hainan.md)",)),
    Variant("§3.21", "推倒胡/明摸/明打 fragment", "Hainan settlement fragment", "hainan_tuidao",
            "complete",
            ("read as the settlement of 海南 (docs/rules/hainan_tuidao.md §1); items 1 and 3 lost",
             "interpreted: a self-draw pays 1 from each, 明打 = a declared player dealing in",
             "报听 not declared in play: 明摸 / 明打 paid by the module's functions")),
    Variant("§3.22", "立四", "Lisi stand four", "lisi", "complete",
            ("three-player household rules (docs/rules/lisi.md); four-player values",)),
    Variant("§3.23", "缺一门/跟庄 fragment", "Baoding-type void-suit variant", "baoding",
            "complete",
            ("read as a Hebei 保定 game (docs/rules/baoding.md §1); identity uncertain",
             "interpreted: items multiply, 七不挨 8, a ready discarder counts as declared",
             "the ready declaration is not played")),
    Variant("§3.24", "活动百搭/带弟百搭", "Floating joker rules", "shanghai_baida", "complete",
            ("docs/rules/shanghai_baida.md (Shanghai values); 乱风向, 开宝 undefined",
             "花 values, base stake and discard payer not stated")),
    Variant("§3.25", "南京", "Nanjing", "nanjing", "complete",
            ("kong amounts (docs/rules/nanjing.md §4)",)),
    Variant("§3.26", "云南/玉溪", "Yunnan", "yunnan", "complete",
            ("values borrowed from the neighbouring 曲靖 game (docs/rules/yunnan.md §3)",
             "interpreted: 门清 1 番, concealed / added kong 2 / 1 from each, 抢杠 x3",
             "face-up tail tiles, last-four-tiles rule, 十风, 杠上炮 not played")),
    Variant("§3.27", "灌南", "Guannan", "guannan", "complete",
            ("values provisional, built from the neighbouring games (docs/rules/guannan.md §3)",
             "interpreted: the four single winds as bonus tiles, the dealer options",
             "大绝七对先胡 not played")),
    Variant("§3.28", "螺山", "Luoshan", "luoshan", "complete",
            ("winning types ②-④ lost",)),
    Variant("§3.29", "沈阳", "Shenyang", "shenyang", "complete",
            ("闭门炮 undefined", "wall end", "multiple winners")),
    Variant("§3.30", "罗源/福州", "Luoyuan / Fuzhou", "luoyuan", "complete",
            ("花番 per-item values", "抢金 situations")),
)


def variants() -> tuple:
    """The catalog, with the status downgraded to partial when the named ruleset is
    not registered."""
    from . import available
    have = set(available())
    out = []
    for v in VARIANTS:
        if v.ruleset is not None and v.ruleset not in have:
            v = Variant(v.section, v.chinese, v.english, None, "partial",
                        v.missing + ("ruleset not built yet",))
        out.append(v)
    return tuple(out)
