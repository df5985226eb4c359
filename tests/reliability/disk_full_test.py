"""Disk full while signing up (SQLite on a small tmpfs).

The data directory lives on a 4 MiB tmpfs; a filler file takes all but a little of it, then passkey
and password signups run until the disk is full. The suite checks:

- every answer is 200 or 503 `temporarily_unavailable` with `Retry-After` in the route's error
  shape; never a 500 and never a dropped connection; the server keeps running;
- nothing is corrupt: `PRAGMA integrity_check` is `ok` while full and after a clean stop;
- it recovers: once the filler is deleted, signups succeed again, and every signup answered 200
  (before or after the full disk) is there.

Mounting needs root (CAP_SYS_ADMIN); without it the suite says so loudly and skips.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import tempfile

import requests

from harness import Server, jwt_claims, log  # first: it puts tests/interop on the path
from android_client import AndroidPasskeyProvider, PACKAGE_NAME, WEBAUTHN_GRANT, colon_fingerprint  # noqa: E402

CONNECTION = "Username-Password-Authentication"
PASSWORD = "a long enough pass phrase for disk tests"
SKIP = 77  # the exit status scripts/reliability-test.sh reads as "skipped"


def mount_tmpfs(directory: pathlib.Path, size: str) -> bool:
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(directory)],
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


def integrity(database: pathlib.Path) -> str:
    done = subprocess.run(["sqlite3", "-readonly", str(database), "PRAGMA integrity_check"],
                          capture_output=True, text=True, timeout=60, check=False)
    return (done.stdout + done.stderr).strip()


def run() -> int:
    if os.geteuid() != 0:
        log("disk-full: SKIPPED LOUDLY: not root, so no tmpfs can be mounted")
        return SKIP
    with tempfile.TemporaryDirectory(prefix="sesame-diskfull-") as directory:
        mount = pathlib.Path(directory) / "small"
        mount.mkdir()
        if not mount_tmpfs(mount, "4m"):
            return SKIP
        server = None
        try:
            server = Server(mount, serve_args=["--rate-limit-per-ip", "0", "--log-level", "warn"])
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
            database = next(mount.glob("data/*.db"))
            filler = mount / "filler"
            with filler.open("wb") as sink:
                sink.write(b"\0" * max(0, free_bytes(mount) - 192 * 1024))
            log(f"disk-full: {free_bytes(mount) // 1024} KiB left beside {database.stat().st_size // 1024} KiB "
                "of database")

            statuses = {200: 0, 503: 0}
            attempts = 0
            while statuses[503] < 20 and attempts < 2000:
                attempts += 1
                answer = signups.passkey() if attempts % 4 else signups.password()
                statuses[200 if check_answer(answer) else 503] += 1
            assert statuses[503] >= 20, f"the disk never filled: {statuses}, {free_bytes(mount)} bytes free"
            assert server.process.poll() is None, "the server died on a full disk"
            assert server.healthy(5), "/healthz does not answer on a full disk"
            full_check = integrity(database)
            assert full_check == "ok", f"integrity_check on the full disk: {full_check}"
            log(f"disk-full: {statuses[200]} signups answered 200 and then {statuses[503]} answered 503 "
                f"with Retry-After in {attempts} attempts; integrity_check ok while full")

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
            final = integrity(database)
            assert final == "ok", f"integrity_check after the stop: {final}"
            log(f"disk-full: recovered once space returned; all {len(signups.done)} acknowledged signups present; "
                "integrity_check ok after a clean stop")
            return 0
        except BaseException:
            if server is not None:
                log(f"server log tail:\n{server.tail()}")
            raise
        finally:
            if server is not None:
                server.stop()
            subprocess.run(["umount", str(mount)], check=False)


if __name__ == "__main__":
    sys.exit(run())
