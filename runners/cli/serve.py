"""`puzzlesat serve`: the workshop, a local web application (runners/workshop/).

Bound to 127.0.0.1 unless --host says otherwise; --port 0 takes any free port, and the address
is printed either way; --open starts a browser on it; --folder is the one folder whose files
it reads and writes. Ctrl-C (or SIGTERM) ends every count it started and stops it in one line.
Also `bench workshop` (runners/benchmarks/workshop.py).
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading

from .. import output as report
from ..models.errors import InputError

NEEDS = "pip install 'puzzlesat[serve]'"


def add_command(commands) -> None:
    """Add `serve` to the command line's subparsers."""
    from ..workshop.jobs import IDLE_SECONDS
    from . import seconds

    serve = commands.add_parser(
        "serve", help="the workshop in a browser: the catalog, counts with progress and a stop, "
        "solutions as pictures, an editor of packing puzzles (needs the extra 'serve')")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8000,
                       help="the port (default 8000; 0: any free port)")
    serve.add_argument("--folder", default=".", metavar="DIR",
                       help="the one folder the workshop reads and writes puzzle files and "
                       "checkpoints in (default: the current folder)")
    serve.add_argument("--open", action="store_true", help="open the workshop in a browser")
    serve.add_argument("--idle", type=seconds, default=IDLE_SECONDS, metavar="S",
                       help="a count no page has asked about for S seconds (a closed tab) is "
                       f"stopped (default {IDLE_SECONDS:g})")
    serve.set_defaults(run=run_serve)


def listening(host: str, port: int) -> socket.socket:
    """A socket bound to host:port (port 0: any free one), or InputError saying why not."""
    if not 0 <= port <= 65535:
        raise InputError(f"a port is 0 to 65535, not {port}", field="--port")
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as error:
        raise InputError(f"cannot listen on {host}:{port}: {error.strerror or error}",
                         field="--port") from None
    sock.listen(64)
    sock.set_inheritable(False)
    return sock


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..workshop.app import application
    except ImportError as error:
        raise InputError(f"needs the web framework ({error.name} is not installed): {NEEDS}",
                         field="serve") from None
    app, shop = application(args.folder, args.idle, args.host)
    sock = listening(args.host, args.port)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"puzzlesat serve: the workshop at {url} (folder {shop.folder}; Ctrl-C stops it)",
          flush=True)
    from .silence import at_rest

    at_rest()  # a server waits for requests: its silence is no hang
    if args.open:
        import webbrowser

        opening = threading.Timer(0.5, webbrowser.open, (url,))
        opening.daemon = True  # a browser command that does not return keeps nothing waiting
        opening.start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False,
                                           lifespan="off", timeout_graceful_shutdown=2))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C, raised again by uvicorn once it has stopped serving
        pass
    finally:
        shop.jobs.close()
        sock.close()
    print("puzzlesat serve: stopped", file=sys.stderr, flush=True)
    return 0


def add_bench(parser: argparse.ArgumentParser) -> None:
    """`bench workshop`: a count from the workshop against `puzzlesat count`."""
    parser.add_argument("puzzle", nargs="?", default="iq-block-10", metavar="PUZZLE",
                        help="the puzzle counted (default iq-block-10)")
    from . import positive

    parser.add_argument("--repeat", type=positive, default=3, help="runs of each (default 3)")
    report.add_record_arguments(parser, "the figures (results/workshop-bench.md)")
    parser.set_defaults(run=bench_workshop)


def bench_workshop(args: argparse.Namespace) -> int:
    from ..benchmarks import workshop

    return workshop.bench_workshop(args)
