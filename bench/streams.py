"""A thousand phones on one box (issue 35): open streams, and the app still answers.

    .venv/bin/python bench/streams.py [--streams 1000] [--database sqlite|postgresql|both]
                                      [--per-address 20] [--healthz 200] [--saves 40]

Starts the server as `rummy-referee serve` does (SQLite in a fresh data folder, one worker
process) and as the PostgreSQL deployment does (`DATABASE_URL` to a throwaway cluster, the
default workers), on 127.0.0.1 only. Then, from this one process (asyncio):

1. opens `--streams` streams of one game, from loopback source
   addresses 127.0.1.x, `--per-address` streams each (phones behind their own addresses), and
   waits for each one's first event: streams open, refused (429/503) and unanswered;
2. the memory of the server processes (RSS and PSS, the master and its workers) before and
   while the streams are open;
3. while they are open, `--healthz` GET /healthz one after another, and `--saves` round saves
   on a game nobody watches: p50/p99 and p50/p95 (goals: /healthz p99 < 100 ms, a save's
   p95 < 300 ms);
4. one save on a watched game: how many of its streams heard it within 10 s, and the p95 and
   the last of their delays from the save sent (goal: all of them, p95 <= 300 ms).

Bounded: every wait has a timeout, the whole run stops after `--deadline` seconds, and the
server (and the cluster) are stopped at the end. Raises this process's open-files limit to
its hard limit first (the server inherits it): each stream is a socket on both sides.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the throwaway PostgreSQL cluster (conftest)

from bench.common import databases  # noqa: E402

HOST = "127.0.0.1"  # the server listens here, and only here
PLAYERS = ["Ann", "Bo", "Cy"]
WATCHED_GAMES = 1  # every stream on one game: one save wakes them all
ROUNDS_A_GAME = 6  # the seventh round of contract rummy asks more of its penalties


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def _raise_open_files() -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


# -- a small HTTP/1.1 client over asyncio ------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes


async def ask(port: int, method: str, path: str, body: Any = None, token: str = "") -> Answer:
    """One request on a connection of its own (as a phone's first request is), 10 s at most."""
    return await asyncio.wait_for(_ask(port, method, path, body, token), timeout=10)


async def _ask(port: int, method: str, path: str, body: Any, token: str) -> Answer:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        data = b"" if body is None else json.dumps(body).encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
        if body is not None:
            head += f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        writer.write((head + "\r\n").encode() + data)
        await writer.drain()
        raw = await reader.read()
    finally:
        writer.close()
    head_bytes, _, payload = raw.partition(b"\r\n\r\n")
    lines = head_bytes.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    if headers.get("transfer-encoding") == "chunked":
        payload = _unchunked(payload)
    return Answer(int(lines[0].split()[1]), headers, payload)


def _unchunked(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2 :]
    return out


async def ask_json(port: int, method: str, path: str, body: Any = None, token: str = "") -> Any:
    answer = await ask(port, method, path, body, token)
    if answer.status >= 300:
        raise RuntimeError(f"{method} {path}: {answer.status} {answer.body[:200]!r}")
    return json.loads(answer.body)


def round_body(number: int) -> dict[str, Any]:
    return {
        "round": number,
        "results": [{"player": "Ann", "went_out": True}, {"player": "Bo", "penalty": 25},
                    {"player": "Cy", "penalty": 30}],
    }  # fmt: skip


# -- the streams -------------------------------------------------------------------------------


@dataclass
class Stream:
    """One open stream: the versions it heard, each with when."""

    game: str
    heard: list[tuple[int, float]] = field(default_factory=list)
    status: int = 0
    task: asyncio.Task[None] | None = None
    writer: asyncio.StreamWriter | None = None


async def open_stream(port: int, source: str, stream: Stream, opened: asyncio.Event,
                      gate: asyncio.Semaphore) -> None:  # fmt: skip
    try:
        async with gate:  # at most so many connections being made at once
            reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
            stream.writer = writer
            writer.write(f"GET /games/{stream.game}/stream HTTP/1.1\r\nHost: localhost\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())  # fmt: skip
            await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        stream.status = int(head.split(b" ", 2)[1])
        buffer = b""
        while stream.status == 200 and (chunk := await reader.read(4096)):
            now = time.perf_counter()
            buffer += chunk
            for line in buffer.split(b"\n")[:-1]:
                if line.startswith(b"id: "):
                    stream.heard.append((int(line[4:]), now))
                    opened.set()
            buffer = buffer.rsplit(b"\n", 1)[-1]
    except (OSError, asyncio.IncompleteReadError, ValueError):
        stream.status = stream.status or -1
    finally:
        opened.set()


async def open_all(port: int, games: list[str], count: int, per_address: int) -> list[Stream]:
    """Every stream asked, then up to 15 s for each one's first event (or its refusal)."""
    streams = [Stream(games[i % len(games)]) for i in range(count)]
    gate = asyncio.Semaphore(64)
    waits = []
    for index, stream in enumerate(streams):
        opened = asyncio.Event()
        source = f"127.0.1.{1 + index // per_address}"
        stream.task = asyncio.create_task(open_stream(port, source, stream, opened, gate))
        waits.append(asyncio.create_task(opened.wait()))
    await asyncio.wait(waits, timeout=15 + count / 100)
    for wait in waits:
        wait.cancel()
    return streams


def close_all(streams: list[Stream]) -> None:
    for stream in streams:
        if stream.task is not None:
            stream.task.cancel()
        if stream.writer is not None:
            stream.writer.close()


# -- the server --------------------------------------------------------------------------------


@dataclass
class Server:
    process: subprocess.Popen[bytes]
    port: int
    log: Path

    def pids(self) -> list[int]:
        out = subprocess.run(["pgrep", "-P", str(self.process.pid)], capture_output=True,
                             text=True, check=False)  # fmt: skip
        return [self.process.pid, *(int(pid) for pid in out.stdout.split())]

    def memory_mb(self) -> tuple[float, float]:
        """RSS and PSS of the master and its workers, in MB (PSS counts shared pages once)."""
        rss = pss = 0
        for pid in self.pids():
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                    if line.startswith("Rss:"):
                        rss += int(line.split()[1])
                    elif line.startswith("Pss:"):
                        pss += int(line.split()[1])
        return rss / 1024, pss / 1024


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(label: str, url: str) -> Iterator[Server]:
    """`rummy-referee serve` on a fresh data folder: SQLite there, or DATABASE_URL."""
    data = Path(tempfile.mkdtemp(prefix=f"rummy-streams-{label}-"))
    port = _free_port()
    env = {**os.environ, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": "0"}
    env.pop("DATABASE_URL", None)
    if label == "postgresql":
        env["DATABASE_URL"] = url
    log = data / "server.log"
    command = [str(ROOT / ".venv/bin/rummy-referee"), "serve", "--data", str(data / "instance"),
               "--host", HOST, "--port", str(port)]  # fmt: skip
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    server = Server(process, port, log)
    try:
        yield server
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


async def until_up(server: Server) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(server.log.read_text()[-3000:])
        with contextlib.suppress(OSError, RuntimeError, ValueError, IndexError):
            await ask_json(server.port, "GET", "/healthz")
            return
        await asyncio.sleep(0.2)
    raise RuntimeError(f"the server did not answer in 60 s:\n{server.log.read_text()[-3000:]}")


# -- the run -----------------------------------------------------------------------------------


async def timed(call: Any) -> tuple[float, bool]:
    """Milliseconds `call` took (or the seconds it says it took), and whether it was answered."""
    started = time.perf_counter()
    try:
        said = await asyncio.wait_for(call, timeout=20)
    except (TimeoutError, OSError, RuntimeError, ValueError, IndexError):
        return (time.perf_counter() - started) * 1000, False
    took = said if isinstance(said, float) else time.perf_counter() - started
    return took * 1000, True


async def series(count: int, call: Any) -> list[tuple[float, bool]]:
    """`count` calls one after another, each timed; cut short after 3 unanswered in a row."""
    out: list[tuple[float, bool]] = []
    for _ in range(count):
        out.append(await timed(call()))
        if len(out) >= 3 and not any(ok for _, ok in out[-3:]):
            break
    return out


class Games:
    """Games to save rounds in, a new one when the last is full."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.game: dict[str, Any] = {}
        self.rounds = ROUNDS_A_GAME

    async def next_save(self) -> Any:
        """A round saved (a new game made first, untimed, when the last is full)."""
        if self.rounds >= ROUNDS_A_GAME:
            self.game = await new_game(self.port)
            self.rounds = 0
        self.rounds += 1
        path = f"/api/v1/games/{self.game['id']}/rounds"
        started = time.perf_counter()
        await ask_json(self.port, "POST", path, round_body(self.rounds), self.game["edit_token"])
        return time.perf_counter() - started


async def new_game(port: int) -> Any:
    return await ask_json(port, "POST", "/api/v1/games", {"variant": "contract",
                                                          "players": PLAYERS})  # fmt: skip


def _ms(values: list[float], *shares: float) -> str:
    if not values:
        return "none answered"
    return ", ".join(f"p{round(s * 100)} {_percentile(values, s):.0f} ms" for s in shares)


async def run(label: str, server: Server, args: argparse.Namespace) -> None:
    await until_up(server)
    games = [await new_game(server.port) for _ in range(WATCHED_GAMES)]
    # Warm up, so that the memory measured is what open streams cost, not what a worker's
    # first requests touch once: requests, saves and a round of streams opened and closed.
    for _ in range(50):
        await ask_json(server.port, "GET", "/healthz")
    await series(12, Games(server.port).next_save)
    close_all(await open_all(server.port, [g["id"] for g in games], 200, args.per_address))
    await asyncio.sleep(2)
    rss0, pss0 = server.memory_mb()
    started = time.perf_counter()
    streams = await open_all(server.port, [g["id"] for g in games], args.streams,
                             args.per_address)  # fmt: skip
    took = time.perf_counter() - started
    try:
        await report(label, server, args, games, streams, took, (rss0, pss0))
    finally:
        close_all(streams)


async def report(
    label: str,
    server: Server,
    args: argparse.Namespace,
    games: list[Any],
    streams: list[Stream],
    took: float,
    before: tuple[float, float],
) -> None:
    workers = len(server.pids()) - 1
    opened = [s for s in streams if s.status == 200 and s.heard]
    refused = [s for s in streams if s.status in (429, 503)]
    print(f"\n{label}: `rummy-referee serve`, {workers} worker process(es); "
          f"{args.streams} streams asked from {HOST} (source 127.0.1.x, "
          f"{args.per_address} an address) in {took:.1f} s")  # fmt: skip
    print(f"  streams open (first event heard): {len(opened)}; refused "
          f"{len(refused)} ({', '.join(sorted({str(s.status) for s in refused})) or '-'}); "
          f"unanswered in 10 s: {len(streams) - len(opened) - len(refused)}")  # fmt: skip
    await asyncio.sleep(2)
    rss, pss = server.memory_mb()
    count = max(1, len(opened))
    rss_per, pss_per = (rss - before[0]) * 1024 / count, (pss - before[1]) * 1024 / count
    print(f"  server memory: RSS {before[0]:.0f} -> {rss:.0f} MB, PSS {before[1]:.0f} -> "
          f"{pss:.0f} MB (a stream open: RSS {rss_per:.0f} KB, PSS {pss_per:.0f} KB; "
          f"PSS also counts pages a worker first touches, shared before)")  # fmt: skip
    health = await series(args.healthz, lambda: ask_json(server.port, "GET", "/healthz"))
    answered = [ms for ms, ok in health if ok]
    print(f"  /healthz x{len(health)} while they are open: {len(answered)} answered; "
          f"{_ms(answered, 0.5, 0.99)}")  # fmt: skip
    saver = Games(server.port)
    saves = await series(args.saves, saver.next_save)
    saved = [ms for ms, ok in saves if ok]
    print(f"  a round save x{len(saves)} (a game nobody watches): {len(saved)} answered; "
          f"{_ms(saved, 0.5, 0.95)}")  # fmt: skip
    await fan_out(server, games[0], [s for s in opened if s.game == games[0]["id"]])
    await while_busy(server)


async def while_busy(server: Server) -> None:
    """/healthz every 20 ms while rule cards never built before are asked one after another
    (the heaviest request there is: a second of CPU): what a phone waits meanwhile."""
    cards = [f"/rules/{variant}.pdf?lang={lang}&paper=letter"
             for variant in ("shanghai", "rummy") for lang in ("nl", "pt", "fr")]  # fmt: skip
    done = asyncio.Event()

    async def build() -> float:
        started = time.perf_counter()
        for card in cards:
            with contextlib.suppress(TimeoutError, OSError):
                await ask(server.port, "GET", card)
        done.set()
        return time.perf_counter() - started

    builder = asyncio.create_task(build())
    health: list[tuple[float, bool]] = []
    while not done.is_set():
        health.append(await timed(ask_json(server.port, "GET", "/healthz")))
        await asyncio.sleep(0.02)
    took = await builder
    answered = [ms for ms, ok in health if ok]
    print(f"  while {len(cards)} fresh rule cards build ({took:.1f} s): /healthz x{len(health)}, "
          f"{len(answered)} answered; {_ms(answered, 0.5, 0.99)}, the slowest "
          f"{max(answered, default=0):.0f} ms")  # fmt: skip


async def fan_out(server: Server, game: dict[str, Any], watching: list[Stream]) -> None:
    if not watching:
        print("  one save on a watched game: no stream of it is open")
        return
    sent = time.perf_counter()
    ms, ok = await timed(ask_json(server.port, "POST", f"/api/v1/games/{game['id']}/rounds",
                                  round_body(1), game["edit_token"]))  # fmt: skip
    deadline = time.perf_counter() + 10
    version = game["version"]
    while time.perf_counter() < deadline:
        if all(any(v > version for v, _ in s.heard) for s in watching):
            break
        await asyncio.sleep(0.02)
    delays = [min(t for v, t in s.heard if v > version) - sent for s in watching
              if any(v > version for v, _ in s.heard)]  # fmt: skip
    delays_ms = [d * 1000 for d in delays]
    last = f", the last {max(delays_ms):.0f} ms" if delays_ms else ""
    print(f"  one save on a watched game ({'answered' if ok else 'NOT answered'} in {ms:.0f} ms): "
          f"heard by {len(delays)} of its {len(watching)} open streams within 10 s; "
          f"{_ms(delays_ms, 0.5, 0.95)}{last} after it was sent")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--database", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--per-address", type=int, default=20,
                        help="streams from each source address (127.0.1.x)")  # fmt: skip
    parser.add_argument("--healthz", type=int, default=200)
    parser.add_argument("--saves", type=int, default=40)
    parser.add_argument("--deadline", type=float, default=600, help="seconds for each database")
    args = parser.parse_args()
    if args.streams // args.per_address > 250:
        parser.error("at most 250 source addresses: raise --per-address")
    files = _raise_open_files()
    print(f"open-files limit {files} (this process and the server it starts)")
    if files < 2 * args.streams + 200:
        print(f"  too low for {args.streams} streams: raise `ulimit -n`", file=sys.stderr)
    for label, url in databases(args.database, "rummy-streams-"):
        with serving(label, url) as server:
            try:
                asyncio.run(asyncio.wait_for(run(label, server, args), timeout=args.deadline))
            except TimeoutError:
                print(f"  {label}: stopped after {args.deadline:.0f} s")


if __name__ == "__main__":
    main()
