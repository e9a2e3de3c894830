"""贵州捉鸡 (guizhou): values, 通行证, options and the end-of-hand 豆 / 鸡 / 查叫 payments.

Expected numbers come from docs/rules/guizhou.md (tables §3–5 and the worked
examples docs/rules/guizhou.md §6), never from our own output.
"""
import pytest

import majiang
from majiang import rules
from majiang.rules import guizhou as G
from majiang.rules.model import game_model
from majiang.tiles import parse_tile


def _score(hand, win, **kw):
    return majiang.score(hand, win_tile=win, ruleset=kw.pop("ruleset", "guizhou"), **kw)


def test_registered_with_its_tile_set_and_calls():
    rs = rules.get("guizhou")
    m = game_model(rs)
    assert m.n_tiles == 108 and m.players == 4 and m.hand_size == 13
    assert "chow_left" not in rs.calls                      # 碰 and 杠 only
    assert rs.winners == "multiple"                          # 一炮多响
    got = {v.section: (v.ruleset, v.status) for v in rules.catalog.variants()}
    assert got["§3.9"][0] == "guizhou"


@pytest.mark.parametrize("hand, win, self_drawn, value, fan", [
    # docs/rules/guizhou.md §3 values
    ("123m456m789m12p55p", "3p", True, 1, "平胡"),
    ("111m222m333p4p555s", "4p", True, 5, "大对子"),
    ("1133m5577p2299s4s", "4s", True, 10, "七对"),
    ("123456789s1235s", "5s", True, 10, "清一色"),
    ("111s222s333s4s999s", "4s", True, 15, "清大对"),
    ("1111m5577p2299s4s", "4s", True, 20, "龙七对"),
    ("1133557799s224s", "4s", True, 20, "清七对"),
    ("1111335577s224s", "4s", True, 30, "清龙背"),
])
def test_hand_values(hand, win, self_drawn, value, fan):
    r = _score(hand, win, self_drawn=self_drawn)
    assert r.points == value
    assert fan in r
    # the patterns do not add up: exactly one pattern is listed
    assert sum(1 for f in r.fans if "addon" not in rules.get("guizhou").fan(f.id).tags) == 1


def test_qing_da_dui_option_and_tong_san():
    r = _score("111s222s333s4s999s", "4s", self_drawn=True, ruleset=G.build(qing_da_dui=20))
    assert r.points == 20
    r = _score("123m456m789m12p55p", "3p", self_drawn=True, ruleset=G.build(tong_san=True))
    assert r.points == 1 + 3
    with pytest.raises(majiang.RuleError):
        G.build(qing_da_dui=17)
    with pytest.raises(majiang.RuleError):
        G.build(wugu="yes")


def test_single_wait_all_melded():
    # 单吊: four melded pungs, single wait (10); 单吊清一色 20
    r = _score("[111m] [222p] [333s] [555s] 7s", "7s")
    assert r.points == 10 and "单吊" in r and "大对子" not in r
    r = _score("[111s] [222s] [333s] [555s] 7s", "7s")
    assert r.points == 20 and "单吊清一色" in r


def test_add_ons_stack_on_the_pattern():
    r = _score("123m456m789m12p55p", "3p", self_drawn=True, kong=True)     # 杠上花 +1
    assert r.points == 1 + 1
    r = _score("123456789s1235s", "5s", kong=True)                        # 抢杠胡 +9
    assert r.points == 10 + 9


def test_pass_a_plain_win_on_a_discard_needs_a_kong():
    # 通行证 (docs/rules/guizhou.md §2): 平胡 on a discard only with a 豆; self-draw always; a pattern always
    with pytest.raises(majiang.InvalidHandError, match="pass_or_pattern"):
        _score("123m456m789m12p55p", "3p")
    assert _score("123m456m789m12p55p", "3p", self_drawn=True).points == 1
    assert _score("[1111m] 456m789m12p55p", "3p").points == 1        # holds a 豆
    assert _score("111m222m333p4p555s", "4p").points == 5             # 大对子 on a discard
    from majiang.scoring import check_win
    assert not check_win("123m456m789m12p55p", win_tile="3p", ruleset="guizhou",
                         self_drawn=False).valid
    assert check_win("123m456m789m12p55p", win_tile="3p", ruleset="guizhou",
                     self_drawn=True).valid
    # given no win context: on a discard, as score reads it
    assert not check_win("123m456m789m12p55p", win_tile="3p", ruleset="guizhou").valid


