"""majiang.position: the Position of one seat at a decision (construction, validation,
derived counts, construction from play, text forms, advice that takes a Position).

Expected values are counted by hand from the positions written in each test."""
import numpy as np
import pandas as pd
import pytest

import majiang as mj
from majiang.errors import InvalidHandError, InvalidNotationError, MahjongError, RuleError
from majiang.hand import Meld
from majiang.position import Position, TableMeld
from majiang.records import Discard
from majiang.tiles import parse_tile as T


def _counts(**kw):
    c = np.zeros(34, np.int64)
    for name, n in kw.items():
        c[T(name[1:] if name.startswith("t") else name)] += n
    return c


# --------------------------------------------------------------------------
# construction and normalisation
# --------------------------------------------------------------------------

def test_keyword_constructor_normalises_to_the_contract_types():
    p = Position("123m456p789s1122z3z", melds=[None, "[555m]@0", None, None],
                 discards=["5m@1 1m", "9p", "", ""], drawn="3z", dealer=1,
                 prevalent_wind=1, flowers=[0, 2, 0, 0])
    assert p.concealed.dtype == np.uint8 and p.concealed.shape == (34,)
    assert not p.concealed.flags.writeable
    assert p.drawn == 29
    assert p.melds[1] == (TableMeld(Meld("pung", 4), 0),)
    assert p.discards[0] == (Discard(4, 1), Discard(0, None))
    assert p.discards[1] == (Discard(9 + 8),)
    assert p.flowers == (0, 2, 0, 0) and p.voids == (-1, -1, -1, -1)
    assert p.won == () and p.ready == () and p.hidden_kongs == (0, 0, 0, 0)
    assert p.players == 4 and p.model.name == "mcr"
    assert p.seat_wind == 3           # seat 0 with dealer 1: North
    assert p.opponents() == (1, 2, 3)
    assert p.concealed_count(0) == 14 and p.concealed_count(1) == 10
    assert p.concealed_count(2) == 13
    assert p.must_discard and p.last_discard is None


def test_the_same_position_from_counts_hand_and_meld_objects():
    a = Position("123m456p789s1122z", melds={2: "[789p]@1"}, discards=[[], ["8p@2"], [], []])
    hand = mj.parse_hand("123m456p789s1122z")
    b = Position(concealed=hand.concealed, melds=[(), (), [(Meld("chow", 15), 1)], ()],
                 discards=[(), [Discard(16, 2)], (), ()])
    c = Position(hand, melds=[[], [], [TableMeld(Meld("chow", 15), 1)], []],
                 discards=[[], [("8p", 2)], [], []])
    assert a == b == c and hash(a) == hash(b)


def test_own_melds_and_flowers_from_the_hand_text():
    p = Position("123m456p789s1z [555z] 13f", seat=2, discards=None)
    assert p.melds[2] == (TableMeld(Meld("pung", 31)),)
    assert p.flowers == (0, 0, 2, 0)
    assert p.own_melds == (Meld("pung", 31),)
    with pytest.raises(RuleError, match="given twice"):
        Position("123m456p789s1z [555z]", melds=["[666z]", None, None, None])


def test_visible_and_unseen_counts_by_hand():
    # seat 0 holds 123m456p789s1122z + 3z; seat 1 punged seat 0's 5m; seat 2 has a
    # concealed kong of 9m (shown); 9p and 1m lie on the table
    p = Position("123m456p789s1122z3z", drawn="3z",
                 melds=[None, "[555m]@0", "{9999m}", None],
                 discards=["5m@1 1m", "9p", "", ""])
    want = _counts(**{"5m": 3, "9m": 4, "1m": 1, "9p": 1})
    assert p.visible_counts().dtype == np.uint8
    assert np.array_equal(p.visible_counts(), want)
    unseen = p.unseen_counts()
    assert unseen.dtype == np.int16
    own = mj.as_counts("123m456p789s1122z3z").astype(np.int64)
    assert np.array_equal(unseen, 4 - own - want)
    # 144 tiles - 14 own - 3 + 4 meld tiles - 2 discards - (10 + 10 + 13) other concealed
    assert p.tiles_left == 144 - 14 - 7 - 2 - 33


def test_claimed_discard_counted_once_and_hidden_kongs_unseen():
    p = Position("123m456p789s1122z", melds=[None, None, "[789p]@1", None],
                 discards=[[], ["8p@2", "1z"], [], []], hidden_kongs=[0, 0, 0, 1])
    v = p.visible_counts()
    assert v[T("8p")] == 1 and v[T("7p")] == 1 and v[T("9p")] == 1 and v[T("1z")] == 1
    assert int(v.sum()) == 4
    assert p.concealed_count(3) == 10 and p.concealed_count(2) == 10
    assert int(p.unseen_counts().sum()) == 136 - 13 - 4
    assert p.tiles_left == 144 - 13 - 4 - 4 - (13 + 10 + 10)
    assert p.last_discard == (1, T("1z"))      # seat 0 waits: seat 3 has no river


