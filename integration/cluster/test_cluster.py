"""Many processes for real (issue 9): two `sesame serve` on one PostgreSQL, nginx round-robin."""

from __future__ import annotations

import concurrent.futures
import threading

from android_client import (
    FAKE_SIGNING_CERTIFICATE_DER,
    PACKAGE_NAME,
    AndroidApp,
    AndroidPasskeyProvider,
    SesameHTTP,
    colon_fingerprint,
)


def management_token(cluster, http: SesameHTTP) -> str:
    return http.expect(
        200, "POST", "/oauth/token",
        {
            "grant_type": "client_credentials", "client_id": cluster.ids["management_client_id"],
            "client_secret": cluster.ids["management_client_secret"], "audience": f"{cluster.public_url}/api/v2/",
        },
    )["access_token"]


def enable_android(cluster) -> None:
    http = SesameHTTP(cluster.urls[0])
    body = {"mobile": {"android": {"app_package_name": PACKAGE_NAME,
                                   "sha256_cert_fingerprints": [colon_fingerprint(FAKE_SIGNING_CERTIFICATE_DER)]}}}
    http.expect(200, "PATCH", f"/api/v2/clients/{cluster.ids['client_id']}", body, token=management_token(cluster, http))


def test_challenges_taken_at_one_process_are_redeemed_at_the_other(cluster):
    enable_android(cluster)
    a, b = SesameHTTP(cluster.urls[0]), SesameHTTP(cluster.urls[1])
    provider = AndroidPasskeyProvider()
    at_a, at_b = AndroidApp(a, cluster.ids["client_id"], provider), AndroidApp(b, cluster.ids["client_id"], provider)
    challenge = at_a.signup_challenge("cross@example.com")
    credential = provider.create(challenge["authn_params_public_key"])
    signup = b.expect(200, "POST", "/oauth/token", at_b.token_request(challenge, credential))
    assert signup["refresh_token"], signup
    login = at_b.login_challenge()
    assertion = provider.get(login["authn_params_public_key"])
    tokens = a.expect(200, "POST", "/oauth/token", at_a.token_request(login, assertion))
    assert tokens["access_token"]
    # Single use across processes.
    status, error = b.request("POST", "/oauth/token", at_b.token_request(login, assertion))
    assert status == 400 and error["error"] == "invalid_grant", error


def test_one_refresh_token_sent_to_both_processes_at_once_succeeds_once(cluster):
    enable_android(cluster)
    a, b = SesameHTTP(cluster.urls[0]), SesameHTTP(cluster.urls[1])
    app = AndroidApp(a, cluster.ids["client_id"], AndroidPasskeyProvider())
    _, tokens = app.signup("race@example.com")
    body = {"grant_type": "refresh_token", "client_id": cluster.ids["client_id"],
            "refresh_token": tokens["refresh_token"]}
    barrier = threading.Barrier(2)

    def renew(http: SesameHTTP):
        local = SesameHTTP(http.base_url)  # a session per thread
        barrier.wait()
        return local.request("POST", "/oauth/token", body)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(renew, [a, b]))
    statuses = sorted(status for status, _ in results)
    assert statuses == [200, 400], results
    successor = next(payload for status, payload in results if status == 200)["refresh_token"]
    # The loser presented a spent token: the family is revoked, the winner's successor too.
    status, _ = b.request("POST", "/oauth/token", {**body, "refresh_token": successor})
    assert status == 400


