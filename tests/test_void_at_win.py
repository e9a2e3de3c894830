"""缺一门 at the win (``Ruleset.void_rule == "at_win"``) versus 定缺 at the deal.

立四 (docs/rules/lisi.md §1: "the final hand holds exactly two suits"), 保定's 缺一门 option
(docs/rules/baoding.md §1-2: a three-suit win is 诈胡; nothing is declared) and 安庆 rule set B
(docs/rules/anqing.md §2: "at most two suits" left to win) require the void only of the
winning hand; 四川 (docs/rules/sichuan.md §3) declares it at the deal (定缺) and throws it
first.  Checked here:

* the ruleset facts and every layer's reading of them (with_void, positions, the CLI);
* hand-worked wins and refusals per ruleset: any two suits win, three never do, melds count;
* shanten under the void at the win = the least over the three suits of the shanten with
  that suit's copies capped to 0 (random hands, with and without a meld);
* seeded engine runs: no 定缺 event or ask, no throwing order, every win lacks a suit, and
  the suit dropped is not fixed at the deal;
* the compiled and Python loops play the same hands under a void at the win, and the void
  bits of the bots' options matter (dropping them in one loop changes its play).
"""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

import majiang
from majiang import InvalidHandError, RuleError, rules
from majiang._core import game as cg
from majiang.cli import main
from majiang.game import play_hand, summarize
from majiang.game.players import EfficiencyPlayer
from majiang.hand import Hand
from majiang.rules import anqing, baoding
from majiang.rules.derived import with_void
from majiang.rules.model import game_model
from majiang.rules.shape_options import ShapeOptions
from majiang.tiles import format_counts

QYM = baoding.build(que_yi_men=True)
ANQING_B = anqing.build(rule_set="B")
AT_WIN = {"lisi": rules.get("lisi"), "baoding_qym": QYM, "anqing_b": ANQING_B}
# a 四川 table with its void played at the win: the compiled loop plays it (the three above
# play in the Python loop: standing tiles, 报听, a stand-in joker)
# (not registered: the registry's list stays the built-ins and the files loaded)
SICHUAN_AT_WIN = replace(rules.get("sichuan"), name="sichuan_at_win", void_rule="at_win")