def test_worked_example_1_flush_self_draw():
    # docs/rules/guizhou.md §6 example 1: a non-dealer self-draws 清一色 with no kong and no chicken: +30
    r = _score("123456789s1235s", "5s", self_drawn=True, seat_wind=1)
    assert r.settle(1) == (-10, 30, -10, -10)
    # on a discard the discarder alone pays (docs/rules/guizhou.md §4)
    r = _score("123456789s1235s", "5s", seat_wind=1)
    assert r.settle(1, discarder=3) == (0, 10, 0, -10)


def test_chicken_values():
    m5, s1, s9, p8 = (parse_tile(t) for t in ("5m", "1s", "9s", "8p"))
    assert G.chicken_values(parse_tile("4m")) == {s1: 1, m5: 1}
    assert G.chicken_values(parse_tile("9m")) == {s1: 1, parse_tile("1m"): 1}   # 9 wraps
    assert G.chicken_values(s9) == {s1: 2}                                       # 金鸡
    assert G.chicken_values(parse_tile("7p"), wugu=True) == {s1: 1, p8: 2 + 1}
    assert G.chicken_values(s9, wugu=True) == {s1: 2, p8: 4}
    with pytest.raises(majiang.RuleError):
        G.chicken_values(parse_tile("1z"))


def test_worked_example_2_chickens():
    # docs/rules/guizhou.md §6 example 2: turned 4万 -> chicken 5万.  A (seat 0) ready with one 幺鸡 and a pung of
    # 5万: 1 + 3 = 4 from each other player.  B (seat 1) not ready, discarded a 幺鸡
    # (not the first one): pays 1 to each ready player.  C, D not ready, no chickens.
    s1, m5 = parse_tile("1s"), parse_tile("5m")
    got = G.chicken_payments(
        tiles=[{s1: 1, m5: 3}, {}, {}, {}], discards=[[], [s1], [], []],
        ready=[True, False, False, False], turned=parse_tile("4m"))
    assert got == (4 * 3 + 1, -4 - 1, -4, -4)
    assert sum(got) == 0


def test_worked_example_3_gold_charging_chicken():
    # docs/rules/guizhou.md §6 example 3: turned 9条 -> 幺鸡 is 金鸡.  A discarded the first 幺鸡 (冲锋鸡), unclaimed:
    # bonus 2 x 2 = 4 plus 2 for that 幺鸡 = 6 from each other player when A is ready
    s1 = parse_tile("1s")
    got = G.chicken_payments(tiles=[{}, {}, {}, {}], discards=[[s1], [], [], []],
                             ready=[True, False, False, False], turned=parse_tile("9s"),
                             first_yaoji=0)
    assert got == (18, -6, -6, -6)
    # 通三: the 冲锋 base is 3
    got = G.chicken_payments(tiles=[{}, {}, {}, {}], discards=[[s1], [], [], []],
                             ready=[True, False, False, False], turned=parse_tile("9s"),
                             first_yaoji=0, tong_san=True)
    assert got == (3 * (3 * 2 + 2), -8, -8, -8)


def test_responsibility_chicken():
    # 责任鸡 (docs/rules/guizhou.md §5): the 冲锋 幺鸡 is punged by another player: the discarder owes the
    # claimant 1 (no 冲锋 bonus); the direction flips when only the discarder is ready
    turned = parse_tile("4m")                                    # chicken 5万, none held
    got = G.chicken_payments(tiles=[{}, {}, {}, {}], discards=[[], [], [], []],
                             ready=[False, False, False, False], turned=turned,
                             first_yaoji=0, first_yaoji_claimed_by=2)
    assert got == (-1, 0, 1, 0)
    got = G.chicken_payments(tiles=[{}, {}, {}, {}], discards=[[], [], [], []],
                             ready=[True, False, False, False], turned=turned,
                             first_yaoji=0, first_yaoji_claimed_by=2)
    assert got == (1, 0, -1, 0)
    with pytest.raises(majiang.RuleError):
        G.chicken_payments(tiles=[{}], discards=[[], []], ready=[True, False], turned=0)
    with pytest.raises(majiang.RuleError):
        G.chicken_payments(tiles=[{}, {}], discards=[[], []], ready=[True, False], turned=0,
                           first_yaoji=5)


