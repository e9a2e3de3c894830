"""advise_claim: which answer to a discard on offer (majiang.claims).

Expected values are worked out by hand from the rules (fan lists of the Chinese Official
rules, shanten by counting sets / pairs, live ukeire by counting copies)."""
from __future__ import annotations

import pytest

import majiang as mj
from majiang.errors import RuleError


def _actions(df):
    return list(df["action"])


def test_win_with_eight_fan_ranks_first():
    # 123m 456p 789s + 111z (East, prevalent and seat wind: 圈风刻 2 + 门风刻 2) + 22z:
    # 三色三步高 6 + 圈风刻 2 + 门风刻 2 + 幺九刻 none (winds count as 圈/门) ... >= 8 on 1z.
    pos = mj.Position("123m456p789s1122z", discards=[None, None, None, "3z1z"])
    df = mj.advise_claim(pos)
    assert df.iloc[0]["action"] == "win"
    assert df.iloc[0]["rank"] == 1 and df.iloc[0]["shanten"] == -1
    assert df.iloc[0]["fan"] >= 8
    assert df.attrs["no_win"] is None
    assert {"pung", "pass"} <= set(df["action"])     # two 1z held: pung is legal too


def test_win_below_eight_fan_has_no_win_row():
    # 234m 567p 345s 66s + 78m, 9m on offer from seat 3: 234m567p345s789m66s would be
    # 平和 2 + 门前清 2 (+ nothing else: 9m is not 断幺, no 三色 / 一气) = 4 < 8.
    pos = mj.Position("234m78m567p345s66s", discards=[None, None, None, "1z9m"])
    df = mj.advise_claim(pos)
    assert "win" not in _actions(df)
    assert "8" in df.attrs["no_win"] and "9m" in df.attrs["no_win"]
    # the chow 7-8-9m is legal (seat 3 is seat 0's left) and leaves the hand ready
    assert "chow 7-8-9m" in _actions(df)


def test_no_chow_under_a_ruleset_without_chows():
    # sichuan: pung and kongs only; the 2m from the left seat fits 1-2-3m / 2-3-4m
    pos = mj.Position("134m456p789p1155s", ruleset="sichuan",
                      discards=[None, None, None, "9s2m"])
    df = mj.advise_claim(pos)
    assert not any(a.startswith("chow") for a in df["action"])
    assert _actions(df) == ["pass"]
    assert "pung" in mj.advise_claim(pos.replace(discards=[None, None, None, "9s5s"]))[
        "action"].tolist()


def test_chow_only_from_the_seat_before():
    base = dict(hand="134m456p789s1122z")
    left = mj.Position(**base, discards=[None, None, None, "3z2m"])      # seat 3 -> 0
    right = mj.Position(**base, discards=[None, "3z2m", None, None])     # seat 1
    chows = [a for a in mj.advise_claim(left)["action"] if a.startswith("chow")]
    assert chows == ["chow 1-2-3m", "chow 2-3-4m"]          # 13m + 2m, 34m + 2m
    assert not any(a.startswith("chow") for a in mj.advise_claim(right)["action"])


def test_pung_lowering_shanten_ranks_above_pass_with_hand_counted_ukeire():
    # 11m 55m 234p 678s 1z 2z 3z, 5m on offer from seat 2 (across: no chow).
    # pass: 2 sets + 2 pairs + 3 singles -> shanten 8 - 4 - 1 - 1 = 2.
    # pung 5m, discard 1z: [555m] 234p 678s 11m 2z 3z -> shanten 8 - 6 - 0 - 1 = 1;
    # tenpai after 1m (4 - 2 held = 2 live), 2z (3 live), 3z (3 live; the 1z discarded is
    # not yet on the table in the analysis): 8 live tiles.
    pos = mj.Position("1155m234p678s123z", discards=[None, None, "9s5m", None])
    df = mj.advise_claim(pos)
    assert _actions(df) == ["pung", "pass"]
    pung = df.iloc[0]
    assert pung["shanten"] == 1 and pung["discard"] in ("1z", "2z", "3z")
    assert pung["ukeire"] == "1m" + "".join(sorted({"1z", "2z", "3z"} - {pung["discard"]})
                                            ).replace("z", "") + "z"
    assert pung["ukeire_count"] == 2 + 3 + 3
    assert df.iloc[1]["shanten"] == 2
    assert df.attrs["tile"] == "5m" and df.attrs["from_seat"] == 2


