"""Times py_webauthn's verify_authentication_response on inputs written by sesame-bench.

Usage: python3 py_webauthn_bench.py INPUTS.json
Prints one line: "<alg> <verifications per second>" per input. Used only by `make bench`.
"""
import json
import sys
import time

from webauthn import verify_authentication_response
from webauthn.helpers import base64url_to_bytes


def rate(body, seconds=0.6, rounds=3):
    best = 0.0
    for _ in range(rounds):
        count = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            for _ in range(50):
                body()
            count += 50
        best = max(best, count / (time.perf_counter() - start))
    return best


def main():
    with open(sys.argv[1]) as handle:
        inputs = json.load(handle)
    for item in inputs:
        public_key = base64url_to_bytes(item["public_key"])
        challenge = base64url_to_bytes(item["challenge"])
        credential = item["credential"]  # the credential JSON as a client sends it (a str)

        def verify():
            verify_authentication_response(
                credential=credential,
                expected_challenge=challenge,
                expected_rp_id=item["rp_id"],
                expected_origin=item["origin"],
                credential_public_key=public_key,
                credential_current_sign_count=0,
                require_user_verification=False,
            )

        verify()
        print(f"{item['alg']} {rate(verify):.0f}", flush=True)


if __name__ == "__main__":
    main()
