"""A PostgreSQL server for bench/load.py: the CPU its processes spend, and a database's URL on it."""

from __future__ import annotations

import contextlib
from urllib.parse import urlsplit, urlunsplit


class ServerCpu:
    """CPU seconds a local PostgreSQL server has used: the postmaster, its live processes (the
    backends serving the bots) and the children it has reaped."""

    def __init__(self, pid: int) -> None:
        import psutil  # pgserver's own dependency

        self.psutil = psutil
        self.postmaster = psutil.Process(pid)

    def total(self) -> float:
        times = self.postmaster.cpu_times()
        spent = times.user + times.system + times.children_user + times.children_system
        for child in self.postmaster.children(recursive=True):
            with contextlib.suppress(self.psutil.Error):  # exited meanwhile: counted as reaped
                times = child.cpu_times()
                spent += times.user + times.system
        return spent


def with_database(url: str, name: str) -> str:
    """`url` naming the database `name` instead (its path), host, user and query kept."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))
