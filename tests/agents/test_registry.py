"""Agent specs: one parser, import paths from the current folder, typed and
validated parameters, installed plug-ins through entry points, and ``cribbage agents``."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents import AGENTS, LEVELS, AgentSpecError, make_agent
from agents.agent_info import agent_info, list_agents
from agents.params import Param
from agents.registry import read_spec
from ui.cli.cli import main as cli_main

BOT = '''
"""A test bot: plays the lowest legal card, throws its first two cards."""
from cribbage_env.rules.actions import discard_action
from cribbage_env.rules.core import Phase


class {name}:
    """Lowest card first."""

    def __init__(self, depth: int = 1, loud: bool = False) -> None:
        self.depth, self.loud = depth, loud

    def act(self, view, rng):
        if view.phase is Phase.DISCARD:
            return discard_action(view.hand[0], view.hand[1])
        return min(view.legal_actions)


def factory(depth=2):
    return {name}(depth=depth)


def not_an_agent():
    return 42


INSTANCE = {name}()


def broken(depth: int = 1):
    raise RuntimeError("no GPU here")
'''


def write_bot(folder: Path, module: str, cls: str = "Bot") -> str:
    (folder / f"{module}.py").write_text(BOT.format(name=cls))
    return module


# ------------------------------------------------------------------------------ parsing
@pytest.mark.parametrize(
    "spec, name, target, params",
    [
        ("random", "random", None, {}),
        ("Expert:sims=200, tau=0", "expert", None, {"sims": "200", "tau": "0"}),
        ("expert:", "expert", None, {}),
        ("my_bots.v1:Bot", None, "my_bots.v1:Bot", {}),
        (
            "my_bots.v1:Outer.Bot:depth=2,loud=on",
            None,
            "my_bots.v1:Outer.Bot",
            {"depth": "2", "loud": "on"},
        ),
        ("maskable_ppo:path=C:/models/a.zip", "maskable_ppo", None, {"path": "C:/models/a.zip"}),
        ("pkg.mod:Make:path=/tmp/x:y.zip", None, "pkg.mod:Make", {"path": "/tmp/x:y.zip"}),
    ],
)
def test_read_spec(spec: str, name, target, params) -> None:
    s = read_spec(spec)
    assert (s.name, s.target, s.params) == (name, target, params)


@pytest.mark.parametrize(
    "spec, fragment",
    [
        ("", "non-empty"),
        ("expert:sims", "expected key=value"),
        ("expert:sims=1,sims=2", "twice"),
        ("my bot:Bot", "module.path:Name"),
        ("mod:Bot:x", "expected key=value"),
        (":x=1", "no agent name"),
    ],
)
def test_malformed_specs(spec: str, fragment: str) -> None:
    with pytest.raises(AgentSpecError, match=fragment):
        make_agent(spec)


# ------------------------------------------------------------------------------ bad values
BAD_VALUES = [
    ("expert:sims=abc", "sims must be an integer in 1..5000; got 'abc'"),
    ("expert:sims=1e9", "sims must be an integer in 1..5000; got '1e9'"),
    ("expert:sims=100000", "in 1..5000"),
    ("expert:sims=0", "in 1..5000"),
    ("expert:sims=" + "9" * 5000, "in 1..5000"),
    ("expert:tau=nan", "tau must be a finite number in 0..100; got 'nan'"),
    ("expert:tau=inf", "finite number"),
    ("expert:stop=-1", "stop must be"),
    ("expert:rollout=fast", "rollout must be one of heuristic, expectimax"),
    ("expert:discard=best", "discard must be one of table, sim"),
    ("expectimax:counter=abc", "counter must be a finite number in 0..1; got 'abc'"),
    ("expectimax:counter=2", "in 0..1"),
    ("expectimax:crib=of", "crib must be one of true, false, on, off, yes, no, 1, 0; got 'of'"),
    ("hard:heuristics=maybe", "heuristics must be one of true"),
    ("expectimax:endgame=-3", "endgame must be an integer in 0..120"),
    ("expert:speed=9", "no parameter 'speed'; its parameters: sims, beta"),
    ("random:x=1", "no parameter 'x'; its parameters: none"),
    ("maskable_ppo", "needs path=model.zip"),
    ("maskable_ppo:path=m.zip,deterministic=sometimes", "deterministic must be one of true"),
]


@pytest.mark.parametrize("spec, message", BAD_VALUES)
def test_bad_values_are_refused_with_the_allowed_values(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError) as info:
        make_agent(spec)
    assert message in str(info.value)


@pytest.mark.parametrize(
    "spec, attr, value",
    [
        ("expectimax:crib=off", "_table", None),
        ("expectimax:heuristics=No", "heuristics", False),
        ("expectimax:counter=0", "counter", 0.0),
        ("expert:sims=5000", "sims", 5000),
        ("hard:counter=1", "counter", 1.0),
        ("expert:tau=0,rollout=expectimax", "rollout", "expectimax"),
    ],
)
def test_good_values_mean_what_they_say(spec: str, attr: str, value) -> None:
    agent = make_agent(spec)
    if attr == "_table":  # crib=off: the analyzer ignores the crib
        assert not np.any(agent._table.dealer)
    else:
        got = getattr(agent, attr)
        assert got == value and type(got) is type(value)


@pytest.mark.parametrize(
    "argv",
    [
        ["bench", "expert:sims=abc", "random", "--games", "2"],
        ["bench", "expectimax:crib=of", "random", "--games", "2"],
        ["play", "--pilot", "expert:sims=1e9", "--autoplay", "3"],
        ["play", "--opponent", "expert:tau=nan"],
        ["play", "--watch", "random", "expectimax:counter=abc"],
    ],
)
def test_cli_bad_values_exit_2_with_the_allowed_values(argv: list[str], capsys) -> None:
    assert cli_main(argv) == 2
    err = capsys.readouterr().err
    assert "must be" in err and "Traceback" not in err


def test_param_conversions() -> None:
    p = Param("x", float, 1.0, low=0, high=10)
    assert p.parse("2.5") == 2.5 and p.parse(3) == 3.0 and p.describe() == "x=1"
    for bad in ("nan", "-inf", "11", "", "1,5", True, math.nan):
        with pytest.raises(AgentSpecError, match="x must be a finite number in 0..10"):
            p.parse(bad)
    b = Param("on", bool, False)
    assert [b.parse(t) for t in ("TRUE", "on", "1", "no", "Off", "0")] == [
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    assert Param("n", int, 1, low=1).allowed() == "an integer >= 1"


# ------------------------------------------------------------------------------ import paths
def test_user_agent_from_the_current_folder(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    mod = write_bot(tmp_path, "reg_cwd_bot")
    agent = make_agent(f"{mod}:Bot:depth=3,loud=yes")
    assert (agent.depth, agent.loud) == (3, True)  # typed from the constructor's signature
    assert agent.spec == f"{mod}:Bot:depth=3,loud=yes" and agent.name == "Bot"
    assert make_agent(f"{mod}:factory").depth == 2  # a factory returning an agent
    with pytest.raises(AgentSpecError, match="depth must be an integer"):
        make_agent(f"{mod}:Bot:depth=deep")
    with pytest.raises(AgentSpecError, match="no parameter 'width'; its parameters: depth, loud"):
        make_agent(f"{mod}:Bot:width=2")
    g = ce.new_game(4)
    while not g.is_over:
        p = g.current_player
        g.apply(agent.act(g.view(p), np.random.default_rng(0)), p)
    assert max(g.scores) >= 121


@pytest.mark.parametrize(
    "attr, fragment",
    [
        ("Nope", "has no 'Nope' for agent .* it defines: Bot, broken, factory, not_an_agent"),
        ("not_an_agent", "returned int, which has no act"),
        ("INSTANCE", "is an agent instance; name its class or a factory"),
        ("broken", "could not be built .* RuntimeError: no GPU here"),
    ],
)
def test_user_specs_that_do_not_build_an_agent(tmp_path: Path, monkeypatch, attr, fragment) -> None:
    monkeypatch.chdir(tmp_path)
    mod = write_bot(tmp_path, f"reg_bad_{attr.lower()}")
    with pytest.raises(AgentSpecError, match=fragment):
        make_agent(f"{mod}:{attr}")


def test_modules_that_do_not_import(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(AgentSpecError, match="cannot import 'reg_missing_mod'.*current folder"):
        make_agent("reg_missing_mod:Bot")
    (tmp_path / "reg_syntax.py").write_text("def broken(:\n")
    with pytest.raises(AgentSpecError, match="importing 'reg_syntax' .* failed: SyntaxError"):
        make_agent("reg_syntax:Bot")
    (tmp_path / "reg_needs.py").write_text("import reg_not_installed_dep\n")
    with pytest.raises(AgentSpecError, match="failed: No module named 'reg_not_installed_dep'"):
        make_agent("reg_needs:Bot")
    assert cli_main(["bench", "reg_missing_mod:Bot", "random", "--games", "2"]) == 2


# ------------------------------------------------------------------------------ plug-ins
PLUGIN = '''
"""An installed plug-in."""
from cribbage_env.rules.actions import discard_action
from agents.params import Param


class PlugBot:
    """Plays the highest legal card; a plug-in from a package."""

    PARAMS = (Param("level", int, 2, "how hard it tries", low=1, high=3),)

    def __init__(self, level: int = 2) -> None:
        self.level = level

    def act(self, view, rng):
        if len(view.hand) == 6:
            return discard_action(view.hand[-1], view.hand[-2])
        return max(view.legal_actions)


def throw_last(hand, dealer):
    """Throws the last two cards dealt."""
    return hand[-2:]
'''


@pytest.fixture
def fake_plugin(tmp_path: Path, monkeypatch) -> Path:
    """A distribution 'cribbage-plug' installed on sys.path (a dist-info with entry points)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "reg_plugmod.py").write_text(PLUGIN)
    info = site / "cribbage_plug-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cribbage-plug\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        textwrap.dedent("""
        [cribbage_env.agents]
        plugbot = reg_plugmod:PlugBot
        brokenbot = reg_plugmod:Missing

        [cribbage_env.discards]
        throw-last = reg_plugmod:throw_last
    """)
    )
    monkeypatch.syspath_prepend(str(site))
    return site


def test_plugin_agents_build_list_and_explain(fake_plugin: Path, capsys) -> None:
    agent = make_agent("plugbot:level=3")
    assert agent.level == 3 and agent.spec == "plugbot:level=3"
    with pytest.raises(AgentSpecError, match="level must be an integer in 1..3"):
        make_agent("plugbot:level=9")
    with pytest.raises(AgentSpecError, match="plug-in 'brokenbot'.*cribbage-plug.*does not load"):
        make_agent("brokenbot")
    assert cli_main(["agents"]) == 0
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("plugbot"))
    assert "plug-in (cribbage-plug)" in line and "Plays the highest legal card" in line
    assert "parameters: level=2" in out
    assert "throw-last  plug-in (cribbage-plug): Throws the last two cards dealt." in out
    assert "cannot load" in next(ln for ln in out.splitlines() if "brokenbot" in ln)
    assert cli_main(["agents", "plugbot"]) == 0
    out = capsys.readouterr().out
    assert "an integer in 1..3; default 2" in out and "how hard it tries" in out
    from agents.discard_bench import compare

    report = compare(["throw-last", "analyzer"], 50, seed=1)
    assert report["strategies"][0]["kind"] == "function"


# ------------------------------------------------------------------------------ cribbage agents
def test_agents_lists_every_agent_with_its_parameters(capsys) -> None:
    infos = {i.name: i for i in list_agents()}
    assert set(AGENTS) | set(LEVELS) <= set(infos)
    assert all(i.summary and not i.summary.startswith("(no") for i in infos.values())
    assert [p.name for p in infos["expert"].params][:2] == ["sims", "beta"]
    assert agent_info("hard").params == agent_info("expectimax").params
    assert cli_main(["agents"]) == 0
    out = capsys.readouterr().out
    for name in AGENTS:
        assert any(ln.strip().startswith(name) for ln in out.splitlines()), name
    assert "sims=60" in out and "path=model.zip (required)" in out
    assert cli_main(["agents", "expert"]) == 0
    assert "an integer in 1..5000; default 60" in capsys.readouterr().out
    assert cli_main(["agents", "nope"]) == 2
    assert "unknown agent 'nope'" in capsys.readouterr().err


def test_agents_help_of_an_import_path(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    mod = write_bot(tmp_path, "reg_help_bot")
    assert cli_main(["agents", f"{mod}:Bot", "--json"]) == 0
    import json

    info = json.loads(capsys.readouterr().out)
    assert info["summary"] == "Lowest card first."
    assert [(p["name"], p["type"], p["default"]) for p in info["params"]] == [
        ("depth", "int", 1),
        ("loud", "bool", False),
    ]


@pytest.mark.parametrize("name", sorted(AGENTS))
def test_declared_parameters_match_the_constructor(name: str) -> None:
    """PARAMS is declared once per agent: it names exactly the constructor's arguments, and
    every default is an allowed value."""
    import inspect

    from agents.registry import import_target

    cls = import_target(AGENTS[name])
    declared = getattr(cls, "PARAMS", ())
    assert [p.name for p in declared] == list(inspect.signature(cls).parameters)
    for p in declared:
        if not p.required:
            assert p.parse(p.default) == p.default