def test_indicator_face_up_counts_as_seen():
    # 武汉: the wild kind is the one after the indicator, which stays face up
    p = Position("123m456p789s1122z", ruleset="wuhan", indicator="5m")
    assert p.visible_counts()[T("5m")] == 1
    assert int(p.visible_counts().sum()) == 1
    # 南昌: every copy of the turned kind is wild, the turned tile goes back
    q = Position("123m456p789s1122z", ruleset="nanchang", indicator="5m")
    assert int(q.visible_counts().sum()) == 0
    with pytest.raises(RuleError, match="no jokers"):
        Position("123m456p789s1122z", indicator="5m")


def test_jokers_in_hand_text_go_to_the_wild_kind():
    p = Position("123m456p789s11z**", ruleset="wuhan", indicator="5m")
    assert p.concealed[T("6m")] == 2
    with pytest.raises(RuleError, match="jokers"):
        Position("123m456p789s11z**")


def test_voids_won_ready():
    p = Position("123m456p789s1122z".replace("1122z", "1188p"), ruleset="sichuan",
                 voids=[2, 0, 1, -1], won=[3], ready={1})
    assert p.voids == (2, 0, 1, -1) and p.won == (3,) and p.ready == (1,)
    assert p.opponents() == (1, 2)
    with pytest.raises(RuleError, match="void"):
        Position("123m456p789s1122z", voids=[0, -1, -1, -1])
    with pytest.raises(RuleError, match="void suit of seat 1"):
        Position("123m456p789s1188p", ruleset="sichuan", voids=[0, 3, -1, -1])


# --------------------------------------------------------------------------
# validation: one-line errors
# --------------------------------------------------------------------------

@pytest.mark.parametrize("kw, err, match", [
    (dict(hand="1111m456p789s1122z", discards=["1m", "", "", ""]), InvalidHandError,
     "5 copies of 1m"),
    (dict(hand="123m456p789s1122z", melds=[None, "[111m]", None, "[1111m]"]),
     InvalidHandError, "copies of 1m"),
    (dict(hand="123m456p789s1188p", ruleset="sichuan", discards=["", "1z", "", ""]),
     InvalidHandError, "not in the tile set"),
    (dict(hand="123m456p789s1122z1z1z"), InvalidHandError,
     "holds 15 concealed tiles with 0 meld"),
    (dict(hand="123m456p789s112z"), InvalidHandError, "holds 12 concealed tiles with 0 meld"),
    (dict(hand="123m456p789s11z"), InvalidHandError, "holds 11 concealed"),
    (dict(hand="123m456p789s1122z", drawn="3z"), InvalidHandError, "drew 3z"),
    (dict(hand="123m456p789s1122z3z", drawn="4z"), InvalidHandError, "not among"),
    (dict(hand="123m456p789s1122z", seat=4), RuleError, "seat must be 0..3"),
    (dict(hand="123m456p789s1122z", dealer=-1), RuleError, "dealer"),
    (dict(hand="123m456p789s1122z", prevalent_wind=4), RuleError, "prevalent_wind"),
    (dict(hand="123m456p789s1122z", discards=["1m@1", "", "", ""]), InvalidHandError,
     "claimed by seat 1"),
    (dict(hand="123m456p789s1122z", discards=["1m@0", "", "", ""]), RuleError,
     "not another seat"),
    (dict(hand="123m456p789s1122z", melds=[None, "[111z]@1", None, None]), RuleError,
     "claimed from seat 1"),
    (dict(hand="123m456p789s1122z", melds=[None, None, None]), RuleError, "one entry per seat"),
    (dict(hand="123m456p789s1122z", flowers=[3, 3, 3, 3]), InvalidHandError, "12 flowers"),
    (dict(hand="123m456p789s1122z", wall_left=200), InvalidHandError, "wall_left"),
    (dict(hand="123m456p789s1122z", melds=[None, "[123p] [456p] [789p] [111s] [222s]",
                                          None, None]), InvalidHandError, "5 melds"),
    (dict(hand="123m456p789s1122z", melds=[None, "[124m]", None, None]),
     InvalidNotationError, "not a meld"),
    (dict(hand="123m456p789s1122z", melds=[None, "123m", None, None]),
     InvalidNotationError, "brackets"),
    (dict(hand="123m456p789s1122z", won_tiles=[None, "5m", None, None]), RuleError,
     "not among the seats that won"),
])
def test_invalid_positions_raise_one_line_errors(kw, err, match):
    with pytest.raises(err, match=match) as info:
        Position(**kw)
    assert "\n" not in str(info.value)


def test_won_tiles_count_a_win_on_a_discard_once():
    p = Position("123m456p789s1188p", ruleset="sichuan", won=[2], won_tiles=[None, None, "5s", None],
                 discards=["", "5s@2", "", ""])
    assert p.visible_counts()[T("5s")] == 1
    assert int(p.visible_counts().sum()) == 1


# --------------------------------------------------------------------------
# construction from play
# --------------------------------------------------------------------------

