"""Nothing of the host a seat can change, and every byte it holds counted.

The attacks: a bot that rewrites and ``chmod 4755``s every descriptor it was given (its
standard error was once the host's log file, which it owned inside its user namespace: a
set-uid-root file planted on the host) and the device nodes it sees; a bot that fills its memory
file systems (``/dev/shm``, the sandbox's root, ``/etc``) past any limit.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest

import cribbage_env as ce
from agents.arena import cgroups, client, sandbox, seat_caches
from agents.arena.client import SeatForfeit
from agents.arena.seat import SealedSeat

#: A shell bot that tries to change every host file it can name, then plays its first legal
#: action; what it wrote on standard error is its log text.
SETUID_BOT = r"""#!/bin/sh
echo "payload: #!/bin/sh id" >&2
for f in /proc/self/fd/* /dev/null /dev/zero /dev/full /dev/tty /dev/random /dev/urandom; do
  chmod 4755 "$f" 2>/dev/null && echo "chmod $f worked" >&2
  chown 0:0 "$f" 2>/dev/null
  touch "$f" 2>/dev/null
done
{ printf 'overwritten' > /proc/self/fd/2; } 2>/dev/null
printf 'ELFpayload' >&2
echo '{"bot": "setuid", "protocol": 1}'
while read -r line; do
  a=$(printf '%s' "$line" | sed 's/.*"legal":\[\([0-9]*\).*/\1/')
  echo "{\"action\": $a}"
done
"""
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom")


def _modes() -> dict[str, tuple[int, int, int]]:
    out = {}
    for d in DEVICES:
        try:
            st = os.stat(d)
            out[d] = (st.st_mode, st.st_uid, st.st_gid)
        except OSError:
            pass
    return out


def _play(seat, games: int = 2) -> None:
    for n in range(games):
        g, rng = ce.new_game(n), np.random.default_rng(n)
        while not g.is_over:
            p = g.to_act
            g.apply(seat.act(g.view(p), rng) if p == 0 else g.legal_actions()[0], p)


def test_a_seat_plants_no_set_uid_file_and_changes_no_device(tmp_path: Path, monkeypatch) -> None:
    """After a sealed shell bot rewrote and chmod-ed everything it could name, every file the
    host keeps (in its temp folder) is the host's own with the host's mode; the log holds the
    bot's text and nothing else; the device nodes are as they were."""
    host_tmp = tmp_path / "host-tmp"
    host_tmp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(host_tmp))
    client.log_folder.cache_clear()
    bot = tmp_path / "setuid.sh"
    bot.write_text(SETUID_BOT)
    bot.chmod(0o755)
    before = _modes()
    seat = SealedSeat(f"cmd:{bot}")
    try:
        _play(seat)
    finally:
        seat.close()
        client.log_folder.cache_clear()
    assert _modes() == before
    kept = [p for p in host_tmp.rglob("*")]
    assert kept, "the bot wrote on standard error: its log is kept"
    for p in kept:
        st = p.lstat()
        assert st.st_uid == os.getuid() and not st.st_mode & (stat.S_ISUID | stat.S_ISGID), p
        assert stat.S_IMODE(st.st_mode) in (0o600, 0o700), (p, oct(st.st_mode))
    (log,) = [p for p in kept if p.is_file()]
    text = log.read_text()
    assert "worked" not in text  # no chmod succeeded in the sandbox either
    assert text.startswith("payload: #!/bin/sh id\n") and text.endswith("ELFpayload")
    assert text.count("\n") == 1 or "overwritten" in text  # only the bot's own words


def test_a_seat_has_no_privilege() -> None:
    """The bot runs with no capability and no new privileges; a root host's seat runs as
    'nobody'."""
    code = "print(open('/proc/self/status').read())"
    out = _sealed(code, sandbox.Limits(ro=sandbox.python_folders()))
    status = dict(line.split(":\t", 1) for line in out.stdout.splitlines() if ":\t" in line)
    assert status["CapEff"].strip("0\n") == "" and status["CapBnd"].strip("0\n") == ""
    assert status["NoNewPrivs"].strip() == "1"
    assert int(status["Uid"].split()[0]) == sandbox.seat_uid()
    if os.geteuid() == 0:
        assert sandbox.seat_uid() == sandbox.SEAT_UID


def _sealed(code: str, limits: sandbox.Limits):
    import subprocess

    env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p and os.path.isdir(p))}
    argv = sandbox.wrap([sys.executable, "-c", code], limits, env)
    return subprocess.run(argv, capture_output=True, text=True, timeout=120,
                          preexec_fn=sandbox.rlimits(limits))  # fmt: skip


@pytest.mark.parametrize(
    ("where", "error"),
    [("/dev/shm/x", "No space left on device"), ("/tmp/x", "No space left on device"),
     ("/etc/x", "Read-only file system|Permission denied"), ("/x", "Read-only file system|Permission denied"),
     ("/dev/x", "Read-only file system")],
)  # fmt: skip
def test_a_seats_memory_file_systems_are_bounded(where: str, error: str) -> None:
    """``/dev/shm`` and ``/tmp`` have sizes; the root, ``/etc`` and ``/dev`` are read-only."""
    code = f"f = open({where!r}, 'wb')\nfor _ in range(16): f.write(bytes(1 << 20)); f.flush()"
    limits = sandbox.Limits(ro=sandbox.python_folders(), scratch_mb=4, shm_mb=4)
    out = _sealed(code, limits)
    assert out.returncode != 0 and re.search(error, out.stderr), out.stderr


