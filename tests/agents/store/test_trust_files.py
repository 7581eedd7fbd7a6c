"""Files people share (results databases, saves, weights, caches) never run code, read
a file or allocate without bound unless the person names it on the command line."""

from __future__ import annotations

import json
import sqlite3
import zipfile
from pathlib import Path

import numpy as np
import pytest

from ui.cli.cli import main

PAYLOAD = "os:system:command=touch PWNED"


def _tampered_run(tmp_path: Path, capsys, agents: list[str]) -> Path:
    """A finished two-agent run whose stored agents are edited to ``agents``, marked failed."""
    db = tmp_path / "r.sqlite"
    code = main(["bench", "random", "random:", "--games", "4", "--block", "1", "--seed", "1",
                 "--agent-seed", "1", "--backend", "serial", "--db", str(db), "--json"])  # fmt: skip
    assert code == 0
    capsys.readouterr()
    with sqlite3.connect(db) as con:
        (params,) = con.execute("SELECT params FROM runs WHERE id = 1").fetchone()
        p = json.loads(params)
        p["agents"] = agents
        p["pairings"] = [agents]
        con.execute(
            "UPDATE runs SET params = ?, agents = ?, status = 'failed' WHERE id = 1",
            (json.dumps(p), json.dumps(agents)),
        )
        con.execute("DELETE FROM games WHERE run_id = 1 AND idx > 0")
    return db