def test_from_botzone_every_decision_of_the_example_games():
    from majiang.records import decision_points, example_games
    n = 0
    for g in example_games():
        for i, d in enumerate(decision_points(g)):
            p = Position.from_botzone(g, i)
            assert p.seat == d.player and p.seat_wind == d.seat_wind
            assert p.prevalent_wind == d.prevalent_wind and p.drawn == d.drawn
            assert np.array_equal(p.concealed, d.concealed)
            assert p.own_melds == tuple(Meld(m.kind, m.tile, m.concealed) for m in d.melds)
            assert np.array_equal(p.visible_counts(), d.visible)
            assert p.must_discard
            # Botzone has no flowers: the wall left is what no seat holds or has seen
            assert p.replace(wall_left=None).tiles_left == p.wall_left + 8
            n += 1
    assert n > 300
    with pytest.raises(RuleError, match="discard decisions"):
        Position.from_botzone(g, 10_000)


def test_from_botzone_marks_claims_and_their_source():
    from majiang.records import decision_points, example_games, replay
    for g in example_games():
        states = list(replay(g))
        for i, d in enumerate(decision_points(g)):
            p = Position.from_botzone(g, i)
            st = states[d.turn_index - 1]
            assert tuple(tuple(r) for r in p.discards) == st.discards
            for q in range(4):
                # every claimed meld names a seat whose river holds a discard claimed by q
                for tm in p.melds[q]:
                    if not tm.meld.concealed:
                        assert tm.from_seat is not None
                        assert any(x.claimed_by == q and x.tile in tm.meld.tiles
                                   for x in p.discards[tm.from_seat])


def _as_played(counts, stand_in):
    """Physical counts folded as the engine's view counts them: a stand-in (安庆 红中,
    上海百搭 / 温州 白板) as the joker kind it plays as."""
    sub, face = stand_in
    c = np.array(counts, dtype=np.int64)
    if sub is not None and sub != face:
        c[face] += c[sub]
        c[sub] = 0
    return c


class _Recorder:
    """A policy that plays as the efficiency bot and keeps the Position of each decision
    (from the view) with the view's own counts."""

    def __init__(self, seat, sink, bot=None):
        from majiang.game import EfficiencyPlayer
        self.bot = (bot or EfficiencyPlayer)(np.random.default_rng(seat))
        self.sink = sink

    def _keep(self, view):
        self.sink.append((Position.from_view(view), view.visible_counts().copy(),
                          view.wall_left, view.seat, view.own_melds,
                          (view.stand_in, view.joker_kind)))

    def declare(self, view, options):
        self._keep(view)
        return self.bot.declare(view, options)

    def discard(self, view):
        self._keep(view)
        return self.bot.discard(view)

    def claim(self, view, options):
        self._keep(view)
        return self.bot.claim(view, options)

    def choose_void(self, view):
        self._keep(view)
        return self.bot.choose_void(view)

    def exchange(self, view):
        self._keep(view)
        return self.bot.exchange(view)


@pytest.mark.parametrize("ruleset, seed", [("mcr", 1), ("mcr", 7), ("sichuan", 2),
                                           ("sichuan", 5), ("wuhan", 3), ("guangdong", 4),
                                           ("nanchang", 6), ("taiwan", 8),
                                           ("sichuan_xueliu", 1), ("tianjin", 2),
                                           # stand-ins claimed into pungs (上海百搭 /
                                           # 温州 白板, 安庆 红中) in these hands
                                           ("shanghai_baida", 17), ("anqing", 0),
                                           ("wenzhou", 13)])
def test_from_view_and_from_log_agree_over_played_hands(ruleset, seed):
    from majiang.efficiency import read_faces
    from majiang.game import play_hand
    from majiang.game.logs import DECISIONS
    sink = []
    st = play_hand(ruleset, [_Recorder(s, sink) for s in range(4)], seed=seed, log=True,
                   exchange3=ruleset == "sichuan")
    log = st.events
    steps = [i for i, e in enumerate(log) if e["e"] in DECISIONS and not e.get("forced")]
    assert len(steps) == len(sink) > 10
    standin_decisions = 0
    for i, (pv, vis, wall_left, seat, played, stand_in) in zip(steps, sink):
        # the view's own count of what the seat sees (discard pools, others' exposed
        # melds, a face-up indicator), by the kind each tile plays as
        assert np.array_equal(_as_played(pv.visible_counts(), stand_in), vis), (i, log[i])
        pl = Position.from_log(log, i)
        assert pl.seat == seat == pv.seat
        assert np.array_equal(pl.concealed, pv.concealed), (i, log[i])
        assert pl.own_melds == pv.own_melds
        # the melds are kept by their physical tiles and play, read by their faces, as
        # the engine's own melds (a stand-in pung [555z] as the joker kind's pung)
        if pl.indicator is not None or pl.model.jokers is None:
            assert read_faces(pl.hand, pl.ruleset, pl.indicator).melds == played, (i, log[i])
        # the engine's view leaves out the tiles winners took (血战): the log keeps them
        won = np.bincount([t for ts in pl.won_tiles for t in ts], minlength=34)
        assert np.array_equal(_as_played(pl.visible_counts() - won, stand_in), vis), \
            (i, log[i])
        assert pl.wall_left == wall_left == pv.wall_left
        assert pl.flowers == pv.flowers and pl.voids == pv.voids and pl.won == pv.won
        assert pl.hidden_kongs == pv.hidden_kongs and pl.indicator == pv.indicator
        if log[i]["e"] not in ("void", "exchange"):
            assert pl.drawn == pv.drawn
        assert pl.last_discard == pv.last_discard or log[i]["e"] != "claim"
        sub = stand_in[0]
        if sub is not None and log[i]["e"] == "discard" and \
                any(sub in tm.meld.tiles for ms in pl.melds for tm in ms):
            # a stand-in meld on the table: the advice from the log is the advice from
            # the engine's view (the danger columns aside: they read whom each meld was
            # claimed from, which the log says and the view does not, and the ranks, which
            # they order)
            standin_decisions += 1
            if standin_decisions <= 3:
                a, b = (mj.advise(x, second_order=False, draws=2, n_samples=200,
                                  danger_samples=20).sort_values("discard")
                        .reset_index(drop=True) for x in (pl, pv))
                cols = [c for c in a.columns if c not in
                        ("rank", "p_deal_in", "p_deal_in_se", "exp_loss", "ev")]
                assert len(a) > 1 and a[cols].equals(b[cols]), (i, log[i])
    assert standin_decisions or stand_in[0] is None