def test_kong_payments():
    # 豆 (docs/rules/guizhou.md §4, BX): 闷豆 3 from each other, 转弯豆 3 from each, 点豆 3 from the feeder;
    # only a ready player collects
    k = parse_tile("7m")
    got = G.kong_payments([[(k, "concealed", None)], [(k + 1, "exposed", 3)],
                           [(k + 2, "added", None)], []], ready=[True, True, False, False])
    # seat 0 collects 3 from each other; seat 1 collects 3 from its feeder (seat 3);
    # seat 2 is not ready and collects nothing for its added kong
    assert got == (9, -3 + 3, -3, -3 - 3)
    assert sum(got) == 0
    with pytest.raises(majiang.RuleError):
        G.kong_payments([[(k, "exposed", None)], [], [], []], ready=[True] * 4)
    with pytest.raises(majiang.RuleError):
        G.kong_payments([[(k, "open", None)], [], [], []], ready=[True] * 4)


def test_chajiao_at_a_drawn_end():
    # 查叫: each player not ready pays each ready player that player's value
    assert G.chajiao([5, None, 10, None]) == (10, -15, 20, -15)
    assert G.chajiao([None] * 4) == (0, 0, 0, 0)


def test_chajiao_adds_the_dealer_streak():
    """docs/rules/guizhou.md §4: 查叫 "+ dealer streak" — each payment of a dealer not
    ready carries the streak (a ready dealer's value already holds his 连庄 add-on)."""
    # dealer 1 not ready, streak 2: pays seat 0 5 + 2 and seat 2 10 + 2; seat 3 pays 5 and 10
    assert G.chajiao([5, None, 10, None], dealer=1, streak=2) == (12, -19, 22, -15)
    # the dealer ready: nothing on top of the values
    assert G.chajiao([5, None, 10, None], dealer=0, streak=2) == (10, -15, 20, -15)
    assert G.chajiao([5, None, 10, None], dealer=1) == (10, -15, 20, -15)
    for kw in ({"dealer": 4}, {"dealer": 0, "streak": -1}, {"dealer": True}):
        with pytest.raises(majiang.RuleError):
            G.chajiao([5, None, 10, None], **kw)


def test_simulated_plain_discard_wins_hold_a_kong():
    t = majiang.simulate("guizhou", 150, seed=3, n_jobs=1)
    assert (t.end == "win").mean() > 0.5
    for _, row in t.iterrows():
        assert sum(row.score_deltas) == 0
        for i, (w, how) in enumerate(zip(row.winners, row.win_types)):
            names = {n for n, _ in row.fans[i]}
            if how == "discard" and names == {"平胡"}:
                assert row.kongs[w] > 0


# ------------------------------------------------------------------ 连庄
def test_lianzhuang_on_the_dealer_win_and_payments():
    """docs/rules/guizhou.md §3 (BX): a dealer streak adds its count — on the dealer's win,
    and on each payment the dealer makes to a winner."""
    rs = G.build(dealer_repeats=2)
    # the dealer self-draws a 平胡: 1 + 2 from each of three
    r = majiang.score("123m456p789s11p45m", "6m", ruleset=rs, self_drawn=True)
    assert r.total == 3 and r.settle(0) == (9, -3, -3, -3)
    # a non-dealer self-draws a 平胡 (1): the dealer pays 1 + 2
    r = majiang.score("123m456p789s11p45m", "6m", ruleset=rs, self_drawn=True, seat_wind=1)
    assert "连庄" not in r and r.total == 1 and r.settle(1) == (-3, 5, -1, -1)
    # a non-dealer's 大对子 (5) on the dealer's discard: 5 + 2; on another's discard: 5
    r = majiang.score("111m222p333s555s4m", "4m", ruleset=rs, seat_wind=1)
    assert r.total == 5 and r.settle(1, 0) == (-7, 7, 0, 0)
    assert r.settle(1, 2) == (0, 5, -5, 0)
    # no streak: the plain values, no 连庄 fan
    r = majiang.score("123m456p789s11p45m", "6m", ruleset="guizhou", self_drawn=True)
    assert r.total == 1 and "连庄" not in r