def test_resume_never_builds_code_named_by_the_database(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    db = _tampered_run(tmp_path, capsys, [PAYLOAD, "random:"])
    assert main(["bench", "--resume", "1", "--db", str(db), "--backend", "serial"]) == 2
    err = capsys.readouterr().err
    assert not (tmp_path / "PWNED").exists()
    assert len(err.strip().splitlines()) == 1 and "os:system" in err and "Traceback" not in err
    with sqlite3.connect(db) as con:  # nothing written: the run is as it was
        assert con.execute("SELECT status FROM runs").fetchone() == ("failed",)


def test_resume_of_an_import_path_agent_named_again_on_the_command_line(
    tmp_path, capsys, monkeypatch
) -> None:
    spec = "tests.plugin_agents:RandomLegal"
    db = _tampered_run(tmp_path, capsys, [spec, "random:"])
    assert main(["bench", "--resume", "1", "--db", str(db), "--backend", "serial"]) == 2
    assert spec in capsys.readouterr().err
    code = main(["bench", "--resume", "1", "--db", str(db), "--backend", "serial", spec, "random:"])
    assert code == 0, capsys.readouterr().err


def test_resume_api_refuses_untrusted_stored_specs(tmp_path, capsys, monkeypatch) -> None:
    from agents.bench import resume_tournament
    from agents.seats.trust import UntrustedSpec

    monkeypatch.chdir(tmp_path)
    db = _tampered_run(tmp_path, capsys, [PAYLOAD, "random:"])
    with pytest.raises(UntrustedSpec):
        resume_tournament(1, db, backend="serial")
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize(
    ("spec", "trusted"),
    [
        ("neural", True),
        ("neural:path=model.npz", False),
        ("expert:path=x", False),
        ("hard:path=weights", False),
        ("greedy", True),
    ],
)
def test_a_path_in_a_stored_spec_is_never_trusted(spec, trusted) -> None:
    from agents.seats.trust import trusted_spec

    assert trusted_spec(spec) is trusted


def test_a_save_naming_neural_weights_is_asked_about(tmp_path) -> None:
    from ui.table.saves import SAVE_FORMAT, SAVE_VERSION, UntrustedSave, read_save

    data = {"format": SAVE_FORMAT, "version": SAVE_VERSION, "seed": 1, "agent_seed": 1,
            "mode": "computer", "agents": [None, "neural:path=evil.npz"], "decisions": [],
            "cursor": 0}  # fmt: skip
    with pytest.raises(UntrustedSave):
        read_save(data)
    assert read_save(data, trusted=("neural:path=evil.npz",)).agents[1] == "neural:path=evil.npz"


# ------------------------------------------------------------------------------ weights files
def _weights(tmp_path: Path, name: str = "w.npz", **override) -> Path:
    from agents.nets.features import DISCARD_DIM, PLAY_DIM

    rng = np.random.default_rng(0)
    arrays = {}
    for kind, dim in (("discard", DISCARD_DIM), ("play", PLAY_DIM)):
        arrays[f"{kind}.w0"] = rng.normal(size=(dim, 4)).astype(np.float32)
        arrays[f"{kind}.b0"] = np.zeros(4, np.float32)
        arrays[f"{kind}.w1"] = rng.normal(size=(4, 1)).astype(np.float32)
        arrays[f"{kind}.b1"] = np.zeros(1, np.float32)
    arrays.update(override)
    path = tmp_path / name
    np.savez(path, **arrays)
    return path


def test_good_weights_load(tmp_path) -> None:
    from agents.players.neural import NeuralAgent

    assert NeuralAgent(_weights(tmp_path)).discard_net.in_dim > 0


def _huge_declared(tmp_path: Path) -> Path:
    """A weights file with a member of 50 million floats: 200 MB to decompress, 200 KB on disk."""
    path = _weights(tmp_path, "huge.npz")
    n = 50_000_000
    header = np.lib.format.header_data_from_array_1_0(np.zeros(1, np.float32))
    header["shape"] = (4, n // 4)
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("discard.w2.npy", "w", force_zip64=True) as f:
            np.lib.format.write_array_header_1_0(f, header)
            chunk = bytes(1 << 22)
            for _ in range(4 * n // len(chunk)):
                f.write(chunk)
            f.write(bytes(4 * n % len(chunk)))
    return path


def test_a_weights_bomb_is_refused_without_decompressing_it(tmp_path) -> None:
    import tracemalloc

    from agents.nets.mlp import WeightsError, load_nets

    path = _huge_declared(tmp_path)
    assert path.stat().st_size < 2_000_000
    tracemalloc.start()
    with pytest.raises(WeightsError, match="too big"):
        load_nets(path)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 20_000_000


@pytest.mark.parametrize(
    "make",
    [
        lambda p: _weights(p, **{"discard.w1": np.full((4, 1), np.nan, np.float32)}),
        lambda p: _weights(p, **{"play.b0": np.full(4, np.inf, np.float32)}),
        lambda p: _weights(p, **{"play.w0": np.zeros((3, 4), np.float32)}),  # wrong in_dim
        lambda p: _weights(p, **{"play.b0": np.zeros(5, np.float32)}),  # shapes do not chain
        lambda p: _weights(p, **{"play.w1": np.zeros((4, 1), np.complex64)}),
        lambda p: _weights(p, **{"play.w1": np.zeros((4, 1), object)}),
        lambda p: (p / "t.npz").write_bytes(_weights(p).read_bytes()[:300]) or p / "t.npz",
        lambda p: (p / "z.npz").write_bytes(b"PK\x03\x04" + b"\0" * 100) or p / "z.npz",
    ],
    ids=["nan", "inf", "in_dim", "chain", "complex", "object", "truncated", "garbage"],
)
def test_bad_weights_are_refused_before_use(tmp_path, make) -> None:
    from agents.base import AgentSpecError
    from agents.registry import make_agent

    path = make(tmp_path)
    with pytest.raises(AgentSpecError) as exc:
        make_agent(f"neural:path={path}")
    assert str(path) in str(exc.value)


def test_play_with_bad_weights_is_one_line_exit_2(tmp_path, capsys) -> None:
    path = _weights(tmp_path, **{"discard.w1": np.full((4, 1), np.nan, np.float32)})
    code = main(["bench", f"neural:path={path}", "random", "--games", "2", "--db",
                 str(tmp_path / "r.sqlite")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "finite" in err and "Traceback" not in err