def test_from_log_of_simulate_and_its_errors():
    t = mj.simulate("mcr", 1, seed=3, logs=True, progress=False)
    log = t["log"][0]
    last = Position.from_log(log, len(log) - 1, seat=0)
    assert last.wall_left == log[-1]["wall_left"]
    with pytest.raises(RuleError, match="belongs to no seat"):
        Position.from_log(log, len(log) - 1)
    with pytest.raises(RuleError, match="not an event"):
        Position.from_log(log, len(log))
    with pytest.raises(RuleError, match="header"):
        Position.from_log(log[1:], 3)
    from majiang.game import to_jsonl
    assert Position.from_log(to_jsonl(log), 20) == Position.from_log(log, 20)


# --------------------------------------------------------------------------
# text forms
# --------------------------------------------------------------------------

def _rich_position():
    return Position("1234m567p11z34788s", drawn="8s", dealer=3, prevalent_wind=1,
                    melds=[None, "[555z]@2 {6666m}", None, None],
                    discards=["9p 1z", "4z 1m", "6s 3z 5z@1", "2p"], flowers=[0, 1, 0, 2],
                    wall_left=50)


def test_dict_text_and_file_round_trips(tmp_path):
    import json
    p = _rich_position()
    d = p.to_dict()
    assert d["concealed"] == "1234m567p34788s11z" and d["drawn"] == "8s"
    assert d["melds"] == ["", "[555z]@2 {6666m}", "", ""]
    assert d["discards"][2] == "6s 3z 5z@1"
    assert Position.from_dict(d) == p
    assert Position.from_dict(json.loads(json.dumps(d))) == p
    assert Position.from_text(p.to_text()) == p
    assert Position.from_text(json.dumps(d)) == p
    (tmp_path / "p.json").write_text(json.dumps(d))
    assert Position.from_file(tmp_path / "p.json") == p
    (tmp_path / "p.txt").write_text(p.to_text() + "\n")
    assert Position.from_file(tmp_path / "p.txt") == p
    # every position rebuilt from play survives its text form
    from majiang.records import example_games
    g = example_games()[0]
    for i in (0, 5, 20, -1):
        q = Position.from_botzone(g, i)
        assert Position.from_text(q.to_text()) == q == Position.from_dict(q.to_dict())


def test_toml_position_file(tmp_path):
    f = tmp_path / "p.toml"
    f.write_text('ruleset = "mcr"\nseat = 0\nhand = "1234m567p11z34788s"\ndrawn = "8s"\n'
                 'dealer = 3\nprevalent_wind = 1\nwall_left = 50\nflowers = [0, 1, 0, 2]\n'
                 'discards = ["9p 1z", "4z 1m", "6s 3z 5z@1", "2p"]\n'
                 '[melds]\n1 = "[555z]@2 {6666m}"\n')
    assert Position.from_file(f) == _rich_position()


def test_one_line_form_as_documented():
    p = Position.from_text("hand=1234m567p11z34788s drawn=8s seat=0 dealer=3 wind=1 "
                           "melds1='[555z]@2 {6666m}' discards0=9p1z discards1=4z1m "
                           "discards2=6s3z5z@1 discards3=2p wall=50 flowers=0,1,0,2")
    assert p == _rich_position()
    q = Position.from_text("hand=123m456p789s1122z discards3=2p discards2=5z won=1 "
                           "last_discard=3:2p ruleset=sichuan".replace("1122z", "1188p")
                           .replace("5z", "5s"))
    assert q.last_discard == (3, T("2p")) and q.won == (1,)


@pytest.mark.parametrize("text, err, match", [
    ("hand=123m456p789s1122z colour=red", RuleError, "unknown position key 'colour'"),
    ("hand=123m456p789s1122z seat", InvalidNotationError, "not key=value"),
    ("hand=123m456p789s1122z seat=x", InvalidNotationError, "whole number"),
    ("hand=123m456p789s1122z concealed=123m456p789s1122z", RuleError, "twice"),
    ("hand=123m456p789s1122z discards7=1m", RuleError, "seat 7"),
    ("seat=1", RuleError, "needs the seat's tiles"),
    ("{not json", InvalidNotationError, "JSON"),
])
def test_text_form_errors(text, err, match):
    with pytest.raises(err, match=match) as info:
        Position.from_text(text)
    assert "\n" not in str(info.value)


