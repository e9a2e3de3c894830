"""The whole-hand engine: one hand (一局) under a ruleset, from the deal to the end.

Everything about the game comes from the ruleset's game model
(:func:`majiang.rules.model.game_model`): the tile set and flowers, players, hand
size, calls, jokers (an indicator turned from the wall), the end-of-wall rule,
several winners or head-bump, 血战到底 / 血流成河; whether a hand wins is asked of
THE win predicate (:func:`majiang.scoring.check_win`), only for complete shapes
(a compiled shape check, :mod:`majiang._core.game`, filters first), and not for the
hands it surely refuses (:func:`majiang.scoring.refusal.sure_refusal`, 武汉: the same
answer without enumerating the joker readings; ``refusal.QUICK = False`` asks it always).

Physical tiles are integers: ``0..33`` the 34 kinds, ``34 + i`` flower ``i``.  A
tile of a wild kind is a joker while held — one kind, or two with
:attr:`JokerRule.second` (南昌 正精 + 副精, 天津 混儿: ``state.jks``, the kinds of
:meth:`GameModel.joker_kinds`); with a substitute kind (安庆 红中) the substitute tiles
play as the joker kind's natural tile.

Turn order is counter-clockwise: seat ``s + 1`` plays after seat ``s``; the
player on the left of ``s + 1`` is ``s`` (chows come only from the previous
seat).  Seat winds: the dealer is East, ``(s - dealer) % players``.

Rules applied (sources: the ruleset's page in docs/rules/):

* deal 13 / 16 tiles each, the dealer one more; flowers set aside and replaced
  from the tail (dealer first), also on every later draw;
* jokers: after the deal one tile is turned from the tail (re-turned while it is
  a flower; the turned flower stays aside), giving the joker kind per the
  :class:`~majiang.rules.JokerRule`; a fixed joker turns nothing; when every copy of
  the turned kind is wild (南昌, ``source="turned"``, 4 copies) the turned tile goes
  back where it lay (the next replacement draw), else it stays face up, set aside;
  jokers of every wild kind are never claimed, never used to claim, never part of a
  kong, and never discarded where the ruleset forbids it (天津);
* a ruleset whose values read the faces of the wild tiles
  (:func:`majiang.scoring.faces.faces_matter`: 南昌 德国 with a 精 as its own face, 天津
  银杠胡 / 金杠胡 / 本混龙) has its wins judged with the hand by its physical tiles and the
  indicator (``check_win(..., indicator=)``); such rulesets play in the Python loop;
* a turn: draw (the dealer's first turn uses the 14th dealt tile), then the
  player may win (self-draw), declare a concealed or an added kong (replacement
  from the tail, after which the turn goes on), or discard;
* an added kong may be robbed (抢杠和) by anyone who wins on that tile;
* claims on a discard: win > kong / pung > chow (chow only by the next seat,
  only where the ruleset allows chows); several winners per ``ruleset.winners``
  (``"multiple"``: all of them; ``"head_bump"`` / ``"single"``: the first in turn
  order after the discarder, or the first whose win counts a fan of
  ``ruleset.win_first``, 灌南 七对先胡: :func:`.wins.first_winner`); nothing but a win
  may claim the last discard;
* 定缺 (rulesets with the ``void_suit`` constraint played as a declaration,
  :attr:`RuleSpec.declares_void <majiang.rules.model.RuleSpec.declares_void>`): each player
  names a void suit at the deal, must discard that suit's tiles before any other, and may
  not claim them; under 缺门 at the win (``Ruleset.void_rule == "at_win"``) nothing is
  declared, discards and claims are free, the win predicate refuses a hand holding all
  three suits and the bots aim at the nearest hand lacking a suit (their shape options
  carry the void-suit bits of the suits the melds leave free);
* end: a win (the hand ends) or, with ``blood="xuezhan"``, play goes on until
  all but one have won or the wall ends; with ``"xueliu"`` winners stay in
  (their hand is then locked: they draw, win or discard the drawn tile) until
  the wall ends; the hand is drawn when the live wall holds
  ``wall_end.kept_tiles(exposed, concealed kongs)`` tiles and someone must draw;
* one wall per seat (``WallEnd.per_seat``: Botzone / IJCAI's duplicate format,
  ``mcr_botzone``): each seat is dealt and draws, kong replacements too, only from its
  own quarter of the wall; the hand is drawn when the seat to draw next has an empty
  wall, and the draw / discard before that is the last tile (海底捞月 / 妙手回春, no call
  or kong after it); played by the Python loop only;
* settlement: ``FanResult.settle`` / ``RegionalResult.settle`` per win; after a
  blood win, players already out do not pay a self-draw.

* ready declarations (报听, :mod:`.declare`; where declaring changes something,
  :func:`~.facts.ready_kinds`: ``Ruleset.ready == "required"`` (保定, 立四) or a fan that pays
  the declaration (山东 暗楼 / 明楼, 海南 推倒胡 明摸 / 明打, 天津 扣听; 贵州 天听 / 地听 and
  南京 天听 only at their moment: on the dealt hand, before the dealer's first discard, or
  with the discard of the seat's first draw)): a seat declares with a discard
  that leaves its hand ready (a wait that wins as a self-draw), its hand is then locked (it
  discards each draw unless it wins or makes a kong of the drawn tile that keeps its
  waits, none under ``Ruleset.ready_kongs=False``, 立四; no pung, chow or exposed kong), an ``"open"`` declaration (the hand shown) wins
  only by self-draw, and under ``"required"`` nobody wins undeclared.  Public (the
  ``ready`` log event, :attr:`SeatView.declared <majiang.game.players.SeatView.declared>`),
  replayed, and passed to THE predicate as ``declared_ready`` / ``discarder_ready``
  (:class:`majiang.winning.WinContext`).  Sources: docs/rules/shandong.md (暗楼 / 明楼),
  docs/rules/baoding.md and docs/rules/lisi.md (a win needs the declaration; after it only
  暗杠 and winning), docs/rules/hainan_tuidao.md §2 (报听明摸: self-draw only).  Played by
  the Python loop only: :func:`~.fast.fast_eligible` leaves such rulesets to it;
* standing tiles (立四, ``Ruleset.standing_tiles``, :mod:`.declare`): the first tiles dealt
  stand apart, discarded only to declare ready and then face down (never claimed); pungs
  and kongs may use them; Python loop only (:func:`~.fast.fast_eligible`);
* 过水 / 漏和 (``Ruleset.pass_lock``): a passed win locks the passed kind (山东) or
  every discard win (广东) until the player's own discard;
* 换三张 (``Ruleset.exchange`` or ``exchange3=True``), before 定缺; the ruleset's
  ``end_checks`` (查花猪 / 查大叫 / 退税) at a drawn end (:func:`end_checks`);
* 天和 / 地和 / 人和: a win in the first go-around before any call, kong or win passes
  ``first_turn`` to THE predicate (:attr:`majiang.winning.WinContext.first_turn`);
* 杠上炮 / 杠后炮: a win on the discard its discarder made in the turn of his own kong (after
  the replacement draw; a robbed kong is no kong) passes ``kong_discard`` to THE predicate
  (:attr:`majiang.winning.WinContext.kong_discard`; :meth:`HandState.note_kong`, the
  compiled loop's ``kong_seat`` / ``kong_turn``); each win's record says it
  (``kong_discard``), and the end table too (:attr:`~majiang.rules.base.EndTable.kong_discards`);
* how a self-drawn winning tile came: drawn for a flower just set aside passes
  ``flower_replacement`` (海南 花上添花), the replacement of a kong made on another's discard
  ``kong_claimed`` (南京 大杠开花) to THE predicate
  (:attr:`majiang.winning.WinContext.flower_replacement` / ``kong_claimed``;
  ``HandState.flower_seat`` / ``kong_from``, the same fields in the compiled loop); each
  win's record says them;
* a win on a kong replacement passes the kongs its winner made in a row in that turn as
  ``kong_chain`` (:attr:`majiang.winning.WinContext.kong_chain`, 杭州 杠开 ×2 per kong):
  :meth:`KongLedger.chain`, which both loops tell of every kong (the compiled loop through
  its bridge);
* kong payments outside the hand value (``Ruleset.kong_payments``: 四川 刮风下雨 and
  呼叫转移, 广东 杠分 with 荒庄荒杠, 贵州 豆 collected only by ready players), kept in
  :class:`KongLedger` and settled at the end with the end checks (``st.end_checks``,
  in the score deltas);
* the ruleset's end-of-hand settlement (``Ruleset.end_settlement``, a function of the
  final table :class:`~majiang.rules.base.EndTable` built by :func:`end_table`: 贵州
  鸡 after a win, 查叫 at a drawn end, 河北 / 内蒙 / 灌南 dealer and 闭门 terms, 保定 跟庄
  from the discard pools, 广东 跟庄 from the discard pools and 买马 from the wall left after
  a win, 长沙 起手胡 from the dealt hands and 扎鸟 from the wall left after a win: both loops
  keep the dealt hands for it);
* flowers: where a fan reads which flowers the winner holds (台湾 正花 / 花槓,
  :func:`~.facts.flower_faces`) both loops give the scored hand the seat's flowers;
* 八仙過海 (:func:`~.facts.flower_win`): a seat that holds every flower (at the deal or on
  drawing the last) wins at once, paid as a self-draw (:class:`~.wins.FlowerWinResult`,
  how ``"flower"``); the Python loop stops there, and a compiled hand in which a seat
  ends with every flower is played again by the Python loop; "ready" there is a winner or a hand that some
  tile completes into a valid win under THE predicate as a self-draw;
* 出牌即胡 (:func:`~.facts.discard_win`, 云南 十风): a seat whose own discards complete a
  fan tagged :data:`~majiang.rules.fans.DISCARD_WIN` wins at once on that discard, paid as
  a self-draw (:class:`~.wins.DiscardWinResult`, how ``"discard_win"``); the Python loop
  stops there, and a compiled hand where one may have happened
  (:func:`~.facts.discard_win_possible`) is played again by the Python loop;
* 最后四张 (``Ruleset.must_win_last``, 云南): near the end of the wall a possible win is
  taken for the player, not asked (:meth:`HandState.must_win`); the built-in bots of
  the compiled loop take every win anyway.

Two loops play the same hands move for move: the compiled one
(:class:`majiang._core.game.FastHand`: built-in bots, core forms only, one joker kind
of the usual sort, no log) and this package's Python one (any
policy, substitute jokers, two wild kinds, extra forms, logs); the tests compare them
hand by hand.

The package, one concept a module (every name below is importable from here):

* :mod:`.play` — :func:`play_hand`, the front door choosing the loop;
* :mod:`.state` — :class:`HandState`, the Python loop's hand (wall, seats, shape checks,
  wins); :mod:`.loop` the turn loop, :mod:`.deal` the deal (jokers, flowers, 换三张, 定缺),
  :mod:`.claims` claims on a discard or an added kong, :mod:`.policy` the policies asked;
* :mod:`.fast` — the compiled loop from Python (:func:`fast_eligible`, its flags and
  bridge, :class:`~.fast.FastState`);
* :mod:`.wins` — THE predicate asked once per context, a win's record and settlement
  (both loops); :mod:`.kongs` — :class:`KongLedger` (both loops);
* :mod:`.declare` — ready declarations (报听): the waits a declaration may be made on, the
  kongs a declared hand may make;
* :mod:`.settlement` — :func:`end_checks` and :func:`end_table`; :mod:`.readiness` —
  who is ready at the end and what a ready hand is worth;
* :mod:`.wall` — seeds and walls; :mod:`.facts` — what the loops read from the game
  model (forms beyond the core, :func:`min_aware`, 过水).

Not yet modelled: 天听 / 地听 (a declaration on the dealt hand only) and 杀报, 血流's "only the larger of 查花猪 / 查大叫", 点杠花 paid as a discard,
杠爆全包 / 抢杠全包 (广东 full-pay).
"""
from __future__ import annotations

from .facts import min_aware
from .fast import FastState, fast_eligible, play_fast
from .kongs import KongItem, KongLedger
from .loop import _Game  # noqa: F401 (game.logs replays through it)
from .play import play_hand
from .policy import IllegalMoveError
from .readiness import _Readiness  # noqa: F401 (the win-predicate agreement test)
from .settlement import end_checks, end_table
from .state import HandState
from .wall import _sorted_tiles, build_wall  # noqa: F401 (_sorted_tiles: game.table)
from .wall import hand_bit_generator, hand_seed_sequence
from .wins import check_win_fn

__all__ = ["IllegalMoveError", "play_hand", "HandState", "hand_seed_sequence", "build_wall",
           "check_win_fn", "KongLedger", "KongItem", "min_aware", "end_checks", "end_table",
           "fast_eligible", "hand_bit_generator", "play_fast", "FastState"]
