"""``cribbage discards``: discard strategies on paired deals, checked against show
scores computed independently with ``score_hand``, user strategies, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.base import AgentSpecError
from agents.discard_bench import compare, deal_cards, whole_games
from agents.discards.strategies import StrategyError, make_strategy
from agents.store.results_store import ResultsStore
from cribbage_env.analysis.discard import default_crib_table
from cribbage_env.rules.scoring import score_hand
from ui.cli.cli import main as cli_main

STRATS = '''
def keep_fives(hand, dealer, rng, spare: int = 0):
    """Never throw a five: the two highest other cards (``spare`` unused, a knob)."""
    from cribbage_env.rules.cards import RANK
    return sorted(hand, key=lambda c: (RANK[c] == 4, -RANK[c]))[:2]


def nonsense(hand, dealer):
    return [hand[0], hand[0]]
'''


def _best(hand: list[int], dealer: bool, crib: bool) -> tuple[list[int], list[int]]:
    """Independent reference: every split scored with score_hand over the 46 starters."""
    table = default_crib_table()
    unseen = [c for c in range(52) if c not in hand]
    best, best_v = None, -1e9
    for i in range(6):
        for j in range(i + 1, 6):
            keep = [c for k, c in enumerate(hand) if k not in (i, j)]
            v = sum(score_hand(keep, s) for s in unseen) / 46
            if crib:
                t = table.value(hand[i], hand[j], dealer)
                v += t if dealer else -t
            if v > best_v + 1e-9:
                best, best_v = (keep, [hand[i], hand[j]]), v
    return best


def test_nets_match_an_independent_count() -> None:
    n = 6
    report = compare(["analyzer", "best-hand"], n, seed=11)
    nets = report["_nets"]
    pone6, dealer6, starters = deal_cards(11, n)
    for d in range(n):
        ph, dh, s = pone6[d].tolist(), dealer6[d].tolist(), int(starters[d])
        ref_pone, ref_dealer = _best(ph, False, True), _best(dh, True, True)
        for k, crib in ((0, True), (1, False)):
            keep, thrown = _best(dh, True, crib)
            want = score_hand(keep, s) + score_hand(thrown + ref_pone[1], s, True)
            assert nets[k, 0, d] == want
            keep, thrown = _best(ph, False, crib)
            want = score_hand(keep, s) - score_hand(thrown + ref_dealer[1], s, True)
            assert nets[k, 1, d] == want


def test_agents_as_strategies_agree_with_the_built_ins() -> None:
    """greedy discards for the best hand EV, expectimax with the analyzer: the same splits."""
    r = compare(
        ["best-hand", "agent:greedy", "analyzer", "agent:expectimax", "random"], 300, seed=2
    )
    nets = r["_nets"]
    assert np.array_equal(nets[0], nets[1]) and np.array_equal(nets[2], nets[3])
    first = r["strategies"][0]
    assert "vs_first" not in first and r["strategies"][1]["vs_first"]["mean"] == {
        "mean": 0.0,
        "ci95": [0.0, 0.0],
    }
    s = r["strategies"][4]  # random against best-hand: worse as dealer and as pone
    assert s["vs_first"]["dealer"]["ci95"][1] < 0 and s["vs_first"]["pone"]["ci95"][1] < 0
    # The paired interval is narrower than the interval of the mean itself.
    lo, hi = r["strategies"][2]["vs_first"]["mean"]["ci95"]
    mlo, mhi = r["strategies"][2]["mean"]["ci95"]
    assert hi - lo < mhi - mlo
    assert (
        compare(["random"], 40, seed=2)["_nets"].tolist()
        == compare(["random"], 40, seed=2)["_nets"].tolist()
    )


def test_user_function_strategies(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "disc_bench_strats.py").write_text(STRATS)
    r = compare(["analyzer", "disc_bench_strats:keep_fives:spare=3"], 200, seed=1)
    assert r["strategies"][1]["kind"] == "function"
    assert r["strategies"][1]["vs_first"]["mean"]["ci95"][1] < 0
    with pytest.raises(StrategyError, match="expected two of its cards"):
        compare(["disc_bench_strats:nonsense"], 3, seed=1)
    with pytest.raises(AgentSpecError, match="spare must be an integer"):
        make_strategy("disc_bench_strats:keep_fives:spare=x")
    with pytest.raises(
        StrategyError, match="unknown discard strategy 'bset-hand'; known: random, best-hand"
    ):
        make_strategy("bset-hand")


def test_whole_games_with_the_analyzer_split_every_pair() -> None:
    """The analyzer's discards with expectimax pegging *is* expectimax: every duplicate pair is
    split, so the win rate is exactly one half and the margin exactly 0."""
    out = whole_games(["analyzer", "random"], 4, seed=5, agent_seed=3, backend="serial")
    a, r = out["results"]
    assert (a["win_rate"], a["mean_margin"]) == (0.5, 0.0)
    assert r["games"] == 4 and "margin_vs_first" in r


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["discards", "nope"], "unknown discard strategy 'nope'"),
        (["discards", "analyzer", "--deals", "0"], "a number of deals"),
        (["discards", "analyzer", "--games", "3"], "--games must be even"),
        (["discards", "agent:expert:sims=abc"], "sims must be an integer in 1..5000"),
        (["discards", "random:x=1"], "has no parameters"),
    ],
)
def test_cli_misuse_exits_2(argv: list[str], fragment: str, capsys, tmp_path: Path) -> None:
    try:
        code = cli_main([*argv, "--db", str(tmp_path / "r.sqlite")])
    except SystemExit as exc:
        code = exc.code
    assert code == 2 and fragment in capsys.readouterr().err


def test_cli_saves_to_the_results_store(tmp_path: Path, capsys) -> None:
    db = tmp_path / "r.sqlite"
    argv = [
        "discards",
        "analyzer",
        "random",
        "--deals",
        "200",
        "--db",
        str(db),
        "--json",
        "--plot",
        str(tmp_path / "plots"),
    ]
    assert cli_main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deals"] == 200 and [s["strategy"] for s in report["strategies"]] == [
        "analyzer",
        "random",
    ]
    with ResultsStore(db) as store:
        run = store.run(report["run"]["id"])
    assert run["status"] == "complete" and run["params"]["kind"] == "discards"
    assert run["summary"]["strategies"] == report["strategies"]
    assert (tmp_path / "plots" / "discard_strategies.png").read_bytes()[:4] == b"\x89PNG"
    assert cli_main(["results", str(run["id"]), "--db", str(db)]) == 0
    assert "paired differences to the first strategy" in capsys.readouterr().out
    assert cli_main(["results", "--db", str(db)]) == 0
    line = capsys.readouterr().out.splitlines()[-1]
    assert "200/200" in line and "discards: analyzer random" in line