def test_from_file_missing(tmp_path):
    with pytest.raises(RuleError, match="cannot read"):
        Position.from_file(tmp_path / "nope.toml")


def test_repr_html_draws_the_table():
    from majiang.tiles import TILE_BACK_GLYPH, tile_glyph
    p = Position("1234m567p11z34788s", drawn="8s", dealer=3,
                 melds=[None, "[555z]@2", None, None], hidden_kongs=[0, 0, 0, 1],
                 discards=["9p1z", "4z1m", "6s3z5z@1", "2p"], flowers=[0, 1, 0, 2])
    h = p._repr_html_()
    assert h.startswith('<div class="majiang-position">') and h.count("<tr>") == 5
    for t in ("9p", "1z", "4z", "1m", "6s", "3z", "2p"):
        assert tile_glyph(T(t)) in h
    assert "claimed by seat 1" in h and "claimed from seat 2" in h
    assert TILE_BACK_GLYPH * 4 in h                 # seat 3's unseen concealed kong
    assert 'title="drawn 8s"' in h and "<b>you</b>" in h and "2 flowers" in h
    # the own hand: 13 glyphs then the drawn tile
    hand = "".join(tile_glyph(T(x)) for x in
                   ("1m", "2m", "3m", "4m", "5p", "6p", "7p", "3s", "4s", "7s", "8s", "1z", "1z"))
    assert hand in h


# --------------------------------------------------------------------------
# the analyses take a Position
# --------------------------------------------------------------------------

def _advice_position():
    # seat 1 (dealer 0: South) must discard; 7m is seen twice in rivers, once in a meld
    return Position("23345m111p456p99s6m", seat=1, dealer=0, prevalent_wind=1,
                    melds=[None, None, "[777m]@0", None],
                    discards=["1z 7m@2 9m", "2z", "3z 4z", "7m 5z"])


def test_advise_with_a_position_equals_the_keyword_call():
    p = _advice_position()
    vis = p.visible_counts()
    # by hand: rivers 1z 9m 2z 3z 4z 7m 5z (7m claimed by seat 2 is in its meld) + 777m
    assert vis[T("7m")] == 4 and int(vis.sum()) == 10
    # by="efficiency": the order of the keyword call, with the danger columns added
    a = mj.advise(p, by="efficiency", danger_samples=50)
    b = mj.advise("23345m111p456p99s6m", vis, seat_wind=1, prevalent_wind=1)
    assert a[list(b.columns)].equals(b)
    assert {k: a.attrs[k] for k in b.attrs} == b.attrs
    # by hand: discarding 3m leaves 2345m6m 111p 456p 99s, waiting on 1m 4m 7m; live
    # 1m 4 + 4m 3 (one held) + 7m 0 (all four seen) = 7, where a bare hand counts 11
    row = a.set_index("discard").loc["3m"]
    assert row["ukeire"] == "147m" and row["ukeire_count"] == 7
    assert mj.advise("23345m111p456p99s6m").set_index("discard").loc["3m", "ukeire_count"] \
        == 11


def test_position_conflicts_are_refused():
    p = _advice_position()
    with pytest.raises(RuleError, match="drop visible="):
        mj.advise(p, "1m")
    with pytest.raises(RuleError, match="ruleset mcr; ruleset='sichuan' conflicts"):
        mj.advise(p, ruleset="sichuan")
    with pytest.raises(RuleError, match="seat_wind 1"):
        mj.advise(p, seat_wind=3)
    mj.advise(p, ruleset="mcr", seat_wind="S", prevalent_wind=1)   # agreeing: accepted
    with pytest.raises(RuleError, match="prevalent_wind"):
        mj.probabilities(p, 2, prevalent_wind="N")
    with pytest.raises(RuleError, match="drop visible="):
        mj.fan_odds(p, 2, visible="1m")


def test_advise_refuses_keywords_the_position_gives_even_at_their_defaults():
    """Was: advise(position, jokers=0) and advise(position, seat_wind=0) for a South seat
    were accepted silently (0 was taken for "not given").  The position's hand holds its
    own jokers, so jokers= is refused whatever its value; a wind is checked when given,
    East included, and accepted when it agrees."""
    p = _advice_position()                  # seat 1: South, prevalent wind South
    assert p.seat_wind == 1 and p.prevalent_wind == 1
    for kw, match in ((dict(jokers=0), "holds its jokers; drop jokers=0"),
                      (dict(jokers=1), "drop jokers=1"),
                      (dict(seat_wind=0), "gives seat_wind 1; seat_wind=0 conflicts"),
                      (dict(seat_wind="E"), "seat_wind='E' conflicts"),
                      (dict(prevalent_wind=0), "gives prevalent_wind 1; prevalent_wind=0")):
        with pytest.raises(RuleError, match=match) as exc:
            mj.advise(p, by="efficiency", **kw)
        assert "\n" not in str(exc.value)
    mj.advise(p, by="efficiency", seat_wind=1, prevalent_wind="S")    # agreeing: accepted
    # a hand without a position keeps the defaults: no jokers, East / East
    a = mj.advise("23345m111p456p99s6m")
    pd.testing.assert_frame_equal(a, mj.advise("23345m111p456p99s6m", jokers=0,
                                                seat_wind=0, prevalent_wind=0))


