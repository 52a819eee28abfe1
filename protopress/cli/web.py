"""The browser pages: `preview`, and the server behind `solo --web`."""

from __future__ import annotations

import contextlib
import random
import sys
from pathlib import Path

import click

from protopress.cli.app import cli
from protopress.companion import SessionError, SoloCompanion

host_option = click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: 0.0.0.0 reaches it from a phone on the same network.",
)
port_option = click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to listen on (0: any free port).",
)


def qr_code(url: str) -> str:
    """The URL as a QR code drawn with block characters, for a phone to scan off the terminal."""
    import io

    import segno

    drawn = io.StringIO()
    segno.make(url, error="m").terminal(out=drawn, compact=True, border=1)
    return drawn.getvalue()


def serve_page(app, host: str, port: int, what: str) -> int:
    """Listen, print the page's URL with a new token, serve app behind the gate
    until Ctrl+C; the exit code."""
    from protopress.web.server import Gate, Keys, is_loopback, listen, page_url, serve

    try:
        sock = listen(host, port)
    except (OSError, ValueError, TypeError) as error:  # taken, not allowed, not an address
        # (TypeError: a name the socket module cannot encode, such as '\uffff')
        reason = getattr(error, "strerror", None) or error
        click.echo(f"protopress: cannot listen on {host}:{port}: {reason}", err=True)
        return 1
    keys = Keys.new()  # new each start, kept nowhere but in this process
    url = page_url(host, sock.getsockname()[1], keys.token)

    def announce() -> None:
        click.echo(f"{what}: {url}")
        if is_loopback(host):
            click.echo("Open it in a browser on this machine; Ctrl+C stops it.")
        else:
            click.echo(qr_code(url), nl=False)  # for the phone's camera
            click.echo(reachable(host))
        sys.stdout.flush()

    with sock, contextlib.suppress(KeyboardInterrupt):  # uvicorn stops on Ctrl+C itself
        serve(Gate(app, keys, host), sock, announce)
    return 0


def reachable(host: str) -> str:
    """Who can reach a page listening on host, which is not a loopback address."""
    return (
        f"Listening on {host}, not only on this machine: anyone on the same network who "
        "has this address (or scans the code) can open the page and use it, over plain "
        "HTTP, until Ctrl+C stops it."
    )


def solo_web(
    solo: SoloCompanion, catalog, *, difficulty, seed, save_path, resume_path, host, port
) -> int:
    """`protopress solo GAME --web`: the page on the game's solo companion."""
    from protopress.web.solo import Companion, solo_app

    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    try:
        companion = Companion.open(
            solo,
            catalog,
            difficulty=difficulty,
            seed=seed,
            save_path=save_path,
            resume_path=resume_path,
        )
    except SessionError as error:
        click.echo(f"protopress solo: cannot go on: {error}", err=True)
        return 1
    except OSError as error:
        click.echo(f"protopress solo: cannot save to {error.filename}: {error.strerror}", err=True)
        return 1
    if companion.note:
        click.echo(companion.note)
    click.echo(f"Every answer is saved in {companion.save_path}.")
    return serve_page(solo_app(companion), host, port, "Solo companion")


@cli.command()
@click.argument(
    "catalog_path", metavar="CATALOG", type=click.Path(exists=True, dir_okay=False, path_type=Path)
)
@click.option("--layouts", "layouts_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A folder of your own layouts (<kind>.json or .yaml), as for render.")  # fmt: skip
@host_option
@port_option
def preview(catalog_path, layouts_dir, host, port):
    """Show every face of a catalog in the browser, updated as you save.

    Problems (validation, text that overflows, the safe zone) show beside the
    faces they concern; click a face for its fields.
    """
    from protopress.web.preview import Preview, preview_app

    watcher = Preview(catalog_path, layouts_dir)
    watcher.start()
    try:
        code = serve_page(preview_app(watcher), host, port, "Preview")
    finally:
        watcher.stop()
    sys.exit(code)


def table_web(spec, catalog, reference, seats, seed, options, rules, save_path, *, host, port):
    """`protopress play GAME --web`: the playtest table, resuming an unfinished game saved
    at save_path (of the same game), else a new one."""
    from protopress.web.table import PlayTable, TableError, TableSetup, read_save, table_app

    setup = TableSetup(
        game=spec.id,
        catalog=reference,
        catalog_version=catalog.version,
        seats=tuple(seats),
        seed=random.SystemRandom().randrange(1, 1_000_000) if seed is None else seed,
        options=options,
        rules=rules,
    )
    logged: list = []
    try:
        if save_path.exists():
            saved, actions = read_save(save_path)
            if saved.game != spec.id:
                click.echo(f"protopress play: {save_path} holds a game of {saved.game}, not "
                           f"{spec.id}: name another with --save", err=True)  # fmt: skip
                return 1
            try:
                resumed = PlayTable(spec.new_game(), catalog, saved, save_path, actions)
            except TableError as error:
                raise TableError(f"{save_path}: {error}") from None
            if not resumed.over:
                setup, logged = saved, actions
                click.echo(f"Resumed the unfinished game in {save_path} ({len(actions)} moves).")
        table = PlayTable(spec.new_game(), catalog, setup, save_path, logged)
    except TableError as error:
        click.echo(f"protopress play: {error}", err=True)
        return 1
    except OSError as error:
        click.echo(f"protopress play: cannot save to {error.filename}: {error.strerror}", err=True)
        return 1
    seated = ", ".join(f"seat {n}: {who}" for n, who in enumerate(table.setup.seats))
    click.echo(f"{spec.title}, seed {table.setup.seed} ({seated}); saved in {save_path}.")
    return serve_page(table_app(table), host, port, "Playtest table")