def test_kong_row_with_three_copies():
    pos = mj.Position("1115m234p678s123z", discards=[None, "9s1m", None, None])
    df = mj.advise_claim(pos)
    assert {"kong", "pung", "pass"} == set(df["action"])
    kong = df.set_index("action").loc["kong"]
    # [1111m] 5m 234p 678s 123z: 3 sets, 4 singles -> shanten 8 - 6 = 2, no discard
    assert kong["shanten"] == 2 and kong["discard"] is None


def test_self_draw_only_ruleset_never_wins_on_a_discard():
    m = mj.game_model("hebei")
    assert m.self_draw_only
    pos = mj.Position("123m456p789s1122z", ruleset="hebei", indicator="9p",
                      discards=[None, "3z1z", None, None])
    df = mj.advise_claim(pos)
    assert "win" not in _actions(df)
    assert "self-draw" in df.attrs["no_win"]


def test_draws_add_probabilities_and_rank_by_p_win():
    pos = mj.Position("134m456p789s1122z", discards=[None, None, None, "3z2m"])
    df = mj.advise_claim(pos, draws=2)
    assert {"p_tenpai", "p_win"} <= set(df.columns)
    assert (df["p_win"].diff().dropna() <= 1e-12).all()      # best first
    assert df.attrs["draws"] == 2


@pytest.mark.parametrize("kwargs, msg", [
    (dict(hand="1155m234p678s123z", discards=[None, None, "9s5m", None]), "not the discard"),
])
def test_tile_not_on_offer(kwargs, msg):
    with pytest.raises(RuleError, match=msg):
        mj.advise_claim(mj.Position(**kwargs), "9s")


def test_position_not_waiting_for_a_claim():
    must = mj.Position("1155m234p678s123z4z", drawn="4z", discards=[None, None, "9s5m", None])
    with pytest.raises(RuleError, match="must discard"):
        mj.advise_claim(must)
    with pytest.raises(RuleError, match="no discard is on offer"):
        mj.advise_claim(mj.Position("1155m234p678s123z"))
    with pytest.raises(RuleError, match="Position"):
        mj.advise_claim("1155m234p678s123z")
    for err in (RuleError,):
        try:
            mj.advise_claim(must)
        except err as e:
            assert "\n" not in str(e)


# ---------------------------------------------------------------- CLI: majiang claim
def test_cli_claim_table_and_errors(capsys):
    from majiang.cli import main
    code = main(["claim", "hand=1155m234p678s123z discards2=9s5m"])
    out = capsys.readouterr().out
    assert code == 0
    rows = [ln.split() for ln in out.splitlines() if ln[:4].strip().isdigit()]
    assert [r[1] for r in rows] == ["pung", "pass"]
    assert rows[0][3:5] == ["1", "8"]                 # shanten 1, 8 live (hand count above)
    code = main(["claim", "hand=1155m234p678s123z discards2=9s5m", "--tile", "9s"])
    err = capsys.readouterr().err
    assert code == 2 and "not the discard on offer" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- advise_kong
def test_concealed_kong_row_counted_by_hand():
    # 1111m 234p 678s 1z 2z 3z 7z, 3z seen once (seat 3's river).
    # kong 1m -> [1111m] 234p 678s 1237z: 3 sets, 4 singles: shanten 8 - 6 = 2;
    # ukeire = a pair of any honor: 1z 3 + 2z 3 + 3z 2 + 7z 3 = 11 live.
    # discard 3z -> 1111m 234p 678s 127z: shanten 2; 2m 4 + 3m 4 + 1z 3 + 2z 3 + 7z 3 = 17.
    pos = mj.Position("1111m234p678s1237z", discards=[None, None, None, "3z"])
    df = mj.advise_kong(pos).set_index("action")
    assert set(df.index) == {"concealed kong 1m", "discard"}
    kong = df.loc["concealed kong 1m"]
    assert kong["shanten"] == 2 and kong["ukeire_count"] == 11 and kong["discard"] is None
    assert df.loc["discard", "ukeire_count"] == 17 and df.loc["discard", "discard"] == "3z"
    assert mj.advise_kong(pos).iloc[0]["action"] == "discard"      # 17 > 11


def test_added_kong_row_and_errors():
    pos = mj.Position("5m234p678s1235z", drawn="5m", melds=["[555m]@2", None, None, None],
                      discards=[None, None, "5m@0", None])
    df = mj.advise_kong(pos)
    assert "added kong 5m" in set(df["action"])
    row = df.set_index("action").loc["added kong 5m"]
    # [5555m] 234p 678s 1235z: shanten 2, ukeire a pair of an honor: 4 x 3 = 12 live
    assert row["shanten"] == 2 and row["ukeire_count"] == 12
    with pytest.raises(RuleError, match="own turn"):
        mj.advise_kong(mj.Position("1155m234p678s123z"))
    with pytest.raises(RuleError, match="Position"):
        mj.advise_kong("1111m234p678s1237z")