def test_probabilities_and_fan_odds_with_a_position():
    # a ready sichuan hand waiting on 5s/8s... : 1s pair + 23456789p + 55s? keep it simple:
    # 123456789p 11s 55s waits on 1s / 5s (shanpon); 3 of 5s and 2 of 1s are seen
    p = Position("123456789p1155s", ruleset="sichuan", voids=[0, -1, -1, -1],
                 discards=["5s", "5s 5p@2 1s", "", "1m"], melds=[None, None, "[555p]@1", None])
    # the wall: 108 - 13 own - 1 1m - (5s, 5s, 1s) - 3 meld tiles (5p claimed: counted
    # once) = 88 unseen tiles; live winning tiles: 1s x1, 5s x0 ... 5s: 4 - 2 own - 2 seen
    unseen = int(p.unseen_counts().sum())
    assert unseen == 108 - 13 - 1 - 3 - 3
    live = 4 - 2 - 1        # 1s: two held, one discarded
    est = mj.win_probability(p, 1)
    assert est.value == pytest.approx(live / unseen)
    kw = dict(visible=p.analysis_visible(), ruleset="sichuan")
    assert mj.probabilities(p, 3).p_win == pytest.approx(
        mj.probabilities("123456789p1155s", 3, **kw).p_win)
    a = mj.fan_odds(p, 2)
    b = mj.fan_odds("123456789p1155s", 2, **kw)
    assert a.equals(b)
    assert mj.tenpai_probability(p, 1).value == 1.0


def test_position_hand_turns_held_wild_tiles_into_jokers():
    # 武汉: indicator 5m makes 6m wild; the position keeps 6m as a physical kind
    p = Position("123m456p789s11z6m6m", ruleset="wuhan", indicator="5m")
    h = p.hand
    assert h.jokers == 2 and h.concealed[T("6m")] == 0
    assert p.analysis_kwargs()["indicator"] == "5m"
    # the face-up indicator is left out of visible= (the analyses count it themselves)
    assert p.visible_counts()[T("5m")] == 1 and p.analysis_visible()[T("5m")] == 0
    a = mj.advise(p.replace(hand="123m456p789s11z6m6m1z"), by="efficiency", danger_samples=20)
    b = mj.advise("123m456p789s11z**1z", ruleset="wuhan", indicator="5m")
    assert a[list(b.columns)].equals(b)


def test_discard_probabilities_and_curves_with_a_position():
    p = _advice_position()
    vis = p.analysis_visible()
    a = mj.discard_probabilities(p, 2)
    b = mj.discard_probabilities("23345m111p456p99s6m", 2, visible=vis, seat_wind=1,
                                 prevalent_wind=1)
    assert a.equals(b)
    # by hand under "plain" (any complete hand wins), one draw after discarding 3m:
    # 7 live winning tiles (1m x4, 4m x3, no 7m) among 136 - 13 held - 10 seen - the
    # discarded 3m = 112 unseen tiles
    plain = mj.discard_probabilities(p.replace(ruleset="plain"), 1).set_index("discard")
    assert plain.loc["3m", "p_win"] == pytest.approx(7 / 112)
    c = mj.discard_curves(p, 2)
    assert set(c) <= set(a["discard"])
    assert mj.win_curve(p, 2)[-1] == pytest.approx(mj.probabilities(p, 2).p_win)


def test_pickle_round_trip_keeps_the_array_read_only():
    import pickle
    p = _rich_position()
    q = pickle.loads(pickle.dumps(p))
    assert q == p and not q.concealed.flags.writeable
    assert q.replace(wall_left=None).tiles_left == p.replace(wall_left=None).tiles_left
    with pytest.raises(RuleError, match="no field 'colour'"):
        p.replace(colour=1)


# --------------------------------------------------------------------------
# one-line errors that used to be vague (fresh-user report)
# --------------------------------------------------------------------------

def test_a_count_that_fits_no_hand_is_told_with_the_melds_counted():
    # 12 concealed tiles + a meld given in melds= is 15 tiles: the message counts the meld
    with pytest.raises(InvalidHandError, match=r"12 concealed tiles with 1 meld\(s\) = 15"):
        Position("23345m111p456p9s", melds=["[777m]", None, None, None])


def test_a_hand_that_is_not_text_is_told_so():
    with pytest.raises(MahjongError, match="hand must be the seat's tiles as text"):
        Position(123)


def test_a_dash_is_an_empty_river_or_meld_list_in_every_form():
    a = Position("23345m111p456p99s6m", discards=["1z", "-", "-", "2z"],
                 melds=["-", None, "-", None])
    b = Position.from_text("hand=23345m111p456p99s6m discards0=1z discards1=- discards3=2z "
                           "melds2=-")
    assert a == b and a.discards[1] == () and a.melds[2] == ()