def test_a_management_change_at_one_process_shows_at_the_other_on_its_next_request(cluster):
    a, b = SesameHTTP(cluster.urls[0]), SesameHTTP(cluster.urls[1])
    before = b.expect(200, "GET", "/.well-known/apple-app-site-association")
    b.expect(200, "POST", "/passkey/challenge", {"client_id": cluster.ids["client_id"]})  # cached at B
    token = management_token(cluster, a)
    a.expect(200, "PATCH", f"/api/v2/clients/{cluster.ids['client_id']}",
             {"mobile": {"ios": {"team_id": "ABCDE12345", "app_bundle_identifier": "com.example.app"}}}, token=token)
    after = b.expect(200, "GET", "/.well-known/apple-app-site-association")
    assert "ABCDE12345.com.example.app" in after["webcredentials"]["apps"], (before, after)
    a.expect(200, "PATCH", f"/api/v2/clients/{cluster.ids['client_id']}",
             {"grant_types": ["refresh_token"]}, token=token)
    status, error = b.request("POST", "/passkey/challenge", {"client_id": cluster.ids["client_id"]})
    assert status == 403, error
    a.expect(200, "PATCH", f"/api/v2/clients/{cluster.ids['client_id']}",
             {"grant_types": ["urn:okta:params:oauth:grant-type:webauthn", "refresh_token"]}, token=token)


def test_kill_9_during_a_signup_load_loses_no_answered_signup(cluster):
    enable_android(cluster)
    front = cluster.public_url
    answered: list[str] = []
    lock = threading.Lock()
    enough = threading.Event()

    def signup(index: int):
        http = SesameHTTP(front)
        app = AndroidApp(http, cluster.ids["client_id"], AndroidPasskeyProvider())
        try:
            challenge = app.signup_challenge(f"load{index}@example.com")
            credential = app.provider.create(challenge["authn_params_public_key"])
            status, tokens = http.request("POST", "/oauth/token", app.token_request(challenge, credential))
        except Exception:  # a connection cut by the kill: not answered
            return
        if status == 200:
            with lock:
                answered.append(tokens["access_token"])
                if len(answered) >= 20:
                    enough.set()

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(signup, index) for index in range(300)]
        assert enough.wait(60), "the load did not start"
        cluster.kill(0)
        pending_at_kill = sum(not future.done() for future in futures)
        concurrent.futures.wait(futures)
    # The kill came in the middle of the load, and the survivor went on answering.
    assert pending_at_kill > 100, pending_at_kill
    assert len(answered) > 100, f"only {len(answered)} signups were answered"

    survivor = SesameHTTP(cluster.urls[1])
    token = management_token(cluster, survivor)
    import jwt  # PyJWT, from the interop venv

    for access_token in answered:
        subject = jwt.decode(access_token, options={"verify_signature": False})["sub"]
        methods = survivor.expect(200, "GET", f"/api/v2/users/{subject}/authentication-methods", token=token)
        assert len(methods) == 1, (subject, methods)
    # No user was left without its passkey (user and passkey are one transaction).
    page = 0
    while True:
        users = survivor.expect(200, "GET", f"/api/v2/users?per_page=100&page={page}", token=token)
        for user in users:
            methods = survivor.expect(
                200, "GET", f"/api/v2/users/{user['user_id']}/authentication-methods", token=token)
            assert methods, user
        if len(users) < 100:
            break
        page += 1
    cluster.start_process(0)


def test_a_database_restart_gives_503_then_the_processes_recover_by_themselves(cluster):
    import pathlib
    import subprocess

    script = pathlib.Path(__file__).resolve().parent.parent.parent / "scripts" / "postgres.sh"
    a = SesameHTTP(cluster.urls[1])
    a.expect(200, "POST", "/passkey/challenge", {"client_id": cluster.ids["client_id"]})
    subprocess.run([str(script), "pause"], check=True, timeout=60)
    try:
        status, error = a.request("POST", "/passkey/challenge", {"client_id": cluster.ids["client_id"]})
        assert status == 503 and error["error"] == "temporarily_unavailable", (status, error)
    finally:
        subprocess.run([str(script), "resume"], check=True, timeout=60)
    # Pooled connections broke with the restart; the next request works without a process restart.
    for http in (a, SesameHTTP(cluster.urls[0])):
        http.expect(200, "POST", "/passkey/challenge", {"client_id": cluster.ids["client_id"]})