def test_kong_note_says_whether_to_kong():
    from majiang.claims import kong_note
    pos = mj.Position("1111m234p678s1237z", discards=[None, None, None, "3z"])
    note = kong_note(pos)
    assert note.startswith("discard 3z (shanten 2, 17 live)") and "concealed kong 1m" in note
    plain = mj.Position("1155m234p678s123z4z", drawn="4z")
    assert kong_note(plain) is None


def test_cli_claim_on_own_turn_ranks_kong(capsys):
    from majiang.cli import main
    assert main(["claim", "hand=1111m234p678s1237z discards3=3z"]) == 0
    out = capsys.readouterr().out
    rows = [ln.split() for ln in out.splitlines() if ln[:4].strip().isdigit()]
    assert rows[0][1:3] == ["discard", "3z"] and rows[1][1:4] == ["concealed", "kong", "1m"]


def test_danger_and_draws_rank_by_ev():
    pos = mj.Position("134m456p789s1122z", discards=[None, None, None, "3z2m"])
    df = mj.advise_claim(pos, draws=2, danger=True)
    assert df.attrs["by"] == "ev"
    assert {"p_deal_in", "exp_loss", "ev", "exp_gain"} <= set(df.columns)
    assert (df["ev"].diff().dropna() <= 1e-12).all()
    passing = df.set_index("action").loc["pass"]
    assert passing["exp_loss"] == 0 and passing["ev"] == pytest.approx(passing["exp_gain"])
    # the pass row is the waiting hand's own probability, as majiang.probabilities gives it
    assert passing["p_win"] == pytest.approx(mj.probabilities(pos, 2).p_win)
    chow = df.set_index("action").loc["chow 1-2-3m"]
    assert chow["ev"] == pytest.approx(chow["exp_gain"] - chow["exp_loss"])


def test_last_copy_lifts_a_discard_win_to_eight_fan():
    # 234m 567p 345s 66s + 78m on 9m: 平和 2 + 门前清 2 = 4 (no win, see above); with the
    # other three 9m already discarded the 9m on offer is the last copy: 和绝张 4 -> 8.
    pos = mj.Position("234m78m567p345s66s", discards=[None, "9m9m", "9m", "1z9m"])
    df = mj.advise_claim(pos)
    assert df.iloc[0]["action"] == "win" and df.iloc[0]["fan"] == 8


def test_pass_row_holds_the_seat_to_its_declared_void():
    # 123456789m1155s under sichuan: with 筒 declared void the hand is ready (shanten 0:
    # 123m 456m 789m + 11s/55s shanpon); with 万 declared void every one of the nine 万
    # tiles must be exchanged before the hand can wait, and nine ideal draws make it
    # ready (1155s + seven drawn tiles forming 11s 55s5 and two more sets + a wait): 9.
    for void, want in ((1, 0), (0, 9)):           # 0 万, 1 筒
        pos = mj.Position("123456789m1155s", ruleset="sichuan", voids=[void, -1, -1, -1],
                          discards=[None, None, None, "9p"])
        row = mj.advise_claim(pos).set_index("action").loc["pass"]
        assert int(row["shanten"]) == want


def test_declared_void_bars_the_win_and_melds_of_that_suit():
    # 234p678s23455p11s + 5p is complete (234p 234p 555p 678s 11s); with 条 declared void
    # the seat still holds 11s678s, so
    # the win breaks 定缺 (Sichuan: a hand holding its declared suit cannot win), and a
    # tile of the declared suit is never melded: only "pass" answers a 1s.
    text = "ruleset=sichuan hand=234p678s23455p11s discards3={}"
    free = mj.Position.from_text(text.format("5p"))
    assert mj.advise_claim(free)["action"].iloc[0] == "win"
    bound = mj.Position.from_text(text.format("5p") + " voids=2,-1,-1,-1")
    df = mj.advise_claim(bound)
    assert "win" not in df["action"].tolist() and "void" in df.attrs["no_win"]
    one_s = mj.Position.from_text(text.format("1s") + " voids=2,-1,-1,-1")
    assert mj.advise_claim(one_s)["action"].tolist() == ["pass"]
    assert "pung" in mj.advise_claim(mj.Position.from_text(text.format("1s")))[
        "action"].tolist()