def test_a_ready_seat_listed_twice_is_refused():
    with pytest.raises(RuleError, match="seat 1 is listed twice"):
        Position("123m456p789s1188p", ruleset="sichuan", ready=[1, 1])


def test_a_meld_claimed_from_a_seat_needs_its_tile_marked_in_that_river():
    """Was: seat 2's [777m]@0 with no 7m marked @2 in seat 0's river was accepted, so the
    claimed tile was nowhere on seat 0's side.  The mark is required when the meld names
    its source; a meld without @ (source not said) is accepted as before."""
    melds = [None, None, "[777m]@0", None]
    ok = Position("23345m111p456p99s6m", seat=1, melds=melds,
                  discards=["1z 7m@2 9m", "2z", "3z 4z", "7m 5z"])
    assert ok.melds[2][0].from_seat == 0
    for river0 in ("1z 7m 9m", "1z 9m"):
        with pytest.raises(InvalidHandError, match=r"seat 2's meld \[777m\] is claimed from "
                           r"seat 0, but seat 0's discards hold no 7m marked claimed by "
                           r"seat 2") as exc:
            Position("23345m111p456p99s6m", seat=1, melds=melds,
                     discards=[river0, "2z", "3z 4z", "7m 5z"])
        assert "\n" not in str(exc.value)
    unsaid = Position("23345m111p456p99s6m", seat=1, melds=[None, None, "[777m]", None],
                      discards=["1z 9m", "2z", "3z 4z", "7m 5z"])
    assert unsaid.melds[2][0].from_seat is None
    # two chows from the same seat sharing tiles: each needs its own marked tile, matched
    # whatever the river's order (2m then 1m was refused: 2m went to [123m] first)
    two = [None, "[123m]@0 [234m]@0", None, None]
    Position("45679p11z", seat=1, melds=two, discards=["2m@1 1m@1", "", "", ""])
    with pytest.raises(InvalidHandError, match=r"meld \[234m\] is claimed from seat 0"):
        Position("45679p11z", seat=1, melds=two, discards=["1m@1 9s", "", "", ""])


def test_from_botzone_needs_a_record():
    with pytest.raises(RuleError, match="GameRecord"):
        Position.from_botzone("garbage", 1)


@pytest.mark.parametrize("wall_left", [0, 2, 7])
def test_a_horizon_longer_than_the_wall_is_refused(wall_left):
    """draws beyond the tiles left in the wall at the position cannot be drawn: refused in
    one line (they were silently played as if the wall were full)."""
    p = mj.Position("23345m111p456p99s6m", seat=1, wall_left=wall_left)
    for call in (lambda: mj.advise(p, draws=8),
                 lambda: mj.win_probability(p, 8),
                 lambda: mj.probabilities(p, 8)):
        with pytest.raises(RuleError, match=f"the wall has {wall_left} tile"):
            call()
    assert mj.advise(p, draws=min(wall_left, 1)) is not None


def test_the_default_horizon_is_zero_when_the_wall_is_empty():
    from majiang.reading import horizon
    assert horizon(mj.Position("23345m111p456p99s6m", seat=1, wall_left=0)) == 0
    assert horizon(mj.Position("23345m111p456p99s6m", seat=1, wall_left=2)) == 1
    assert horizon(mj.Position("23345m111p456p99s6m", seat=1, wall_left=80)) == 3
    t = mj.advise(mj.Position("23345m111p456p99s6m", seat=1, wall_left=0))
    assert t["p_win"].max() == 0.0


def test_a_chow_is_claimed_only_from_the_seat_before():
    ok = mj.Position("123456789m1234p", seat=1, melds=[None, None, "[789m]@1", None],
                     discards=[None, "9m@2", None, None])
    assert ok.melds[2][0].from_seat == 1
    with pytest.raises(RuleError, match="claimed only from the seat before, 1"):
        mj.Position("123456789m1234p", seat=1, melds=[None, None, "[789m]@0", None],
                    discards=["9m@2", None, None, None])
    # a pung may come from any other seat
    mj.Position("123456789m1234p", seat=1, melds=[None, None, "[999p]@0", None],
                discards=["9p@2", None, None, None])


# --------------------------------------------------------------------------
# complete rivers: their lengths against the turn order
# --------------------------------------------------------------------------

def test_complete_rivers_of_real_games_are_accepted():
    # every discard decision of the bundled Botzone games (real play, rivers complete with
    # claims marked) fits the turn order
    from majiang.records import decision_points, example_games
    n = 0
    for g in example_games():
        for i, _ in enumerate(decision_points(g)):
            p = Position.from_botzone(g, i)
            assert p.replace(complete_rivers=True).complete_rivers
            n += 1
    assert n > 300


@pytest.mark.parametrize("name", ["mcr", "sichuan", "sichuan_xueliu", "guangdong"])
def test_complete_rivers_of_engine_hands_are_accepted(name):
    # every position two engine hands pass through (claims, kongs, 血战 / 血流 wins)
    from majiang.game import play_hand
    for h, players in ((1, "efficiency"), (2, "random")):
        ev = play_hand(name, players, seed=3, hand=h, log=True).events
        for step, e in enumerate(ev):
            if e.get("seat") is None:
                continue
            Position.from_log(ev, step).replace(complete_rivers=True)