def test_what_a_seat_writes_in_memory_counts_against_its_memory(tmp_path: Path) -> None:
    """The memory group charges the seat's ``/tmp`` to it: 200 MiB written with a 128 MiB
    limit (and 512 MiB of scratch) end the seat, and the forfeit names the memory limit."""
    if "memory" in cgroups.missing():
        pytest.skip("no writable memory cgroup here: the scratch's own size is the bound")
    bot = tmp_path / "fill.py"
    bot.write_text(
        "import json, sys\n"
        "print(json.dumps({'bot': 'fill', 'protocol': 1}), flush=True)\n"
        "for line in sys.stdin:\n"
        "    with open('/tmp/fill', 'wb') as f:\n"
        "        for _ in range(200): f.write(bytes(1 << 20)); f.flush()\n"
        "    print(json.dumps({'action': json.loads(line)['legal'][0]}), flush=True)\n"
    )
    from agents.arena.seat import SeatLimits

    seat = SealedSeat(f"cmd:{sys.executable} {bot}", 20.0, SeatLimits(memory_mb=128))
    assert seat.sealed is not None
    seat.sealed = sandbox.Limits(memory_mb=128, ro=seat.sealed.ro, scratch_mb=512, file_mb=512)
    g = ce.new_game(1)
    try:
        with pytest.raises(SeatForfeit, match=r"at its memory limit \(128 MiB\)"):
            seat.act(g.view(g.to_act), np.random.default_rng(0))
    finally:
        seat.close()


def test_a_seats_log_has_a_size(tmp_path: Path, monkeypatch) -> None:
    """The host writes the bot's standard error to its log, up to LOG_BYTES; the rest is read
    and dropped, so a bot that floods it fills neither the disk nor its pipe."""
    monkeypatch.setattr(client, "LOG_BYTES", 1 << 20)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    client.log_folder.cache_clear()
    bot = tmp_path / "flood.py"
    bot.write_text(
        "import json, sys\n"
        "print(json.dumps({'bot': 'flood', 'protocol': 1}), flush=True)\n"
        "for line in sys.stdin:\n"
        "    for _ in range(64): sys.stderr.write('x' * 65536)\n"
        "    sys.stderr.flush()\n"
        "    print(json.dumps({'action': json.loads(line)['legal'][0]}), flush=True)\n"
    )
    seat = SealedSeat(f"cmd:{sys.executable} {bot}")
    try:
        g = ce.new_game(1)
        assert seat.act(g.view(g.to_act), np.random.default_rng(0)) in g.legal_actions()
        assert seat.log is not None
        assert os.path.getsize(seat.log) == 1 << 20
    finally:
        seat.close()
        client.log_folder.cache_clear()


def test_a_folder_over_the_scratch_is_not_shown(tmp_path: Path) -> None:
    """A script run from the temp folder puts it on the import path: shown read-only over
    the seat's own /tmp, it left the seat no scratch (numba then failed: "no locator")."""
    out = _sealed("open('/tmp/x', 'w').write('ok'); print(open('/tmp/x').read())",
                  sandbox.Limits(ro=(*sandbox.python_folders(), "/tmp")))  # fmt: skip
    assert out.stdout.strip() == "ok", out.stderr


def test_the_cache_copy_takes_only_kernels_and_skips_what_it_cannot_read(tmp_path, monkeypatch):
    """A private file beside the kernels (the host's 0600 timing notes) stopped the copy, and
    every seat compiled the kernels again; now only .nbi/.nbc files are copied, each on its own."""
    import json

    cache = tmp_path / "pkg" / "__pycache__"
    cache.mkdir(parents=True)
    cache.parent.chmod(0o755)
    cache.chmod(0o755)
    (tmp_path / "pkg" / "k.py").write_text("")
    (cache / "aaa-notes.json").write_text("{}")
    (cache / "aaa-notes.json").chmod(0o600)
    for name in ("k.f-1.py311.nbi", "k.f-1.py311.1.nbc", "k.g-2.py311.nbi"):
        (cache / name).write_bytes(b"x")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    found = seat_caches.kernel_caches([str(tmp_path)])
    code = "from agents.arena.seat_caches import copy_seat_caches as c; print(c())"
    env = {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p and os.path.isdir(p)),
           seat_caches.SEAT_CACHES: json.dumps(found)}  # fmt: skip
    limits = sandbox.Limits(ro=(*sandbox.python_folders(), str(cache)))
    import subprocess

    argv = sandbox.wrap([sys.executable, "-c", code], limits, env)
    out = subprocess.run(argv, capture_output=True, text=True, timeout=120,
                         preexec_fn=sandbox.rlimits(limits))  # fmt: skip
    assert out.stdout.strip() == "3", out.stderr