def test_lianzhuang_option_and_dealer_rule():
    assert G.GUIZHOU.options["dealer_repeats"] == 0
    assert G.GUIZHOU.next_dealer_rule.streak == "dealer_repeats"
    for bad in (-1, 101, True, 1.5):
        with pytest.raises(majiang.RuleError):
            G.build(dealer_repeats=bad)
    assert not any("连庄" in m for m in G.GUIZHOU.missing)
    assert not any("查叫" in m for m in G.GUIZHOU.missing)


def test_play_match_lianzhuang_follows_the_streak():
    # seed 3: the dealer of hand 4 keeps the deal after a drawn hand and wins twice on it
    t = majiang.play_match("guizhou", ["efficiency"] * 4, hands=10, seed=3)
    seen = 0
    for r in t.itertuples():
        for w, fans in zip(r.winners, r.fans):
            got = dict(fans).get("连庄", 0)
            assert got == (1 if w == r.dealer and r.dealer_streak > 0 else 0)
            seen += got
    assert seen >= 2


# ---------------------------------------------------------------- 热炮, 烧, chicken options
def test_re_pao_add_on():
    # 热炮 (docs/rules/guizhou.md §3, BX): a win on the discard its discarder made right
    # after his own kong: +1 on top of the pattern (+3 under 通三); BX checks the 通行证 only
    # on a plain discard, so a 平胡 without a 豆 may win on it
    r = _score("123m456m789m12p55p", "3p", kong_discard=True)
    assert r.points == 1 + 1 and "热炮" in r
    r = _score("111m222m333p4p555s", "4p", kong_discard=True)
    assert r.points == 5 + 1                                 # 大对子 5 + 热炮 1
    r = _score("111m222m333p4p555s", "4p", kong_discard=True, ruleset=G.build(tong_san=True))
    assert r.points == 5 + 3 + 3                             # + 通三 3, 热炮 3 under 通三
    assert _score("111m222m333p4p555s", "4p").points == 5    # a plain discard: no add-on


def test_options_checked():
    for bad in (dict(shao=1), dict(ben_ji="y"), dict(weekday=8), dict(weekday=-1),
                dict(chui_feng=None), dict(man_tang=0), dict(yao_bai=[])):
        with pytest.raises(majiang.RuleError):
            G.build(**bad)
    rs = G.build()
    assert not any(rs.options[k] for k in ("ben_ji", "yao_bai", "man_tang", "weekday",
                                            "chui_feng"))        # off by default
    assert rs.options["shao"] and rs.kong_payments.burn
    assert not G.build(shao=False).kong_payments.burn
    with pytest.raises(majiang.RuleError):
        G.chicken_values(parse_tile("4m"), weekday=9)


def test_ben_ji_and_yao_bai_values():
    # docs/rules/guizhou.md §5 options (BX): 本鸡 the turned tile too, 摇摆鸡 one lower too;
    # a turned chicken that is 1条 makes 幺鸡 金鸡 (2)
    t = {x: parse_tile(x) for x in ("1s", "2s", "3s", "3m", "4m", "5m", "9m", "1m", "2m")}
    assert G.chicken_values(t["4m"], ben_ji=True) == {t["1s"]: 1, t["4m"]: 1, t["5m"]: 1}
    assert G.chicken_values(t["4m"], yao_bai=True) == {t["1s"]: 1, t["3m"]: 1, t["5m"]: 1}
    assert G.chicken_values(t["1m"], yao_bai=True) == {t["1s"]: 1, t["9m"]: 1, t["2m"]: 1}
    assert G.chicken_values(t["1s"], ben_ji=True) == {t["1s"]: 2, t["2s"]: 1}   # 金
    assert G.chicken_values(t["2s"], yao_bai=True) == {t["1s"]: 2, t["3s"]: 1}  # 金
    assert G.chicken_values(t["1s"]) == {t["1s"]: 1, t["2s"]: 1}                # no 金