# seat 1 waits (13 tiles); the dealer (seat 0) discarded 9m 5m 7p, the 5m punged by seat 2
# (seat 1 skipped): play went 0 1 2 3 0 2 3 0, so seat 0 has 3 discards, seat 1 one
_RIVERS = dict(hand="1234p6789m11z234s", seat=1, discards=["9m5m@2 7p", "9p", "9s8s", "2z3z"],
               melds=[None, None, "[555m]@0", None])


def test_complete_rivers_with_a_claim():
    p = Position(**_RIVERS, complete_rivers=True)
    assert p.complete_rivers and p.last_discard == (0, T("7p"))
    # without the claim seat 1 would have discarded after each of seat 0's discards
    with pytest.raises(InvalidHandError, match="turn order.*at most 1 ahead"):
        Position(hand="1234p6789m11z234s", seat=1, discards=["9m5m7p", "9p", "9s8s", "2z3z"],
                 complete_rivers=True)
    # partial rivers (the default) are not checked
    Position(hand="1234p6789m11z234s", seat=1, discards=["9m5m7p", "9p", "9s8s", "2z3z"])


def test_complete_rivers_follow_the_dealer():
    # no claim: nobody discards more than a seat before it from the dealer
    rivers = ["1z", "2z3z", "4z", "5z"]
    with pytest.raises(InvalidHandError, match="seat 1 discarded 2 tiles, seat 0 1.*at most 0"):
        Position(hand="1234p6789m11z234s", seat=2, discards=rivers, complete_rivers=True)
    # seat 1 deals: 1 2 3 0 1, then seat 2's turn
    Position(hand="1234p6789m11z234s", seat=2, dealer=1, discards=rivers, complete_rivers=True)
    with pytest.raises(RuleError, match="complete_rivers must be True or False"):
        Position(hand="1234p6789m11z234s", seat=2, complete_rivers="yes")


def test_more_tiles_shown_than_the_set_holds_is_an_error():
    # 30 kinds discarded once per river (the 27 suit kinds and 5z 6z 7z), a hand of 1z-4z:
    # mcr's 144 tiles (8 flowers, none set aside) less the four 13-tile hands (the own and
    # three others) less 30 k discards: k = 1 leaves 62, 3 leaves 2, 4 leaves -28 (an error)
    river = "1m2m3m4m5m6m7m8m9m1p2p3p4p5p6p7p8p9p1s2s3s4s5s6s7s8s9s5z6z7z"
    for k, left in ((1, 144 - 52 - 30), (3, 144 - 52 - 90)):
        p = Position("1111222233334z", seat=1, discards=[river] * k + [None] * (4 - k))
        assert p.tiles_left == left
    with pytest.raises(InvalidHandError, match="28 tiles more than the tile set of mcr"):
        Position("1111222233334z", seat=1, discards=[river] * 4)
    # a wall_left given too: the same error, not "leaves at most -28 tiles for the wall"
    with pytest.raises(InvalidHandError, match="28 tiles more than the tile set of mcr"):
        Position("1111222233334z", seat=1, discards=[river] * 4, wall_left=0)


# --------------------------------------------------------------------------
# positions from play know their rivers are complete
# --------------------------------------------------------------------------

def test_from_botzone_positions_have_complete_rivers():
    # a Botzone record holds every discard, claimed ones included: the rivers are complete
    # and checked against the turn order
    from majiang.records import decision_points, example_games
    n = 0
    for g in example_games():
        for i, _ in enumerate(decision_points(g)):
            assert Position.from_botzone(g, i).complete_rivers
            n += 1
    assert n > 300


def test_from_log_positions_have_complete_rivers_for_every_ruleset():
    # an engine log holds every discard: each position of a seeded hand of every ruleset
    # (claims, kongs, 血战 wins, flowers, jokers) is built with complete rivers, and so
    # passes the turn-order check
    from majiang.game import play_hand
    n = 0
    for name in mj.rules.available():
        for players in ("efficiency", "random"):
            ev = play_hand(name, players, seed=1, log=True).events
            for step, e in enumerate(ev):
                p = Position.from_log(ev, step, seat=None if "seat" in e else 0)
                assert p.complete_rivers, (name, players, step)
                n += 1
    assert n > 5000


def test_a_river_that_breaks_the_turn_order_is_refused_from_a_log():
    # the flag is kept by replace: the log's position with seat 1's river emptied (seat 1
    # then never discarded, though seats 2 and 3 after it did 3 times, no claim) is refused
    from majiang.game import play_hand
    ev = play_hand("mcr", "efficiency", seed=9, log=True).events
    step = [i for i, e in enumerate(ev) if e["e"] == "discard"][12]   # the dealer's 4th
    assert not any(e["e"] == "call" for e in ev[:step])
    p = Position.from_log(ev, step)
    assert [len(r) for r in p.discards] == [3, 3, 3, 3] and p.seat == p.dealer == 0
    with pytest.raises(InvalidHandError, match="turn order"):
        p.replace(discards=[p.discards[0], (), p.discards[2], p.discards[3]])
    p.replace(discards=[p.discards[0], (), p.discards[2], p.discards[3]],
              complete_rivers=False)