def _suits(counts) -> set:
    return {k // 9 for k in range(27) if counts[k]}


# ---------------------------------------------------------------- the ruleset fact
def test_which_rulesets_declare_and_which_void_at_the_win():
    declared = {n for n in rules.BUILTIN_NAMES if game_model(n).declares_void}
    at_win = {n for n in rules.BUILTIN_NAMES
              if game_model(n).void_suit and not game_model(n).declares_void}
    assert declared == {"sichuan", "sichuan_xueliu"}
    assert at_win == {"lisi"}
    for rs in AT_WIN.values():
        m = game_model(rs)
        assert m.void_suit and not m.declares_void and rs.void_rule == "at_win"
    # without the option the 缺一门 rule is absent in 保定 and 安庆 A
    assert not game_model("baoding").void_suit and not game_model("anqing").void_suit
    assert not game_model(SICHUAN_AT_WIN).declares_void


def test_void_rule_is_checked_and_written_to_house_rules(monkeypatch):
    monkeypatch.setattr(rules, "_REGISTRY", dict(rules._REGISTRY))    # loads registers
    with pytest.raises(RuleError, match="void_rule"):
        rules.loads('base = "sichuan"\n[rules]\nvoid_rule = "sometimes"\n')
    with pytest.raises(RuleError, match="void_rule"):
        replace(rules.get("lisi"), void_rule=True)
    house = rules.loads('base = "sichuan"\n[rules]\nvoid_rule = "at_win"\n')
    assert house.void_rule == "at_win" and not game_model(house).declares_void
    text = rules.dumps(house)
    assert 'void_rule = "at_win"' in text.splitlines()
    assert rules.loads(text).void_rule == "at_win"
    assert '# void_rule = "declared"' in rules.dumps(rules.get("sichuan")).splitlines()


def test_rules_command_says_how_the_void_is_played(capsys):
    for name, word in (("lisi", "缺门 at the win"), ("sichuan", "定缺")):
        assert main(["rules", name]) == 0
        line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("void"))
        assert word in line
    assert main(["rules", "mcr"]) == 0
    assert not any(x.startswith("void") for x in capsys.readouterr().out.splitlines())
    assert main(["rules", "lisi", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["void"] == "at_win"


def test_no_void_declaration_under_a_void_at_the_win():
    # 立四 has no 定缺: a declared suit is refused everywhere (Python, positions, the CLI)
    for rs in AT_WIN.values():
        with pytest.raises(RuleError, match="declares no void suit"):
            with_void(rs, "m")
    assert with_void("sichuan", "m") is not rules.get("sichuan")           # 四川 declares
    with pytest.raises(RuleError, match="declares no void suit"):
        majiang.shanten("123m456m789m55p46p", ruleset="lisi", void="s")
    with pytest.raises(RuleError, match="only at the win"):
        majiang.Position("123m456m789m55p4p", ruleset="lisi", voids=[2, -1, -1])
    code = main(["shanten", "123m456m789m55p46p", "--rules", "lisi", "--void", "s"])
    assert code != 0
    with pytest.raises(RuleError, match="lisi declares no void suit"):
        play_hand("lisi", "random", exchange3=True)          # 换三张 comes before 定缺


# ---------------------------------------------------------------- the win, by hand
# each complete hand below is 4 sets + a pair, worked by hand; "lacks" names the suit absent
_WINS = [
    # 立四: exactly two suits, whichever two; melds count
    ("lisi", "123m456m789m55p34p", "2p", {}, True),               # lacks 条
    ("lisi", "123p456p789p55s34s", "2s", {}, True),               # lacks 万
    ("lisi", "123m456m789m55s34s", "5s", {}, True),               # lacks 筒
    ("lisi", "123m456p789s55m34m", "2m", {}, False),              # all three suits
    ("lisi", "123m55m34m [777p] [999p]", "2m", {}, True),         # melds: 万 筒
    ("lisi", "123m55m34m [777p] [999s]", "2m", {}, False),        # a meld brings 条
    # 保定 缺一门 (honours allowed beside two suits; one suit + honours is 屁和)
    ("baoding_qym", "123m456m11z45p [777p]", "6p", {}, True),      # lacks 条
    ("baoding_qym", "123m789m11z45s [777s]", "6s", {}, True),      # lacks 筒
    ("baoding_qym", "123p789p11z45s [777s]", "3s", {}, True),      # lacks 万
    ("baoding_qym", "123m456p11z45s [777s]", "6s", {}, False),     # all three suits
    ("baoding_qym", "1122m3344p5566p7z", "7z", {}, True),          # seven pairs, lacks 条
    ("baoding_qym", "1122m3344p5566s7z", "7z", {}, False),         # seven pairs, three suits
    # 安庆 B: self-draw only; at most two suits
    ("anqing_b", "123m456m789m55p34p", "2p", {"self_drawn": True}, True),
    ("anqing_b", "123s456s789s55p34p", "5p", {"self_drawn": True}, True),
    ("anqing_b", "123m456p789s55m34m", "2m", {"self_drawn": True}, False),
]


@pytest.mark.parametrize("name,hand,win,kw,wins", _WINS)
def test_hand_worked_wins_and_refusals(name, hand, win, kw, wins):
    rs = AT_WIN[name]
    kw = dict(kw)
    if name == "baoding_qym":
        kw.setdefault("seat_wind", 1)
    if wins:
        r = majiang.score(hand, win, ruleset=rs, **kw)
        assert len(_suits(r.winning_hand.counts)) == 2
    else:
        with pytest.raises(InvalidHandError, match="void_suit"):
            majiang.score(hand, win, ruleset=rs, **kw)


def test_anqing_b_joker_fills_within_two_suits():
    # 钻牌 (indicator 9s -> 1s wild): 123m456m789m55p3p + a 钻牌, self-drawn 2p: the joker
    # stands for 4p (234p) or 1p (123p); the hand lacks 条 either way
    r = majiang.score("123m456m789m55p3p1s", "2p", ruleset=ANQING_B, self_drawn=True,
                      indicator="9s")
    assert _suits(r.winning_hand.counts) == {0, 1}


# ---------------------------------------------------------------- shanten, property
def _capped(model, hand: Hand, suit) -> int:
    """The shape shanten with suit ``suit``'s copies capped to 0 (None: no cap), without
    void bits: the caps alone keep the suit out."""
    sh = model.shape(hand.melds)
    caps = np.array(sh.caps, dtype=np.uint8)
    if suit is not None:
        caps[9 * suit:9 * suit + 9] = 0
    so = cg.ShapeOpts(sh.mask_for(len(hand.melds)), sh.quads, caps, sh.pair_mask, 0,
                      sh.fifth, None)
    return int(cg.shanten(hand.concealed, so, 0))


def _capped_min(model, hand: Hand) -> int:
    """The least over the suits the melds leave free of :func:`_capped`."""
    held = set()
    for m in hand.melds:
        held |= {t // 9 for t in m.tiles if t < 27}
    return min(_capped(model, hand, s) for s in set(range(3)) - held)


@pytest.mark.parametrize("name", ["lisi", "baoding_qym", "sichuan_at_win"])
def test_shanten_is_the_least_over_the_suits(name):
    rs = SICHUAN_AT_WIN if name == "sichuan_at_win" else AT_WIN[name]
    model = game_model(rs)
    rng = np.random.default_rng(29)
    kinds = np.flatnonzero(model.copies)
    differs = 0
    for i in range(300):
        meld = None
        if i % 3 == 0:                       # one exposed pung of a random suited kind
            meld = int(rng.choice(kinds[kinds < 27]))
        pool = np.repeat(kinds, [int(model.copies[k]) - (3 if k == meld else 0)
                                 for k in kinds])
        n = 10 if meld is not None else 13
        c = np.bincount(rng.choice(pool, n, replace=False), minlength=34).astype(np.uint8)
        text = format_counts(c) + (f" [{format_counts(np.eye(34, dtype=int)[meld] * 3)}]"
                                   if meld is not None else "")
        hand = majiang.parse_hand(text) if meld is not None else Hand(c, ())
        got = majiang.shanten(text, ruleset=rs)
        assert got == _capped_min(model, hand), (name, text)
        differs += got != _capped(model, hand, None)
    assert differs > 0              # the void matters in some of these hands


def test_shape_options_carry_the_free_suits():
    m = game_model("lisi")
    assert m.shape(()).void_suits == 0b111
    assert m.shape(majiang.parse_hand("123m55m34m678m [777p]").melds).void_suits == 0b101


# ---------------------------------------------------------------- engine runs
class _NoVoid(EfficiencyPlayer):
    """The efficiency bot, failing the test if asked for a void suit."""

    def choose_void(self, view):
        raise AssertionError("a void suit was asked for")


@pytest.mark.parametrize("name", sorted(AT_WIN))
def test_seeded_hands_have_no_void_declaration_and_every_win_lacks_a_suit(name):
    rs = AT_WIN[name]
    n = rs.players
    wins = changed = 0
    for h in range(16):
        st = play_hand(rs, [_NoVoid() for _ in range(n)], seed=29, hand=h, log=True)
        assert not [e for e in st.events if e["e"] == "void"]
        assert all(s.void == -1 for s in st.seats)
        for w in st.wins:
            hand, tile, _ = w["check"]
            natural = hand.concealed.astype(int).copy()
            for m in hand.melds:
                for t in m.tiles:
                    natural[t] += 1
            if tile is not None and tile >= 0 and not w["result"].win_is_joker:
                natural[tile] += 1
            assert len(_suits(natural)) <= 2, (name, h, w["check"])
            lack = set(range(3)) - _suits(w["result"].winning_hand.counts)
            assert lack, (name, h)
            # the suit a 定缺 would have named (the fewest tiles at the deal, the efficiency
            # bot's rule) is not always the one the winning hand lacks: plans change
            start = st.start_hands[w["seat"]]
            fewest = min(range(3), key=lambda s: (int(start[9 * s:9 * s + 9].sum()), s))
            changed += fewest not in lack
            wins += 1
    assert wins >= 8
    assert changed > 0


def test_no_throwing_order_under_a_void_at_the_win():
    # the legal discards of a seat holding all three suits are all its kinds (四川 would
    # hold it to the declared suit)
    seen = []

    class Watch(EfficiencyPlayer):
        def discard(self, view):
            c = view.concealed
            if len(_suits(c)) == 3 and not view.locked[view.seat]:
                seen.append(sorted(view.legal_discards) == sorted(np.flatnonzero(c).tolist()))
            return super().discard(view)

    play_hand(SICHUAN_AT_WIN, [Watch() for _ in range(4)], seed=3, hand=0)
    assert seen and all(seen)


# ---------------------------------------------------------------- both loops
def test_compiled_and_python_loops_agree_under_a_void_at_the_win():
    wins = 0
    for pl in ("efficiency", "random"):
        for h in range(12):
            a = play_hand(SICHUAN_AT_WIN, pl, seed=17, hand=h, engine="python")
            b = play_hand(SICHUAN_AT_WIN, pl, seed=17, hand=h, engine="compiled")
            assert summarize(a) == summarize(b), (pl, h)
            assert [str(w["check"][0]) for w in a.wins] == [str(w["check"][0]) for w in b.wins]
            for w in b.wins:
                assert len(_suits(w["result"].winning_hand.counts)) <= 2
                wins += 1
    assert wins > 12


def test_the_void_bits_steer_the_bots(monkeypatch):
    # dropping the void bits from the Python loop's bot options (the bots then play by the
    # plain shape) changes its play against the compiled loop in some hand: the bits are
    # read, and the loops agree only because both read them
    plain = ShapeOptions.game_opts

    def no_void(self, *a, **kw):
        kw["void"] = False
        return plain(self, *a, **kw)

    monkeypatch.setattr(ShapeOptions, "game_opts", no_void)
    differ = sum(summarize(play_hand(SICHUAN_AT_WIN, "efficiency", seed=17, hand=h,
                                     engine="python"))
                 != summarize(play_hand(SICHUAN_AT_WIN, "efficiency", seed=17, hand=h,
                                        engine="compiled"))
                 for h in range(8))
    assert differ > 0


def test_env_asks_no_void_suit_under_a_void_at_the_win():
    pytest.importorskip("pettingzoo")
    from majiang.env import VOID, env
    e = env("lisi")
    e.reset(seed=0)
    u = e.unwrapped
    for _ in range(400):
        if not e.agents:
            break
        agent = u.agent_selection
        obs = u.observe(agent)
        assert not obs["action_mask"][VOID:VOID + 3].any()
        assert obs["observation"][13, 0] != 1
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(u.policy_action(EfficiencyPlayer()))
    assert not u.hand_state.events or not [x for x in u.hand_state.events if x["e"] == "void"]


def test_sichuan_still_declares():
    st = play_hand("sichuan", "efficiency", seed=29, hand=0, log=True)
    assert len([e for e in st.events if e["e"] == "void"]) == 4