def test_claims_rank_by_the_waits_that_reach_eight_fan():
    # 123m 456p 789s 11z 23p waits on 1p 4p 7p (23p + 456p).  Passing keeps 花龙 (Mixed
    # Straight, 8 fan: 123m 456p 789s) on 1p and 4p; 7p reads 234p 567p and breaks 456p,
    # so it wins below 8.  Winning live copies: 1p 4 + 4p 3 (one held) = 7 of the 11
    # shape ukeire (7p 4).  Chowing seat 3's 6s with 78s and throwing 9s keeps the same
    # shape wait (147p, 11 live) but loses 789s and with it the 8 fan of 花龙: by shape the
    # two rows tie, by the waits that win the pass is better.
    pos = mj.Position("123m456p789s11z23p", seat=0, discards=[None, None, None, "6s"])
    df = mj.advise_claim(pos).set_index("action")
    assert df.loc["pass", "ukeire_count"] == df.loc["chow 6-7-8s", "ukeire_count"] == 11
    assert df.loc["pass", "valid_ukeire"] == 7
    assert df.loc["chow 6-7-8s", "valid_ukeire"] < 7
    assert df.loc["pass", "rank"] == 1 and df.loc["chow 6-7-8s", "rank"] == 2
    assert df.loc["pass", "waits_fan"].startswith("1p:") and "7p:<8" in df.loc["pass", "waits_fan"]


def test_advise_at_a_position_says_whether_to_kong():
    # the position of test_concealed_kong_row_counted_by_hand: by efficiency the discard
    # of 3z (17 live) beats the kong (11 live), as advise_kong ranks it
    pos = mj.Position("1111m234p678s1237z", discards=[None, None, None, "3z"])
    eff = mj.advise(pos, by="efficiency", danger_samples=50)
    assert eff.attrs["kong"] == ("discard 3z (shanten 2, 17 live) rather than concealed "
                                 "kong 1m (shanten 2, 11 live)")
    # by ev (the default horizon): the kong's ev is its own expected gain over one draw
    # more (the replacement tile), with no discard now; the verdict names both evs
    ev = mj.advise(pos, danger_samples=50)
    from majiang.reading import horizon
    kong = mj.advise_kong(pos, draws=horizon(pos), danger=True)
    assert "concealed kong 1m (ev " in ev.attrs["kong"] and "discard " in ev.attrs["kong"]
    assert kong.set_index("action").loc["concealed kong 1m", "ev"] == pytest.approx(
        float(ev.attrs["kong"].split("concealed kong 1m (ev ")[1].split(")")[0]), abs=0.006)
    none = mj.advise(mj.Position("1155m234p678s123z4z", drawn="4z"), danger_samples=50)
    assert none.attrs["kong"] is None


def test_cli_claim_json_gives_the_fan_as_an_integer(capsys):
    import json

    from majiang.cli import main
    # the position of test_win_with_eight_fan_ranks_first's kind: a win row with its fan
    assert main(["claim", "hand=123m456p789s11z23p discards3=1p", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    win = [r for r in rows if r["action"] == "win"][0]
    assert isinstance(win["fan"], int) and win["fan"] >= 8
    assert all(r["fan"] is None for r in rows if r["action"] != "win")


def test_no_pung_or_kong_of_red_dragon_under_wuhan():
    # 武汉: 红中 is "never part of a set" (docs/rules/wuhan.md): three 红中 held, one on
    # offer from the seat across (no chow of an honour anyway): the only answer is pass
    pos = mj.Position("123m456p789s1777z", ruleset="wuhan", indicator="1m",
                      discards=[None, None, "9s7z", None])
    assert _actions(mj.advise_claim(pos)) == ["pass"]
    # the same hand under another ruleset with the same calls: kong, pung and pass
    other = mj.Position("123m456p789s1777z", ruleset="guangdong",
                        discards=[None, None, "9s7z", None])
    assert set(mj.advise_claim(other)["action"]) == {"kong", "pung", "pass"}


def test_no_pung_of_a_kong_only_tile_under_anqing():
    # 安庆 杠牌: 发 / 白 serve only in kongs (never punged): two 发 held, 发 on offer
    pos = mj.Position("123m456p789s1266z", ruleset="anqing", indicator="1m",
                      discards=[None, None, "9s6z", None])
    assert "pung" not in _actions(mj.advise_claim(pos))


def test_no_concealed_kong_of_red_dragon_under_wuhan():
    # four 红中 after the draw: no concealed kong row; the discard row alone
    from majiang.waiting_hand import kong_options
    pos = mj.Position("123m456p789s1z7777z", drawn="1z", ruleset="wuhan", indicator="1m")
    assert kong_options(pos) == []
    assert _actions(mj.advise_kong(pos)) == ["discard"]