def test_weekday_chicken():
    # 星期鸡: the weekday's rank in each suit is worth 1 more (Wednesday: the 3s)
    m3, p3, s3, m5, s1 = (parse_tile(x) for x in ("3m", "3p", "3s", "5m", "1s"))
    assert G.chicken_values(parse_tile("4m"), weekday=3) == {s1: 1, m5: 1, m3: 1, p3: 1,
                                                             s3: 1}
    # Monday: 幺鸡 is worth 1 + 1 but is no 金鸡: the 冲锋 bonus stays 2.  Seat 0 ready,
    # discarded the first 幺鸡 (unclaimed): 幺鸡 2 + bonus 2 = 4 from each other player
    got = G.chicken_payments([{}, {}, {}, {}], [[s1], [], [], []], [True] + [False] * 3,
                             parse_tile("4m"), first_yaoji=0, weekday=1)
    assert got == (12, -4, -4, -4)
    # a 3条 pung held by a ready player on Wednesday: 3 x 1
    got = G.chicken_payments([{s3: 3}, {}, {}, {}], [[], [], [], []],
                             [True] + [False] * 3, parse_tile("4m"), weekday=3)
    assert got == (9, -3, -3, -3)


def test_man_tang_chicken():
    # 满堂鸡: a ready player also collects the (turned) chickens he discarded; a player
    # not ready still pays only his fixed ones.  Turned 4万 -> chicken 5万.
    m5, s1 = parse_tile("5m"), parse_tile("1s")
    tiles, ready = [{}, {}, {}, {}], [True, False, False, False]
    disc = [[m5, m5], [m5, s1], [], []]
    assert G.chicken_payments(tiles, disc, ready, parse_tile("4m")) == (1, -1, 0, 0)
    assert G.chicken_payments(tiles, disc, ready, parse_tile("4m"), man_tang=True) == (
        3 * 2 + 1, -2 - 1, -2, -2)


def test_chui_feng_chicken():
    # 吹风鸡: a turned 5筒 voids every chicken payment (幺鸡 held, 冲锋, 责任 alike)
    s1, p5 = parse_tile("1s"), parse_tile("5p")
    # seat 1 discarded the first 幺鸡 and seat 2 (not ready) punged it (责任鸡)
    kw = dict(tiles=[{s1: 1}, {}, {s1: 3}, {}], discards=[[], [], [], []],
              ready=[True, True, False, False], turned=p5, first_yaoji=1,
              first_yaoji_claimed_by=2)
    assert G.chicken_payments(**kw, chui_feng=True) == (0, 0, 0, 0)
    # without the option a turned 5筒 is a plain turn (chicken 6筒): seat 0's 幺鸡 1 from
    # each; seat 1's claimed 冲锋 幺鸡 earns no bonus, and as only he is ready of the two,
    # the claimant seat 2 pays him its value 1 (责任鸡 reversed)
    assert G.chicken_payments(**kw) == (3, -1 + 1, -1 - 1, -1)
    # any other turned tile with the option: played as usual
    kw["turned"] = parse_tile("4p")
    assert G.chicken_payments(**kw, chui_feng=True) == G.chicken_payments(**kw)


