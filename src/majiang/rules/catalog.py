"""Every variant of docs/rules/README.md with how much of it a ruleset plays
(``majiang rules --all``).

The status of a variant, from its ruleset's :attr:`~majiang.rules.base.Ruleset.interpreted`,
:attr:`~majiang.rules.base.Ruleset.missing` and :attr:`~majiang.rules.base.Ruleset.lost`
(the facts live on the ruleset, once) plus the variant's own entries below (for a ruleset
that serves two variants):

``complete``: a registered ruleset plays every rule the sources give, as they state it.
``interpreted``: it plays every rule, and some facts the sources leave open are read by
interpretation (each named).
``sources incomplete``: it plays every rule the sources define, but some facts are lost
from the sources or never defined by them (each named): no implementation could play them
as stated.
``gaps``: it plays the variant, but some rules the sources define are not played (each
named).
``partial``: no registered ruleset plays the variant yet.
"""
from __future__ import annotations

from dataclasses import dataclass

from .base import COVERAGES, coverage_of

__all__ = ["Variant", "VARIANTS", "variants", "STATUSES"]

STATUSES = COVERAGES + ("partial",)


@dataclass(frozen=True)
class Variant:
    """One surveyed variant.  In :data:`VARIANTS`, `interpreted`, `missing` (rules the
    sources define, not played) and `lost` (facts the sources lose or never define) hold
    only what is particular to the variant (``status`` is left empty); :func:`variants`
    adds the ruleset's own and sets ``status`` (:data:`STATUSES`)."""
    section: str
    chinese: str
    english: str
    ruleset: str | None       # registered name, if any
    interpreted: tuple = ()
    missing: tuple = ()
    status: str = ""
    lost: tuple = ()


VARIANTS = (
    Variant("§2", "国标麻将", "Chinese Official (MCR)", "mcr"),
    Variant("§3.1", "山东/烟台", "Shandong / Yantai", "shandong"),
    Variant("§3.2", "安庆", "Anqing", "anqing"),
    Variant("§3.3", "西安", "Xi'an", "xian"),
    Variant("§3.4", "广东 推倒胡/鸡平胡", "Guangdong", "guangdong"),
    Variant("§3.5", "台湾 16张", "Taiwan 16-tile", "taiwan"),
    Variant("§3.6", "杭州", "Hangzhou", "hangzhou"),
    Variant("§3.7", "南昌", "Nanchang", "nanchang"),
    Variant("§3.8", "合肥", "Hefei", "hefei"),
    Variant("§3.9", "贵州 捉鸡", "Guizhou chicken", "guizhou"),
    Variant("§3.10", "四川 血战到底", "Sichuan bloody battle", "sichuan"),
    Variant("§3.11", "三峡/宜昌 血流成河", "Three Gorges river of blood", "sichuan_xueliu"),
    Variant("§3.12", "内蒙", "Inner Mongolia", "neimeng"),
    Variant("§3.13", "河北", "Hebei", "hebei"),
    Variant("§3.14", "温州", "Wenzhou", "wenzhou"),
    Variant("§3.15", "天津", "Tianjin", "tianjin"),
    Variant("§3.16", "武汉 红中赖子杠", "Wuhan red dragon joker kong", "wuhan"),
    Variant("§3.17", "广水 拳打脚踢", "Guangshui", "kawuxing",
            interpreted=("values of 卡五星 (docs/rules/kawuxing.md)",)),
    Variant("§3.18", "襄阳 卡五星", "Xiangyang Ka Wu Xing", "kawuxing"),
    Variant("§3.19", "长沙 二五八/转转", "Changsha", "changsha"),
    Variant("§3.20", "海南", "Hainan", "hainan"),
    Variant("§3.21", "推倒胡/明摸/明打 fragment", "Hainan settlement fragment", "hainan_tuidao"),
    Variant("§3.22", "立四", "Lisi stand four", "lisi"),
    Variant("§3.23", "缺一门/跟庄 fragment", "Baoding-type void-suit variant", "baoding"),
    Variant("§3.24", "活动百搭/带弟百搭", "Floating joker rules", "shanghai_baida"),
    Variant("§3.25", "南京", "Nanjing", "nanjing"),
    Variant("§3.26", "云南/玉溪", "Yunnan", "yunnan"),
    Variant("§3.27", "灌南", "Guannan", "guannan"),
    Variant("§3.28", "螺山", "Luoshan", "luoshan"),
    Variant("§3.29", "沈阳", "Shenyang", "shenyang"),
    Variant("§3.30", "罗源/福州", "Luoyuan / Fuzhou", "luoyuan"),
)


def variants() -> tuple:
    """The catalog with each variant's status (:data:`STATUSES`) and its interpreted,
    missing and lost facts: the variant's own entries followed by its ruleset's.  A variant whose
    ruleset is not registered is ``"partial"``."""
    from . import available, get
    have = set(available())
    out = []
    for v in VARIANTS:
        if v.ruleset is None or v.ruleset not in have:
            out.append(Variant(v.section, v.chinese, v.english, None, v.interpreted,
                               v.missing + ("ruleset not built yet",), "partial", v.lost))
            continue
        rs = get(v.ruleset)
        interpreted = v.interpreted + rs.interpreted
        missing = v.missing + rs.missing
        lost = v.lost + rs.lost
        out.append(Variant(v.section, v.chinese, v.english, v.ruleset, interpreted, missing,
                           coverage_of(interpreted, missing, lost), lost))
    return tuple(out)
