"""kill -9 under mixed load, then restart on the same data and check what survived.

Worker threads run passkey signups and logins (the Android client of integration/interop), password
signups and logins, refresh-token rotations and Management API writes (user creation and
`user_metadata` updates) against `sesame serve`, and record every request that was answered 200
(or 201) with what it created. At a random moment the server gets SIGKILL. It is started again on
the same data and the suite checks:

- it starts cleanly (no error in its log, /healthz answers), and after the last cycle stops on
  SIGTERM with status 0; on SQLite `PRAGMA integrity_check` and `foreign_key_check` are clean;
- every acknowledged signup, user, passkey and Management write is there (through the API);
- nothing is half written: a user whose signup was in flight at the kill exists with its passkey or
  password or not at all; no passkey or refresh token without its user, no user without its
  connection (through the store: sqlite3 or psql);
- no refresh token is valid twice: the newest token of each chain works (unless its rotation was
  in flight), every token rotated out with a 200 is refused, and that reuse revokes the family.

    crash_test.py --cycles N [--store postgres://…] [--seconds-min S --seconds-max S]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import random
import re
import subprocess
import tempfile
import threading
import time

import requests

from harness import Server, jwt_claims, log  # first: it puts integration/interop on the path
from android_client import WEBAUTHN_GRANT, AndroidPasskeyProvider, colon_fingerprint, PACKAGE_NAME  # noqa: E402

TIMEOUT = 10
CONNECTION = "Username-Password-Authentication"
REALM = "http://auth0.com/oauth/grant-type/password-realm"
PASSWORD = "a long enough pass phrase for crash tests"
SCOPE = "openid profile email offline_access"


class Unanswered(Exception):
    """The server went away before answering (the kill): the outcome is unknown."""


class Refused(Exception):
    """503 with Retry-After (load shed, or the store unavailable): nothing was written."""


@dataclasses.dataclass
class Chain:
    """One refresh-token family, as its client saw it."""

    tokens: list  # every refresh token it was handed, oldest first; all but the last rotated with a 200
    in_flight: bool = False  # a rotation of tokens[-1] was sent and never answered
    checked: bool = False


@dataclasses.dataclass
class PasskeyUser:
    email: str
    provider: AndroidPasskeyProvider
    user_id: str | None = None  # None: the signup was in flight at the kill
    credential_id: str | None = None
    refused: bool = False  # answered 503: must not exist


@dataclasses.dataclass
class PasswordUser:
    email: str
    user_id: str | None = None
    via_management: bool = False
    refused: bool = False


@dataclasses.dataclass
class MetadataWrites:
    user_id: str
    acknowledged: int = 0  # the highest counter a PATCH answered 200 for
    attempted: int = 0  # the highest counter sent


class Ledger:
    """Everything the workers were told, guarded by one lock."""

    def __init__(self):
        self.lock = threading.Lock()
        self.passkey_users: list[PasskeyUser] = []
        self.password_users: list[PasswordUser] = []
        self.chains: list[Chain] = []
        self.metadata: dict[str, MetadataWrites] = {}
        self.counts: dict[str, int] = {}

    def count(self, what: str) -> None:
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + 1


class Client:
    def __init__(self, server: Server, ids: dict, admin_token: str):
        self.url = server.url
        self.client_id = ids["client_id"]
        self.admin = admin_token
        self.session = requests.Session()
        self.session.trust_env = False

    def call(self, method: str, path: str, body=None, token=None, form=None) -> tuple[int, dict]:
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        try:
            response = self.session.request(
                method, self.url + path, json=body, data=form, headers=headers, timeout=TIMEOUT,
                allow_redirects=False,
            )
        except requests.RequestException as error:
            raise Unanswered(str(error)) from error
        try:
            payload = response.json() if response.content else {}
        except ValueError:
            payload = {"raw": response.text[:200]}
        if response.status_code == 503:
            assert response.headers.get("Retry-After"), f"503 without Retry-After from {path}: {payload}"
            assert payload.get("error") == "temporarily_unavailable" or payload.get("code") == "temporarily_unavailable", payload
            raise Refused(path)
        return response.status_code, payload


def management_token(client: Client, ids: dict) -> str:
    status, body = client.call("POST", "/oauth/token", {
        "grant_type": "client_credentials", "client_id": ids["management_client_id"],
        "client_secret": ids["management_client_secret"], "audience": f"{client.url}/api/v2/",
    })
    assert status == 200, body
    return body["access_token"]


def enable_android(client: Client) -> None:
    status, body = client.call("PATCH", f"/api/v2/clients/{client.client_id}", {
        "mobile": {"android": {"app_package_name": PACKAGE_NAME, "sha256_cert_fingerprints": [colon_fingerprint()]}}
    }, token=client.admin)
    assert status == 200, body


class Worker(threading.Thread):
    """Random operations until the server stops answering."""

    def __init__(self, name: str, client: Client, ledger: Ledger, stop: threading.Event, seed: int):
        super().__init__(name=name, daemon=True)
        self.client, self.ledger, self.stop_event = client, ledger, stop
        self.random = random.Random(seed)
        self.serial = 0
        self.mine_passkey: list[PasskeyUser] = []
        self.mine_password: list[PasswordUser] = []
        self.mine_chains: list[Chain] = []
        self.mine_metadata: list[MetadataWrites] = []
        self.failure: str | None = None

    def run(self):
        operations = [
            (self.passkey_signup, 3), (self.passkey_login, 2), (self.password_signup, 2),
            (self.password_login, 1), (self.refresh, 6), (self.management_create, 1), (self.metadata_write, 3),
        ]
        choices = [op for op, weight in operations for _ in range(weight)]
        while not self.stop_event.is_set():
            try:
                self.random.choice(choices)()
            except Unanswered:
                return  # the kill; the operation's record says what is unknown
            except Refused:
                self.ledger.count("answered 503 (shed or store unavailable)")
            except AssertionError as error:
                self.failure = f"{self.name}: {error}"
                self.stop_event.set()
                return

    def email(self, kind: str) -> str:
        self.serial += 1
        return f"{kind}-{self.name}-{self.serial}-{os.urandom(3).hex()}@example.com"

    def expect(self, wanted: set, status: int, body: dict, what: str) -> None:
        assert status in wanted, f"{what}: {status} {body}"

    def new_chain(self, token: str) -> None:
        chain = Chain(tokens=[token])
        self.mine_chains.append(chain)
        with self.ledger.lock:
            self.ledger.chains.append(chain)

    def passkey_signup(self):
        user = PasskeyUser(email=self.email("passkey"), provider=AndroidPasskeyProvider())
        status, challenge = self.client.call("POST", "/passkey/register", {
            "client_id": self.client.client_id, "user_profile": {"email": user.email}})
        self.expect({200}, status, challenge, "passkey register")
        credential = user.provider.create(challenge["authn_params_public_key"])
        with self.ledger.lock:
            self.ledger.passkey_users.append(user)  # in flight from here on
        try:
            status, tokens = self.client.call("POST", "/oauth/token", {
                "grant_type": WEBAUTHN_GRANT, "client_id": self.client.client_id,
                "auth_session": challenge["auth_session"], "authn_response": credential, "scope": SCOPE})
        except Refused:
            user.refused = True
            raise
        self.expect({200}, status, tokens, "passkey signup")
        user.user_id = jwt_claims(tokens["id_token"])["sub"]
        user.credential_id = credential["id"]
        self.mine_passkey.append(user)
        self.new_chain(tokens["refresh_token"])
        self.ledger.count("passkey signups")

    def passkey_login(self):
        if not self.mine_passkey:
            return self.passkey_signup()
        user = self.random.choice(self.mine_passkey)
        status, challenge = self.client.call("POST", "/passkey/challenge", {"client_id": self.client.client_id})
        self.expect({200}, status, challenge, "passkey challenge")
        assertion = user.provider.get(challenge["authn_params_public_key"])
        status, tokens = self.client.call("POST", "/oauth/token", {
            "grant_type": WEBAUTHN_GRANT, "client_id": self.client.client_id,
            "auth_session": challenge["auth_session"], "authn_response": assertion, "scope": SCOPE})
        self.expect({200}, status, tokens, "passkey login")
        assert jwt_claims(tokens["id_token"])["sub"] == user.user_id
        self.new_chain(tokens["refresh_token"])
        self.ledger.count("passkey logins")

    def password_signup(self):
        self.create_password_user(
            "password", "/dbconnections/signup", {"client_id": self.client.client_id}, None, 200, "_id",
            "password signup", "password signups")

    def password_login(self):
        if not self.mine_password:
            return self.password_signup()
        user = self.random.choice(self.mine_password)
        status, tokens = self.client.call("POST", "/oauth/token", form={
            "grant_type": REALM, "client_id": self.client.client_id, "username": user.email,
            "password": PASSWORD, "realm": CONNECTION, "scope": SCOPE})
        self.expect({200}, status, tokens, "password login")
        self.new_chain(tokens["refresh_token"])
        self.ledger.count("password logins")

    def refresh(self):
        live = [chain for chain in self.mine_chains if not chain.in_flight]
        if not live:
            return self.passkey_login()
        chain = self.random.choice(live)
        chain.in_flight = True
        try:
            status, tokens = self.client.call("POST", "/oauth/token", {
                "grant_type": "refresh_token", "client_id": self.client.client_id,
                "refresh_token": chain.tokens[-1]})
        except Refused:
            chain.in_flight = False  # nothing was written: the token is still the newest
            raise
        self.expect({200}, status, tokens, "refresh")
        assert tokens["refresh_token"] not in chain.tokens
        chain.tokens.append(tokens["refresh_token"])
        chain.in_flight = False
        self.ledger.count("refresh rotations")

    def management_create(self):
        self.create_password_user(
            "managed", "/api/v2/users", {}, self.client.admin, 201, "user_id", "management create user",
            "management creates")

    def create_password_user(self, kind, path, extra, token, expected, id_member, what, counter):
        """Signs up (or creates through Management) a password user, recording it in the ledger
        before the request so a kill mid-request is accounted for."""
        user = PasswordUser(email=self.email(kind), via_management=token is not None)
        with self.ledger.lock:
            self.ledger.password_users.append(user)
        try:
            status, body = self.client.call(
                "POST", path, {**extra, "connection": CONNECTION, "email": user.email, "password": PASSWORD},
                token=token)
        except Refused:
            user.refused = True
            raise
        self.expect({expected}, status, body, what)
        user.user_id = body[id_member]
        self.mine_password.append(user)
        self.ledger.count(counter)

    def metadata_write(self):
        users = [u.user_id for u in self.mine_password if u.via_management] + [
            u.user_id for u in self.mine_passkey]
        if not users:
            return self.management_create()
        user_id = self.random.choice(users)
        writes = next((w for w in self.mine_metadata if w.user_id == user_id), None)
        if writes is None:
            writes = MetadataWrites(user_id)
            self.mine_metadata.append(writes)
            with self.ledger.lock:
                self.ledger.metadata[user_id] = writes
        counter = writes.attempted + 1
        writes.attempted = counter
        status, body = self.client.call(
            "PATCH", f"/api/v2/users/{user_id}", {"user_metadata": {"counter": str(counter)}},
            token=self.client.admin)
        self.expect({200}, status, body, "management metadata write")
        writes.acknowledged = counter
        self.ledger.count("management writes")


# --- the checks after a restart ---

def user_path(user_id: str) -> str:
    return "/api/v2/users/" + requests.utils.quote(user_id, safe="")


def find_by_email(client: Client, email: str) -> list:
    status, users = client.call("GET", "/api/v2/users?q=" + requests.utils.quote(f'email:"{email}"'),
                                token=client.admin)
    assert status == 200, users
    return [u for u in users if u.get("email") == email]


def check_users(client: Client, ledger: Ledger, server: Server) -> dict:
    found = {"passkey users": 0, "password users": 0, "in-flight signups present": 0, "in-flight absent": 0,
             "503'd absent": 0}
    for user in ledger.passkey_users + ledger.password_users:
        if user.refused:
            assert not find_by_email(client, user.email), f"a signup answered 503 was written: {user.email}"
            found["503'd absent"] += 1
    for user in ledger.passkey_users:
        if user.refused:
            continue
        if user.user_id is None:
            matches = find_by_email(client, user.email)
            if not matches:
                found["in-flight absent"] += 1
                continue
            # The signup committed: user and passkey together, never one without the other.
            assert len(matches) == 1, matches
            user.user_id = matches[0]["user_id"]
            status, methods = client.call("GET", user_path(user.user_id) + "/authentication-methods",
                                          token=client.admin)
            assert status == 200 and len(methods) == 1 and methods[0]["type"] == "passkey", (
                f"half-written passkey signup {user.email}: {methods}")
            user.credential_id = methods[0]["credential_id"]
            found["in-flight signups present"] += 1
            continue
        status, body = client.call("GET", user_path(user.user_id), token=client.admin)
        assert status == 200, f"acknowledged passkey signup {user.email} lost: {status} {body}"
        assert body["email"] == user.email and body.get("identities"), body
        assert any(i.get("connection") for i in body["identities"]), body
        status, methods = client.call("GET", user_path(user.user_id) + "/authentication-methods",
                                      token=client.admin)
        assert status == 200, methods
        assert [m["credential_id"] for m in methods if m["type"] == "passkey"] == [user.credential_id], methods
        found["passkey users"] += 1
    for user in ledger.password_users:
        if user.refused:
            continue
        if user.user_id is None:
            matches = find_by_email(client, user.email)
            if not matches:
                found["in-flight absent"] += 1
                continue
            assert len(matches) == 1 and matches[0].get("identities"), matches
            user.user_id = matches[0]["user_id"]
            # The user exists, so its password must be there too: a login proves it.
            status, tokens = client.call("POST", "/oauth/token", form={
                "grant_type": REALM, "client_id": client.client_id, "username": user.email,
                "password": PASSWORD, "realm": CONNECTION, "scope": "openid"})
            assert status == 200, f"half-written password user {user.email}: {status} {tokens}"
            found["in-flight signups present"] += 1
            continue
        # /dbconnections/signup answers the id without its "sesame|" prefix, as Auth0 does.
        status, body = client.call("GET", user_path(user.user_id), token=client.admin)
        if status == 404 and "|" not in user.user_id:
            status, body = client.call("GET", user_path("sesame|" + user.user_id), token=client.admin)
        assert status == 200, f"acknowledged password user {user.email} lost: {status} {body}"
        assert body["email"] == user.email and body.get("identities"), body
        found["password users"] += 1
    return found


def check_metadata(client: Client, ledger: Ledger) -> int:
    for writes in ledger.metadata.values():
        if writes.acknowledged == 0:
            continue
        status, body = client.call("GET", user_path(writes.user_id), token=client.admin)
        assert status == 200, body
        value = int(body.get("user_metadata", {}).get("counter", "0"))
        assert writes.acknowledged <= value <= writes.attempted, (
            f"user_metadata.counter of {writes.user_id} is {value}; acknowledged {writes.acknowledged}, "
            f"sent up to {writes.attempted}")
    return sum(1 for w in ledger.metadata.values() if w.acknowledged)


def refresh(client: Client, token: str) -> tuple[int, dict]:
    return client.call("POST", "/oauth/token", {
        "grant_type": "refresh_token", "client_id": client.client_id, "refresh_token": token})


def check_chains(client: Client, ledger: Ledger) -> dict:
    result = {"chains": 0, "newest worked": 0, "newest refused (rotation in flight)": 0, "rotated refused": 0}
    for chain in ledger.chains:
        if chain.checked:
            continue
        chain.checked = True
        result["chains"] += 1
        status, body = refresh(client, chain.tokens[-1])
        fresh = None
        if status == 200:
            fresh = body["refresh_token"]
            result["newest worked"] += 1
        else:
            assert chain.in_flight, f"the newest token of a chain was refused: {status} {body}"
            assert status == 400 and body.get("error") == "invalid_grant", body
            result["newest refused (rotation in flight)"] += 1
        # Every token rotated out with a 200 is refused, before and after the first reuse.
        for old in chain.tokens[:-1]:
            status, body = refresh(client, old)
            assert status == 400 and body.get("error") == "invalid_grant", f"a rotated token worked: {body}"
            result["rotated refused"] += 1
        # Reuse detection: a used token (the newest, used just now) revokes the family, so the
        # token it rotated to is refused too.
        if fresh is not None:
            status, body = refresh(client, chain.tokens[-1])
            assert status == 400 and body.get("error") == "invalid_grant", f"reused token worked: {body}"
            status, body = refresh(client, fresh)
            assert status == 400 and body.get("error") == "invalid_grant", f"family not revoked: {body}"
    return result


STORE_QUERIES = {
    "passkeys without their user": "SELECT count(*) FROM passkeys p WHERE NOT EXISTS "
    "(SELECT 1 FROM users u WHERE u.tenant_id = p.tenant_id AND u.id = p.user_id)",
    "refresh tokens without their user": "SELECT count(*) FROM refresh_tokens r WHERE NOT EXISTS "
    "(SELECT 1 FROM users u WHERE u.tenant_id = r.tenant_id AND u.id = r.user_id)",
    "users without their connection": "SELECT count(*) FROM users u WHERE NOT EXISTS "
    "(SELECT 1 FROM connections c WHERE c.tenant_id = u.tenant_id AND c.id = u.connection_id)",
}


def store_query(server: Server, sql: str) -> str:
    if server.store:
        command = ["psql", "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", server.store, "-c", sql]
    else:
        command = ["sqlite3", "-batch", str(database_file(server)), sql]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, f"{command[0]} failed: {done.stderr}"
    return done.stdout.strip()


def database_file(server: Server) -> pathlib.Path:
    candidates = sorted(server.data.glob("*.db")) + sorted(server.data.glob("*.sqlite"))
    assert candidates, f"no SQLite database in {server.data}: {list(server.data.iterdir())}"
    return candidates[0]


def check_store(server: Server) -> None:
    for what, sql in STORE_QUERIES.items():
        count = store_query(server, sql)
        assert count == "0", f"{count} {what}"
    if not server.store:
        assert store_query(server, "PRAGMA integrity_check") == "ok"
        assert store_query(server, "PRAGMA foreign_key_check") == ""


def check_clean_start(server: Server) -> None:
    bad = [line for line in server.log_lines_since_start()
           if re.search(r'"level":"(error|fatal)"|level=error|\berror\b.*migrat|fatal', line, re.IGNORECASE)]
    assert not bad, "errors in the log after the restart:\n" + "\n".join(bad[:10])


def run(cycles: int, store: str | None, seconds: tuple[float, float], workers: int, seed: int) -> None:
    rng = random.Random(seed)
    label = "PostgreSQL" if store else "SQLite"
    with tempfile.TemporaryDirectory(prefix="sesame-crash-") as directory:
        server = Server(pathlib.Path(directory), store=store,
                        serve_args=["--rate-limit-per-ip", "0", "--log-level", "warn"])
        ids = server.ids
        ledger = Ledger()
        try:
            server.start()
            setup = Client(server, ids, "")
            setup.admin = management_token(setup, ids)
            enable_android(setup)
            for cycle in range(1, cycles + 1):
                stop = threading.Event()
                threads = [Worker(f"w{cycle}x{i}", Client(server, ids, setup.admin), ledger, stop, rng.random())
                           for i in range(workers)]
                for thread in threads:
                    thread.start()
                delay = rng.uniform(*seconds)
                stop.wait(delay)
                server.kill()
                stop.set()
                for thread in threads:
                    thread.join(timeout=TIMEOUT + 5)
                    assert not thread.is_alive(), f"{thread.name} hung"
                failures = [t.failure for t in threads if t.failure]
                assert not failures, failures
                restart = server.start()
                check_clean_start(server)
                check = Client(server, ids, "")
                check.admin = management_token(check, ids)
                users = check_users(check, ledger, server)
                chains = check_chains(check, ledger)
                writes = check_metadata(check, ledger)
                check_store(server)
                log(f"{label} cycle {cycle}/{cycles}: killed after {delay:.2f} s, back in {restart * 1000:.0f} ms; "
                    f"{users}; {chains}; metadata users {writes}")
            log(f"{label} totals acknowledged before the kills: {dict(sorted(ledger.counts.items()))}")
            status = server.stop()
            assert status == 0, f"sesame serve exited {status} after SIGTERM:\n{server.tail()}"
            check_store(server)
        except BaseException:
            log(f"server log tail:\n{server.tail()}")
            raise
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cycles", type=int, default=3)
    parser.add_argument("--store", default=None, help="a postgres:// URI (default: SQLite in a directory)")
    parser.add_argument("--seconds-min", type=float, default=0.8)
    parser.add_argument("--seconds-max", type=float, default=2.5)
    parser.add_argument("--workers", type=int, default=6)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("RELIABILITY_SEED", time.time_ns() % 100000)))
    arguments = parser.parse_args()
    log(f"crash test: {arguments.cycles} kills, store {'PostgreSQL' if arguments.store else 'SQLite'}, "
        f"seed {arguments.seed}")
    run(arguments.cycles, arguments.store, (arguments.seconds_min, arguments.seconds_max), arguments.workers,
        arguments.seed)


if __name__ == "__main__":
    main()
