/// The help texts `sesame help` and `--help` print.
enum Usage {
    static let main = """
        usage: sesame <command> [options]

        Sesame: a self-hosted passkey identity server, and developer tools for WebAuthn responses.

        commands:
          serve                       run the server (initialises an empty data directory first)
          init                        create the first tenant in a data directory
          inspect [FILE|-]            show what a credential response, attestation object,
                                      authenticator data or clientDataJSON contains
          verify registration FILE    verify a registration response like a relying party
          verify authentication FILE  verify an authentication response against a stored key
          help [COMMAND]              show help for a command

        Exit status: 0 success, 1 invalid input or failed verification, 2 bad arguments.
        Run 'sesame <command> --help' for a command's options.

        """

    static let inspect = """
        usage: sesame inspect [--json] [--at ISO8601] [FILE|-]

        Reads FILE (or standard input when FILE is '-' or absent) and prints a breakdown of it.
        The input may be:
          - a PublicKeyCredential in WebAuthn JSON form (registration or authentication response),
          - a bare base64url attestationObject, authenticatorData or clientDataJSON.
        For a registration response the attestation statement is checked with a permissive policy
        (no trust anchors, no SafetyNet freshness or CTS rules); the result is reported, not enforced.

        options:
          --json          print the breakdown as JSON (snake_case keys)
          --at ISO8601    the time certificates are checked at (default: now)
          -h, --help      show this help

        Exit status: 0 the input was parsed, 1 it could not be parsed, 2 bad arguments.

        """

    static let verify = """
        usage: sesame verify registration [options] FILE
               sesame verify authentication [options] FILE

        Verifies a WebAuthn response the way a relying party does. On success prints a JSON
        summary and exits 0; on failure prints {"error": ..., "check": ...} and exits 1.
        Run 'sesame verify registration --help' or 'sesame verify authentication --help'.

        """

    static let verifyRegistration = """
        usage: sesame verify registration --rp-id ID --origin ORIGIN [--origin ORIGIN ...]
                 --challenge B64URL [--require-uv] [--at ISO8601] [--alg NAME ...] FILE|-

        Verifies a registration response (navigator.credentials.create() in WebAuthn JSON form).

        options:
          --rp-id ID          the relying party ID, e.g. example.com (required)
          --origin ORIGIN     an accepted origin; repeat for several (at least one required)
          --challenge B64URL  the challenge that was issued, base64url (required)
          --require-uv        require the user-verified (UV) flag
          --at ISO8601        the time certificates are checked at (default: now)
          --alg NAME          accept only these credential algorithms (ES256, EdDSA, RS256, ...);
                              repeat for several (default: every algorithm the core supports)
          -h, --help          show this help

        On success prints credential_id, public_key (COSE, base64url), sign_count, fmt,
        attestation_type, aaguid, backup_eligible and backup_state as JSON and exits 0.
        On failure prints {"error": MESSAGE, "check": CODE} and exits 1.

        """

    static let verifyAuthentication = """
        usage: sesame verify authentication --rp-id ID --origin ORIGIN [--origin ORIGIN ...]
                 --challenge B64URL --public-key COSE_B64URL --sign-count N [--require-uv]
                 [--alg NAME ...] FILE|-

        Verifies an authentication response (navigator.credentials.get() in WebAuthn JSON form)
        against the credential's stored public key and signature counter.

        options:
          --rp-id ID                the relying party ID (required)
          --origin ORIGIN           an accepted origin; repeat for several (at least one required)
          --challenge B64URL        the challenge that was issued, base64url (required)
          --public-key COSE_B64URL  the stored credential public key, a COSE_Key in base64url (required)
          --sign-count N            the stored signature counter, 0 to 4294967295 (required)
          --require-uv              require the user-verified (UV) flag
          --alg NAME                accept only stored keys with these algorithms; repeat for several
          -h, --help                show this help

        On success prints credential_id, the new sign_count, user_present, user_verified,
        backup_eligible and backup_state as JSON and exits 0.
        On failure prints {"error": MESSAGE, "check": CODE} and exits 1.

        """

    static let serve = """
        usage: sesame serve [options]

        Serves the native passkey API, OAuth/OIDC, well-known files, and the Management and My Account
        APIs from the SQLite store in --data. An empty data directory is initialised first (see
        'sesame init'); the ids and the management secret are printed once.

        options (each also read from the environment variable shown):
          --data DIR                 data directory (SESAME_DATA, default ./data)
          --listen HOST:PORT         address to listen on (SESAME_LISTEN, default 127.0.0.1:8080)
          --public-url URL           the URL clients use (SESAME_PUBLIC_URL, default http://localhost:PORT);
                                     only used when initialising
          --threads N                HTTP worker threads (SESAME_THREADS, default: the number of cores)
          --log-level LEVEL          debug, info, warn or error (SESAME_LOG_LEVEL, default info)
          --tls-cert FILE            serve HTTPS with this PEM certificate (SESAME_TLS_CERT)
          --tls-key FILE             and this PEM private key (SESAME_TLS_KEY)
          --trusted-proxy ADDR       trust X-Forwarded-* from this IP or CIDR; repeatable
                                     (SESAME_TRUSTED_PROXIES, comma-separated)
          --rate-limit-per-ip N      challenge requests per client IP per minute; 0 turns it off
                                     (SESAME_RATE_LIMIT_PER_IP, default 600)
          --max-body-bytes N         largest request body (SESAME_MAX_BODY_BYTES, default 65536)
          --connections-per-ip N     concurrent connections per client IP (SESAME_CONNECTIONS_PER_IP, default 64)
          --connection-timeout S     idle connection timeout in seconds (SESAME_CONNECTION_TIMEOUT, default 30)
        The master key that seals signing keys is SESAME_MASTER_KEY (64 hex digits) or DIR/master.key.
        SIGTERM or SIGINT stops the server gracefully.

        """

    static let initialise = """
        usage: sesame init --public-url URL [--data DIR] [--json]

        Creates the first tenant in DIR (SESAME_DATA, default ./data): its domain and RP ID are the
        public URL's host, and its allowed origin the URL's origin. Also creates the default
        connection (passkeys enabled), a native client (webauthn, refresh_token and
        authorization_code grants) and a management client, and prints their ids and the management
        client's secret, once. --json prints exactly {"tenant", "rp_id", "connection", "client_id",
        "management_client_id", "management_client_secret"}. An initialised DIR is refused (exit 2).

        """
}
