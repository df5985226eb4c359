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
          signup                      create an account with a new passkey (software authenticator),
                                      or with a password (--password)
          login                       sign in with the passkey this CLI holds, or a password
          token show|refresh|revoke   show, renew or revoke the saved tokens
          passkeys list|rename|delete manage the account's passkeys (My Account API)
          api create|list             register or list your backend APIs (Management API)
          mfa enroll|list             enroll or list second factors of a password account
          upgrade strong-password|apple|passkey
                                      move a password account to a strong password, Sign in
                                      with Apple or a passkey (account security upgrades)
          outbox                      print the messages the server kept (reset links, codes)
          logs                        print the audit log from the store, newest first
          stats                       the passkey adoption statistics, day by day (Management API)
          demo migration              fill a data directory with a year of a device-key-to-passkey move
          store copy                  move a SQLite deployment to PostgreSQL
          admin setup-link|list       a new link that makes an administrator, or list them
          mds import FILE --root PEM  verify a FIDO metadata BLOB offline and store its entries
          password-rules check RULES [PASSWORD]
                                      read a password-rules string as Apple's parser does,
                                      and check a password against it
          help [COMMAND]              show help for a command

        Exit status: 0 success, 1 invalid input or failed verification, 2 bad arguments.
        Run 'sesame <command> --help' for a command's options.

        """

    static let store = """
        usage: sesame store copy --from DIR --to postgres://…

        Copies the SQLite store in DIR (DIR/sesame.db) into an empty PostgreSQL database: every
        tenant with its clients, connections, APIs, signing keys, users (with their passwords and
        second factors), passkeys, refresh tokens and auth events, then counts each kind in both
        and fails if they differ. What is short-lived stays behind: pending ceremonies, reset
        tickets and mfa tokens, attempt counters and the outbox. A target holding any tenant is refused. Stop the SQLite server first,
        and serve the copy with the same master key (SESAME_MASTER_KEY or DIR/master.key).

        The imported FIDO metadata (sesame mds import) is copied first, in one transaction. A target
        that already holds a newer metadata BLOB is refused before anything is copied, as an import
        of an older BLOB would be.

        Exit status: 0 copied and verified, 1 a store failed or the counts differ, 2 bad arguments,
        5 the target's metadata BLOB is newer than the source's.

        """

    static let admin = """
        usage: sesame admin setup-link [--data DIR | --store URI] [--tenant ID]
               sesame admin list [--data DIR | --store URI] [--tenant ID]

        setup-link prints a new link to the admin page's setup. Whoever opens it within 7 days,
        signed in, becomes an administrator of the tenant; it works once. Unspent links made
        before stop working. Use it when the first link was lost or has expired, or to add
        another administrator. list prints each administrator's user id, email and name.

        Both read the store directly (no server, no token): SQLite in DIR (--data, SESAME_DATA,
        default ./data) or --store / SESAME_STORE. --tenant is needed when the store holds
        several tenants.

        Exit status: 0 done, 1 the store failed, 2 bad arguments.

        """

    static let logs = """
        usage: sesame logs [--data DIR | --store URI] [--tenant ID] [--type CODE]... [--user ID]
                           [--take N] [--json]

        Prints the audit log, newest first, read from the store directly (no server, no token).
        The store is SQLite in DIR (--data, SESAME_DATA, default ./data) or --store / SESAME_STORE.
        --tenant is needed when the store holds several tenants. --type keeps entries of that code
        (repeat it for several), --user one user's. --take prints at most N entries (1 to 1000,
        default 50). Each line is the date, the type, the user, the client, the address and the
        description; --json prints each entry as one JSON line instead (the file sink's lines,
        with tenant_id). See docs/audit-log.md.

        Exit status: 0 listed, 1 the store failed, 2 bad arguments.

        """

    static let mds = """
        usage: sesame mds import FILE --root ROOT.pem [--data DIR | --store URI] [--force]

        Verifies FILE, a FIDO Metadata Service v3 BLOB you downloaded yourself, offline: the JWS
        signature by the leaf of its x5c chain, that chain to the FIDO root certificate in
        ROOT.pem at the current time, and every entry, strictly and within bounds. Then it
        replaces the stored metadata with the BLOB's FIDO2 and U2F entries in one transaction.
        The BLOB's serial number (no) must be greater than the stored one's; --force imports an
        older or equal one (still verified). A BLOB past its nextUpdate is imported with a warning.
        The store is SQLite in DIR (--data, SESAME_DATA, default ./data) or --store / SESAME_STORE.
        See docs/mds.md.

        Exit status: 0 imported, 1 the store failed, 2 bad arguments, 3 a file cannot be read,
        4 the BLOB or root was refused, 5 a rollback refused (use --force to override).

        """

    static let passwordRules = """
        usage: sesame password-rules check RULES [PASSWORD]

        Reads RULES (Apple's password-rules syntax, e.g. "minlength: 12; required: lower;
        required: upper; required: digit; allowed: ascii-printable;") exactly as Apple's reference
        parser does, and prints its canonical form and every problem with its position (in UTF-16
        code units). With PASSWORD, prints one line per rule: pass or FAIL. The password is taken
        as given: not trimmed, not normalised. This is a tool for rules; do not type a real
        password here, since it lands in your shell's history.

        Exit status: 0 the rules are clean (and the password passes), 1 a problem in the rules or
        a rule the password fails, 2 bad arguments.

        """

    static let api = """
        usage: sesame api create --server URL --identifier AUDIENCE [--name NAME]
                                 [--scope VALUE[=DESCRIPTION]]... [--signing-alg ALG]
                                 [--token-lifetime SECONDS] [--allow-offline-access] [--json]
               sesame api list --server URL [--json]

        Registers (or lists) an app's own backend API on a running server: access tokens asked for
        with `audience: AUDIENCE` carry it as `aud` and only the scopes listed here. It uses the
        Management API with the management client that 'sesame init' printed.

        options:
          --server URL               the server, e.g. http://localhost:8080 (SESAME_SERVER)
          --identifier AUDIENCE      the API's identifier, usually its URL, e.g. https://api.example.com/
          --name NAME                a name for people (default: the identifier)
          --scope VALUE[=TEXT]       a scope the API defines, e.g. read:orders=Read your orders; repeatable
          --signing-alg ALG          RS256, ES256 or EdDSA for its access tokens (default RS256)
          --token-lifetime SECONDS   access token lifetime, 60 to 2592000 (default 86400)
          --allow-offline-access     logins for this API may also get refresh tokens
          --client-id ID             the management client (SESAME_MANAGEMENT_CLIENT_ID)
          --client-secret-file FILE  a file holding its secret (or SESAME_MANAGEMENT_CLIENT_SECRET)
          --json                     print the server's JSON answer
          -h, --help                 show this help

        Exit status: 0 success, 1 the server refused or could not be reached, 2 bad arguments.

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
        APIs from the SQLite store in --data, or from PostgreSQL with --store. An empty store is
        initialised first (see 'sesame init'); the ids and the management secret are printed once.

        options (each also read from the environment variable shown):
          --data DIR                 data directory (SESAME_DATA, default ./data)
          --store URI                PostgreSQL instead of SQLite: a libpq URI, e.g.
                                     postgres://sesame@db.internal/sesame?sslmode=verify-full
                                     (SESAME_STORE); several processes may serve one database, each
                                     with the same master key (SESAME_MASTER_KEY or DIR/master.key)
          --listen HOST:PORT         address to listen on (SESAME_LISTEN, default 127.0.0.1:8080)
          --public-url URL           the URL clients use (SESAME_PUBLIC_URL, default http://localhost:PORT);
                                     only used when initialising
          --threads N                HTTP worker threads (SESAME_THREADS, default: the number of cores)
          --log-level LEVEL          debug, info, warn or error (SESAME_LOG_LEVEL, default info)
          --tls-cert FILE            serve HTTPS with this PEM certificate (SESAME_TLS_CERT)
          --tls-key FILE             and this PEM private key (SESAME_TLS_KEY)
          --trusted-proxy ADDR       trust X-Forwarded-* from this IP or CIDR; repeatable
                                     (SESAME_TRUSTED_PROXIES, comma-separated)
          --rate-limit-per-ip N      requests per client address (an IPv4 address or an IPv6 /64) per minute
                                     to each group of public routes: ceremonies, the token endpoint, pages;
                                     0 turns it off (SESAME_RATE_LIMIT_PER_IP, default 600)
          --max-body-bytes N         largest request body (SESAME_MAX_BODY_BYTES, default 65536)
          --connections-per-ip N     concurrent connections per client IP (SESAME_CONNECTIONS_PER_IP, default 64)
          --connection-timeout S     idle connection timeout in seconds (SESAME_CONNECTION_TIMEOUT, default 30)
          --request-timeout S        a whole request (line, headers, body) must arrive within S seconds of the
                                     connection opening or the previous response; 0 = no deadline
                                     (SESAME_REQUEST_TIMEOUT, default 15)
          --max-connections N        concurrent connections in all (SESAME_MAX_CONNECTIONS, default 1024)
          --reserved-connections N   the last N free slots go only to addresses holding fewer than 2
                                     connections (SESAME_RESERVED_CONNECTIONS, default max/8); trusted
                                     proxies are exempt
          --max-queue-wait MS        a request that waited longer than MS milliseconds for a worker thread is
                                     answered 503 temporarily_unavailable with Retry-After, unhandled (load
                                     shedding); 0 = never (SESAME_MAX_QUEUE_WAIT, default 500)
          --pending-ceremonies-per-ip N
                                     passkey challenges one client address may hold unredeemed
                                     (SESAME_PENDING_CEREMONIES_PER_IP, default 200)
          --require-dpop-nonce       every DPoP proof must carry the server's DPoP-Nonce (RFC 9449 §8)
                                     (SESAME_REQUIRE_DPOP_NONCE=true)
          --metrics-listen HOST:PORT serve /metrics and /healthz on this separate address, with no token
                                     (SESAME_METRICS_LISTEN); keep it private (loopback or an internal network)
          --metrics-token-file FILE  serve /metrics on the API address too, to Authorization: Bearer <the
                                     file's token> (or the token in SESAME_METRICS_TOKEN); at least 16 characters
        Without either, /metrics is not served.
          --messages-webhook URL     send emails and SMS as signed JSON POSTs to URL (SESAME_MESSAGES_WEBHOOK);
                                     without it they are kept in the outbox (GET /api/v2/outbox, sesame outbox)
          --messages-webhook-secret-file FILE
                                     the HMAC-SHA256 key for the Sesame-Signature header, at least 16
                                     characters (or SESAME_MESSAGES_WEBHOOK_SECRET); a second line holds
                                     the previous key during a rotation
          --audit-log-file PATH      also append the audit log to PATH as JSON lines, fsynced each batch;
                                     SIGHUP reopens it (SESAME_AUDIT_LOG_FILE; docs/audit-log.md)
          --audit-log-webhook URL    also POST the audit log to URL in batches of JSON lines (application/x-ndjson),
                                     retried with backoff; https, or http to a loopback address
                                     (SESAME_AUDIT_LOG_WEBHOOK)
          --audit-log-webhook-token-file FILE
                                     send the file's token as Authorization: Bearer to the audit-log webhook
                                     (or SESAME_AUDIT_LOG_WEBHOOK_TOKEN)
          --audit-log-webhook-secret-file FILE
                                     sign each audit-log POST with the file's secret, 16 to 4096 bytes
                                     (Sesame-Signature, HMAC-SHA256; or SESAME_AUDIT_LOG_WEBHOOK_SECRET);
                                     a second line holds the previous secret during a rotation
        The master key that seals signing keys is SESAME_MASTER_KEY (64 hex digits) or DIR/master.key.
        SIGTERM or SIGINT stops the server gracefully.

        """

    static let initialise = """
        usage: sesame init --public-url URL [--data DIR] [--store URI] [--json]

        Creates the first tenant in DIR (SESAME_DATA, default ./data), or in the PostgreSQL database
        --store names (SESAME_STORE, a postgres:// URI; the master key still comes from
        SESAME_MASTER_KEY or DIR/master.key): its domain and RP ID are the public URL's host, and its
        allowed origin the URL's origin. Also creates the default connection (passkeys enabled), a
        native client (webauthn and refresh_token grants) and a management client, and prints their
        ids and the management client's secret, once. --json prints {"tenant", "rp_id",
        "connection", "client_id", "management_client_id", "management_client_secret",
        "admin_setup_url"}; admin_setup_url is the one-time link that makes the first administrator.
        An initialised store is refused (exit 2).

        """
}

// The client commands (`ClientCommands`).
extension Usage {
    static let signup = """
        usage: sesame signup --server URL --client-id ID --email EMAIL [--name NAME] [--origin ORIGIN] [--json]
               sesame signup --password|--password-stdin --server URL --client-id ID --email EMAIL
                             [--name NAME] [--connection NAME] [--json]

        Creates an account on a Sesame server with a new passkey held by this CLI's software
        authenticator, then saves the server, the client id and the tokens (with a refresh token)
        under $XDG_CONFIG_HOME/sesame (default ~/.config/sesame). With --password, the account gets
        a password instead (asked twice at the terminal, without echo), and the CLI signs in with it;
        when the server asks for a second factor, the code is asked for too.

        options:
          --server URL       the server's public URL, e.g. http://localhost:8080 (required)
          --client-id ID     a native client of the tenant (required)
          --email EMAIL      the new account's email (required)
          --name NAME        the account's display name
          --origin ORIGIN    the origin the authenticator reports (default: the server's origin)
          --password         a password account; the password is read from the terminal, never argv
          --password-stdin   the same, with the password as the first line of standard input (and any
                             second-factor code as the next line)
          --connection NAME  the password connection (default Username-Password-Authentication)
          --json             print the result as JSON
          -h, --help         show this help

        Exit status: 0 signed up, 1 the server refused (its error_description is shown) or cannot be
        reached, 2 bad arguments.

        """

    static let login = """
        usage: sesame login [--server URL] [--client-id ID] [--origin ORIGIN] [--json]
               sesame login --password|--password-stdin [--email EMAIL] [--connection NAME]
                            [--server URL] [--client-id ID] [--json]
               sesame login --apple-identity-token FILE [--nonce RAW] [--server URL] [--client-id ID] [--json]

        Signs in with the newest passkey this CLI holds for the server and saves the tokens.
        --server and --client-id default to the saved ones (from the last signup or login).
        With --password, signs in with the account's password instead (read without echo, or as a
        line of standard input with --password-stdin), then with a second factor when the server
        asks for one: the authenticator app's code, or the code sent by SMS. An account that must
        enroll a factor first enrolls an authenticator app on the spot (the otpauth:// URI is shown).
        With --apple-identity-token, signs in with an Apple identity token (an account upgraded to
        Sign in with Apple): the token-exchange grant, with --nonce the raw nonce of the token.

        options:
          --server URL       the server's public URL
          --client-id ID     a native client of the tenant
          --origin ORIGIN    the origin the authenticator reports (default: saved, else the server's origin)
          --password         sign in with a password read from the terminal
          --password-stdin   ... read as the first line of standard input (codes on the next lines)
          --email EMAIL      the account (default: the saved one)
          --connection NAME  the password connection (default Username-Password-Authentication)
          --apple-identity-token FILE
                             sign in with the Apple identity token in FILE (- for standard input)
          --nonce RAW        the raw nonce whose SHA-256 the identity token's nonce claim holds
          --json             print the result as JSON
          -h, --help         show this help

        Exit status: 0 signed in, 1 the server refused or cannot be reached, 2 bad arguments.

        """

    static let mfa = """
        usage: sesame mfa enroll otp [--email EMAIL] [--password-stdin] [--connection NAME] [--json]
               sesame mfa enroll sms --phone +E164 [--email EMAIL] [--password-stdin] [--connection NAME]
               sesame mfa list [--email EMAIL] [--password-stdin] [--connection NAME] [--json]

        Manages the second factors of the saved server's password account. Each signs in with the
        password first (read without echo, or as a line of standard input), answering the current
        second factor when there is one, for a token of the MFA API.

        enroll otp  prints the secret and the otpauth:// URI to add to an authenticator app (turn it
                    into a QR code with, e.g., qrencode -t ansiutf8), and the recovery code on the
                    first enrollment; then asks for the app's first code, which turns the factor on
        enroll sms  sends a code to --phone and asks for it
        list        prints each factor: id, type, whether it is active

        Exit status: 0 done, 1 the server refused or cannot be reached, 2 bad arguments.

        """

    static let upgrade = """
        usage: sesame upgrade strong-password [--new-password-file FILE] [AUTHORIZE] [--json]
               sesame upgrade apple --identity-token FILE --nonce RAW [--authorization-code CODE]
                                    [AUTHORIZE] [--json]
               sesame upgrade passkey [AUTHORIZE] [--json]
        AUTHORIZE: [--server URL] [--client-id ID]
                   [--username EMAIL --password-file FILE [--connection NAME]]
                   [--otp CODE] [--code-stdin]

        Upgrades a password account (a breached or weak password): to a strong password, to Sign
        in with Apple, or to a passkey made by this CLI's software authenticator. The password
        stops working for the last two. The upgrade is authorized with the saved session (from
        'sesame login --password'), or with the account's current password (--password-file,
        the system-initiated form). When the server asks for a step-up, the authenticator app's
        code is --otp or typed; an SMS code is sent and typed (or read from standard input with
        --code-stdin).

        strong-password  the password in --new-password-file, else one generated to the rules of
                         the account's connection (printed once)
        apple            links the Apple ID of the identity token in FILE; RAW is the nonce before
                         hashing (the token's nonce claim is its hex SHA-256)
        passkey          creates a passkey in this CLI's key store; 'sesame login' uses it

        options:
          --server URL             the server (default: the saved one)
          --client-id ID           a native client of the tenant (default: the saved one)
          --username EMAIL         the account, with --password-file (default: the saved email)
          --password-file FILE     its current password, the first line of FILE (- for standard input)
          --connection NAME        its connection (default Username-Password-Authentication)
          --otp CODE               the authenticator app's code, for a step-up
          --code-stdin             read step-up codes from standard input instead of the terminal
          --new-password-file FILE the new password, the first line of FILE (- for standard input)
          --identity-token FILE    the Apple identity token (- for standard input)
          --nonce RAW              its raw nonce
          --authorization-code CODE  Apple's authorization code, sent along
          --json                   print the result as JSON

        Exit status: 0 upgraded, 1 the server refused or cannot be reached, 2 bad arguments.

        """

    static let outbox = """
        usage: sesame outbox --server URL [--to ADDRESS] [--client-id ID] [--client-secret-file FILE] [--json]

        Prints the messages (reset links, SMS codes) the server kept in its outbox, newest first,
        through the Management API (GET /api/v2/outbox, scope read:outbox), with the management
        client 'sesame init' printed: --client-id or SESAME_MANAGEMENT_CLIENT_ID, and its secret in
        --client-secret-file or SESAME_MANAGEMENT_CLIENT_SECRET. The outbox is the default sender;
        a server started with --messages-webhook sends instead and keeps nothing.

        Exit status: 0 printed, 1 the server refused or cannot be reached, 2 bad arguments.

        """

    static let demo = """
        usage: sesame demo migration [--data DIR] [--store URI] [--users N] [--days D] [--seed S]
                                     [--public-url URL]

        Fills an empty data directory (initialising it when needed; default ./data, or the store
        --store names) with a simulated move from legacy device keys to passkeys: N users (default
        1000; iOS and Android apps with device keys, web users with passwords) over D days up to
        today (default 365, at most 366). Every day each user signs in with some probability; after
        a device-key re-authentication on a device that can have passkeys (the connection's
        minimum OS versions; some devices are updated during the year) some create a passkey, which
        migrates their key. The same seed (--seed, default 1) gives the same year. Then serve it
        with the 'sesame serve' command it prints, and open /admin/adoption, or run 'sesame stats'.

        --public-url (SESAME_PUBLIC_URL) defaults to http://localhost:8090, so that the demo can be
        served beside 'make run' on 8080. Both then have the RP ID localhost: the browser offers the
        passkeys of one on the other, and its cookies are per host, not per port. Use a separate
        browser profile for the demo.

        Exit status: 0 written, 1 the store failed, 2 bad arguments or a directory that has users.

        """

    static let stats = """
        usage: sesame stats --server URL [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--client CLIENT_ID]
                            [--connection NAME] [--client-id ID] [--client-secret-file FILE] [--json | --csv]

        Prints the adoption statistics (GET /api/v2/stats/authentications, scope read:stats): for
        each UTC day the successful authentications by method and the passkey share of device
        authentications (passkey / (passkey + device key)) with a bar, then how the users sign in.
        Without --from, the 30 days up to --to (default today); at most 366 days. --client and
        --connection narrow it to one application or connection. --json prints the server's JSON,
        --csv its CSV. The management client is --client-id or SESAME_MANAGEMENT_CLIENT_ID, its
        secret in --client-secret-file or SESAME_MANAGEMENT_CLIENT_SECRET.

        Exit status: 0 printed, 1 the server refused or cannot be reached, 2 bad arguments.

        """

    static let token = """
        usage: sesame token show [--json]
               sesame token refresh [--json]
               sesame token revoke [--json]

        show     prints who is signed in and the access token's expiry and scope (--json prints the
                 access token itself); reads only the saved state
        refresh  renews the access token with the refresh token; the server rotates the refresh
                 token and the new one is saved
        revoke   revokes the saved refresh tokens at the server and removes the saved credentials
                 (the passkey stays: 'sesame login' signs in again)

        Exit status: 0 success, 1 not signed in, the server refused or cannot be reached, 2 bad arguments.

        """

    static let passkeys = """
        usage: sesame passkeys list [--json]
               sesame passkeys rename ID NAME [--json]
               sesame passkeys delete ID [--json]

        Manages the signed-in account's passkeys through the My Account API. The first of these
        commands signs in once more with the passkey for a My Account token (audience
        <server>/me/), saved in my-account.json and renewed with its own refresh token.

        list     the passkeys: id, name, created, last used; * marks keys this CLI holds
        rename   gives passkey ID (e.g. passkey|4f1c...) the name NAME (1 to 100 characters)
        delete   deletes passkey ID, and its key in this CLI's key store when it is there; the
                 account's last passkey cannot be deleted

        Exit status: 0 success, 1 not signed in, the server refused or cannot be reached, 2 bad arguments.

        """
}