def test_burnt_player_collects_no_chickens():
    # 烧 (docs/rules/guizhou.md §4, BX shao): seat 1 dealt in right after his own kong:
    # ready with a 5万 pung he collects nothing; seat 2 (not ready) still pays him for
    # the 幺鸡 it discarded; seat 0 collects as usual
    m5, s1 = parse_tile("5m"), parse_tile("1s")
    kw = dict(tiles=[{s1: 1}, {m5: 3}, {}, {}], discards=[[], [], [s1], []],
              ready=[True, True, False, False], turned=parse_tile("4m"))
    assert G.chicken_payments(**kw) == (3 - 3 + 1, 9 - 1 + 1, -1 - 3 - 2, -1 - 3)
    assert G.chicken_payments(**kw, burnt=(1,)) == (3 + 1, -1 + 1, -1 - 2, -1)
    with pytest.raises(majiang.RuleError):
        G.chicken_payments(**kw, burnt=(4,))


# ---------------------------------------------------------------- 报听: 天听 / 地听, 杀报
# docs/rules/guizhou.md §1 / §3: 报听 on the dealt hand (天听) or right after the first draw
# (地听); GYC 天听 20 / 地听 10 (the hand paid at its highest pattern, 平胡 only with none);
# BX 硬报 +20 / 软报 +10 on top of the pattern.  A declared player may win a 平胡 on a
# discard (§2: "or has 报听"), and anyone may win on a declared player's discard (杀报).
@pytest.mark.parametrize("declared, ting_values, hand, win, self_drawn, value", [
    ("deal", "gyc", "123m456m789m11p45s", "3s", False, 20),        # 平胡 → 天听 20
    ("first_draw", "gyc", "123m456m789m11p45s", "3s", True, 10),   # 平胡 → 地听 10
    ("deal", "gyc", "123m456m789m11m45m", "3m", True, 20),         # max(清一色 10, 20)
    ("first_draw", "gyc", "111m222m333p4p555s", "4p", True, 10),   # max(大对子 5, 10)
    ("deal", "gyc", "1111m5577p2299s4s", "4s", True, 20),          # max(龙七对 20, 20)
    ("deal", "bx", "123m456m789m11p45s", "3s", False, 1 + 20),     # 平胡 1 + 硬报 20
    ("first_draw", "bx", "123m456m789m11p45s", "3s", True, 1 + 10),
    ("deal", "bx", "123m456m789m11m45m", "3m", True, 10 + 20),     # 清一色 10 + 20
    ("first_draw", "bx", "1111m5577p2299s4s", "4s", True, 20 + 10),  # 龙七对 20 + 10
])
def test_ready_declaration_values(declared, ting_values, hand, win, self_drawn, value):
    rs = G.build(ting_values=ting_values)
    r = _score(hand, win, ruleset=rs, self_drawn=self_drawn, seat_wind=1,
               declared_ready=declared)
    assert r.points == value
    assert ("天听" if declared == "deal" else "地听") in r


def test_sha_bao_and_the_pass_after_a_declaration():
    # undeclared 平胡 on a discard, no 豆: no win (通行证)
    with pytest.raises(majiang.InvalidHandError, match="pass_or_pattern"):
        _score("123m456m789m12p55p", "3p")
    # 杀报: on a declared player's discard anyone wins, the plain value 1 (no 豆 needed)
    r = _score("123m456m789m12p55p", "3p", discarder_ready=True)
    assert r.points == 1 and [f.chinese for f in r.fans] == ["平胡"]
    # the declared winner himself: 天听 20 under GYC, 1 + 20 under BX
    assert _score("123m456m789m12p55p", "3p", declared_ready="deal").points == 20
    assert _score("123m456m789m12p55p", "3p", ruleset=G.build(ting_values="bx"),
                  declared_ready="deal").points == 21


def test_ready_declarations_no_longer_missing_and_option_checked():
    rs = rules.get("guizhou")
    assert not any("报听" in m or "杀报" in m for m in rs.missing)
    assert rs.ready == "optional" and rs.options["ting_values"] == "gyc"
    with pytest.raises(majiang.RuleError, match="ting_values"):
        G.build(ting_values="gyt")
    # a table without 报听: no 天听 / 地听 fan, nothing to declare
    from majiang.game.engine.facts import ready_kinds
    none = G.build(ting_values="none")
    assert not {"天听", "地听"} & {f.chinese for f in none.fans}
    assert ready_kinds(game_model(none)) == ()
    assert ready_kinds(game_model(rs)) == ("deal", "first_draw")
