"""Disk full while signing up, on SQLite or on PostgreSQL.

The database lives on a small tmpfs: on SQLite the whole data directory (4 MiB); on PostgreSQL a
tablespace (24 MiB) that holds a database of its own, created for the suite in the cluster
`--store` names, while the cluster's WAL stays on the normal disk. A filler file takes all but a
little of the tmpfs, then passkey and password signups run until the disk is full. The suite checks:

- every answer is 200 or 503 `temporarily_unavailable` with `Retry-After` in the route's error
  shape; never a 500 and never a dropped connection; the server keeps running;
- nothing is corrupt: on SQLite `PRAGMA integrity_check` is `ok`, on PostgreSQL amcheck's
  `bt_index_check` passes on every index of the database, while full and after a clean stop;
- nothing is half written: the store holds exactly the users whose signup was answered 200, and no
  passkey, refresh token or user without what it belongs to;
- it recovers: once the filler is deleted, signups succeed again, and every signup answered 200
  (before or after the full disk) is there.

    disk_full_test.py [--store postgresql://…]

Mounting needs root (CAP_SYS_ADMIN); without it the suite says so loudly and skips.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import pwd
import subprocess
import sys
import tempfile
import urllib.parse

import requests

from harness import Server, jwt_claims, log  # first: it puts integration/interop on the path
from crash_test import STORE_QUERIES  # nothing belongs to a user or connection that is not there
from android_client import AndroidPasskeyProvider, PACKAGE_NAME, WEBAUTHN_GRANT, colon_fingerprint  # noqa: E402

CONNECTION = "Username-Password-Authentication"
PASSWORD = "a long enough pass phrase for disk tests"
SKIP = 77  # the exit status scripts/reliability-test.sh reads as "skipped"


def mount_tmpfs(directory: pathlib.Path, size: str, options: str) -> bool:
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},{options}", "tmpfs", str(directory)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        log(f"disk-full: SKIPPED LOUDLY: cannot mount a tmpfs ({done.stderr.strip()}); run as root to test it")
        return False
    return True


def free_bytes(directory: pathlib.Path) -> int:
    stat = os.statvfs(directory)
    return stat.f_bavail * stat.f_frsize


class Signups:
    def __init__(self, server: Server):
        self.server = server
        self.session = requests.Session()
        self.session.trust_env = False
        self.client_id = server.ids["client_id"]
        self.done: list[tuple[str, str]] = []  # (kind, user id) answered 200
        self.serial = 0

    def post(self, path: str, body: dict, token: str | None = None) -> requests.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.session.post(self.server.url + path, json=body, headers=headers, timeout=15)

    def admin(self) -> str:
        answer = self.post("/oauth/token", {
            "grant_type": "client_credentials", "client_id": self.server.ids["management_client_id"],
            "client_secret": self.server.ids["management_client_secret"], "audience": f"{self.server.url}/api/v2/"})
        assert answer.status_code == 200, answer.text
        return answer.json()["access_token"]

    def passkey(self) -> requests.Response:
        self.serial += 1
        provider = AndroidPasskeyProvider()
        email = f"full{self.serial}-{os.urandom(8).hex()}@example.com"
        challenge = self.post("/passkey/register", {"client_id": self.client_id,
                                                    "user_profile": {"email": email, "name": "x" * 200}})
        if challenge.status_code != 200:
            return challenge
        body = challenge.json()
        credential = provider.create(body["authn_params_public_key"])
        answer = self.post("/oauth/token", {
            "grant_type": WEBAUTHN_GRANT, "client_id": self.client_id, "auth_session": body["auth_session"],
            "authn_response": credential, "scope": "openid offline_access"})
        if answer.status_code == 200:
            self.done.append(("passkey", jwt_claims(answer.json()["id_token"])["sub"]))
        return answer

    def password(self) -> requests.Response:
        self.serial += 1
        answer = self.post("/dbconnections/signup", {
            "client_id": self.client_id, "connection": CONNECTION, "password": PASSWORD,
            "email": f"fullpw{self.serial}-{os.urandom(8).hex()}@example.com"})
        if answer.status_code == 200:
            self.done.append(("password", "sesame|" + answer.json()["_id"]))
        return answer


def check_answer(answer: requests.Response) -> bool:
    """True for a 200; a 503 must be the documented shape with Retry-After; anything else fails."""
    if answer.status_code == 200:
        return True
    assert answer.status_code == 503, f"{answer.status_code} {answer.text[:300]}"
    assert answer.headers.get("Retry-After"), answer.headers
    body = answer.json()
    assert body.get("error") == "temporarily_unavailable" or body.get("code") == "temporarily_unavailable", body
    return False


def run_tool(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{command[0]} failed: {done.stderr.strip()}"
    return done.stdout.strip()


class SQLiteDisk:
    """The whole data directory on the tmpfs."""

    label = "SQLite"
    size = "4m"

    def __init__(self, directory: pathlib.Path):
        self.mount = directory / "small"
        self.server_root = self.mount
        self.store: str | None = None

    def mount_options(self) -> str:
        return "mode=0700"

    def prepare(self) -> None:
        pass

    def database(self) -> pathlib.Path:
        return next(self.mount.glob("data/*.db"))

    def query(self, sql: str) -> str:
        return run_tool(["sqlite3", "-readonly", "-batch", str(self.database()), sql])

    def integrity(self) -> str:
        return self.query("PRAGMA integrity_check")

    def size_text(self) -> str:
        return f"{self.database().stat().st_size // 1024} KiB of database"

    def teardown(self) -> None:
        pass


class PostgresDisk:
    """A tablespace on the tmpfs, and a database of the suite's own whose default tablespace it is:
    every table and index Sesame creates lands on the small disk; the WAL does not."""

    label = "PostgreSQL"
    size = "24m"
    database_name = "sesame_disk_full"
    tablespace = "sesame_disk_full"

    def __init__(self, directory: pathlib.Path, cluster: str):
        self.mount = directory / "small"
        self.server_root = directory / "server"
        self.server_root.mkdir()
        self.cluster = cluster
        parts = urllib.parse.urlsplit(cluster)
        self.store = urllib.parse.urlunsplit(parts._replace(path="/" + self.database_name))
        self.created = False
        # The server runs as `postgres` when the suite is root (scripts/postgres.sh); the tablespace's
        # directory must be its, and every directory above it must let it through.
        self.owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else pwd.getpwuid(os.getuid())
        os.chmod(directory, 0o755)

    def mount_options(self) -> str:
        return f"mode=0700,uid={self.owner.pw_uid},gid={self.owner.pw_gid}"

    def psql(self, dsn: str, sql: str) -> str:
        return run_tool(["psql", "-X", "-A", "-t", "-q", "-v", "ON_ERROR_STOP=1", dsn, "-c", sql])

    def prepare(self) -> None:
        location = self.mount / "tablespace"
        location.mkdir()
        os.chown(location, self.owner.pw_uid, self.owner.pw_gid)
        self.psql(self.cluster, f"CREATE TABLESPACE {self.tablespace} LOCATION '{location}'")
        self.psql(self.cluster, f"CREATE DATABASE {self.database_name} TABLESPACE {self.tablespace}")
        self.created = True
        self.psql(self.store, "CREATE EXTENSION amcheck")

    def query(self, sql: str) -> str:
        return self.psql(self.store, sql)

    def integrity(self) -> str:
        """amcheck on every B-tree index of the database (the tables' heap pages are read by it too:
        `heapallindexed` looks every heap tuple up in the index)."""
        checked = self.query(
            "SELECT count(bt_index_check(c.oid, true)) FROM pg_index i "
            "JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE a.amname = 'btree' AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
            "AND c.relpersistence != 't' AND i.indisvalid")
        assert int(checked) > 10, f"amcheck looked at only {checked} indexes"
        return "ok"

    def size_text(self) -> str:
        size = self.query(f"SELECT pg_database_size('{self.database_name}')")
        return f"{int(size) // 1024} KiB of database"

    def teardown(self) -> None:
        if self.created:
            subprocess.run(["psql", "-X", "-q", self.cluster, "-c",
                            f"DROP DATABASE IF EXISTS {self.database_name} WITH (FORCE)"],
                           capture_output=True, timeout=60, check=False)
        subprocess.run(["psql", "-X", "-q", self.cluster, "-c", f"DROP TABLESPACE IF EXISTS {self.tablespace}"],
                       capture_output=True, timeout=60, check=False)


def check_nothing_half_written(disk, signups: Signups) -> None:
    for what, sql in STORE_QUERIES.items():
        count = disk.query(sql)
        assert count == "0", f"{count} {what}"
    stored = set(disk.query("SELECT id FROM users").split())
    answered = {user_id for _, user_id in signups.done}
    assert stored == answered, (
        f"the store holds {len(stored)} users, {len(signups.done)} signups were answered 200; "
        f"stored but not answered 200: {sorted(stored - answered)} "
        f"({disk.query('SELECT email_lower FROM users WHERE id IN (' + ','.join(repr(i) for i in stored - answered) + ')') if stored - answered else ''}); "
        f"answered 200 but not stored: {sorted(answered - stored)}")
    passkey_users = int(disk.query("SELECT count(DISTINCT user_id) FROM passkeys"))
    wanted = sum(1 for kind, _ in signups.done if kind == "passkey")
    assert passkey_users == wanted, f"{passkey_users} users hold a passkey, {wanted} passkey signups answered 200"


def run(cluster: str | None) -> int:
    if os.geteuid() != 0:
        log("disk-full: SKIPPED LOUDLY: not root, so no tmpfs can be mounted")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="sesame-diskfull-") as directory:
        disk = PostgresDisk(pathlib.Path(directory), cluster) if cluster else SQLiteDisk(pathlib.Path(directory))
        disk.mount.mkdir()
        if not mount_tmpfs(disk.mount, disk.size, disk.mount_options()):
            return SKIP
        server = None
        try:
            disk.prepare()
            server = Server(disk.server_root, store=disk.store,
                            serve_args=["--rate-limit-per-ip", "0", "--log-level", "warn"])
            server.log_path = pathlib.Path(directory) / "server.log"  # the log must not fill the disk
            server.start()
            signups = Signups(server)
            admin = signups.admin()
            answer = requests.patch(
                f"{server.url}/api/v2/clients/{server.ids['client_id']}",
                json={"mobile": {"android": {"app_package_name": PACKAGE_NAME,
                                             "sha256_cert_fingerprints": [colon_fingerprint()]}}},
                headers={"Authorization": f"Bearer {admin}"}, timeout=15)
            assert answer.status_code == 200, answer.text
            for _ in range(5):
                assert check_answer(signups.passkey()) and check_answer(signups.password())
            filler = disk.mount / "filler"
            with filler.open("wb") as sink:
                sink.write(b"\0" * max(0, free_bytes(disk.mount) - 192 * 1024))
            log(f"disk-full ({disk.label}): {free_bytes(disk.mount) // 1024} KiB left beside {disk.size_text()}")

            statuses = {200: 0, 503: 0}
            attempts = 0
            while statuses[503] < 20 and attempts < 2000:
                attempts += 1
                answer = signups.passkey() if attempts % 4 else signups.password()
                statuses[200 if check_answer(answer) else 503] += 1
            assert statuses[503] >= 20, f"the disk never filled: {statuses}, {free_bytes(disk.mount)} bytes free"
            assert server.process.poll() is None, "the server died on a full disk"
            assert server.healthy(5), "/healthz does not answer on a full disk"
            full_check = disk.integrity()
            assert full_check == "ok", f"integrity check on the full disk: {full_check}"
            check_nothing_half_written(disk, signups)
            log(f"disk-full ({disk.label}): {statuses[200]} signups answered 200 and then {statuses[503]} answered "
                f"503 with Retry-After in {attempts} attempts; the integrity check passed while full, and the store "
                f"holds exactly the {len(signups.done)} users answered 200")

            filler.unlink()
            recovered = [check_answer(signups.passkey()) for _ in range(5)] + [check_answer(signups.password())]
            assert all(recovered), f"signups still fail after space returned: {recovered}"

            admin = signups.admin()
            for kind, user_id in signups.done:
                found = requests.get(f"{server.url}/api/v2/users/{requests.utils.quote(user_id, safe='')}",
                                     headers={"Authorization": f"Bearer {admin}"}, timeout=15)
                assert found.status_code == 200, f"{kind} user {user_id} answered 200 is gone: {found.text}"
            status = server.stop()
            assert status == 0, f"sesame serve exited {status} after SIGTERM:\n{server.tail()}"
            final = disk.integrity()
            assert final == "ok", f"integrity check after the stop: {final}"
            check_nothing_half_written(disk, signups)
            log(f"disk-full ({disk.label}): recovered once space returned; all {len(signups.done)} acknowledged "
                "signups present; the integrity check passed after a clean stop")
            return 0
        except BaseException:
            if server is not None:
                log(f"server log tail:\n{server.tail()}")
            raise
        finally:
            if server is not None:
                server.stop()
            disk.teardown()
            subprocess.run(["umount", str(disk.mount)], check=False)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", default=None,
                        help="a PostgreSQL cluster's URI (scripts/postgres.sh dsn); default: SQLite")
    sys.exit(run(parser.parse_args().store))
