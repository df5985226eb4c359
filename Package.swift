// swift-tools-version:6.0
// Sesame: a self-hosted passkey identity server and the Swift kit apps use with it.
// Layout and import rules: docs/ARCHITECTURE.md. No outside Swift package is used.
import PackageDescription

/// C libraries come from Debian through system-library targets (module.modulemap + shim.h).
let systemLibraries: [Target] = [
    .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
    .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
    .systemLibrary(name: "CArgon2", pkgConfig: "libargon2", providers: [.apt(["libargon2-dev"])]),
    .systemLibrary(name: "CCrypt", pkgConfig: "libxcrypt", providers: [.apt(["libcrypt-dev"])]),
    .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
]

let package = Package(
    name: "Sesame",
    // Apple: what the SDK and its adapters need (async/await, URLSession.data(for:), the passkey
    // APIs). tvOS and watchOS are not supported (docs/sdk.md). Linux ignores this list.
    platforms: [.iOS(.v16), .macOS(.v13), .visionOS(.v1)],
    products: [
        .executable(name: "sesame", targets: ["sesame"]),
        .library(name: "WebAuthn", targets: ["WebAuthn"]),
        .library(name: "SesameCrypto", targets: ["SesameCrypto"]),
        .library(name: "SesameWire", targets: ["SesameWire"]),
        .library(name: "SesameClient", targets: ["SesameClient"]),
        .library(name: "SesameSoftwarePasskey", targets: ["SesameSoftwarePasskey"]),
    ],
    targets: systemLibraries + [
        // Wrappers for C macros and variadic functions only; every symbol is prefixed `sesame_`.
        .target(name: "CShims", dependencies: ["COpenSSL"]),

        // Safe Swift over libcrypto, libargon2 and libxcrypt. The only target that imports them.
        .target(name: "SesameCrypto", dependencies: ["COpenSSL", "CArgon2", "CCrypt", "CShims"]),

        // The pure WebAuthn relying-party core: no I/O, no clock, no globals.
        .target(name: "WebAuthn", dependencies: ["SesameCrypto"]),

        // Codable wire types shared by the server and the SDK. Foundation only.
        .target(name: "SesameWire"),

        // Storage: protocols per aggregate and an in-memory implementation (tests); SQLite behind them.
        .target(name: "SesameStore", dependencies: ["SesameWire"]),
        // The store contract in SQL, shared by the SQL backends (SQLite, PostgreSQL).
        .target(name: "SesameSQL", dependencies: ["SesameStore"]),
        .target(name: "SesameSQLite", dependencies: ["SesameStore", "SesameSQL", "CSQLite"]),
        .target(name: "SesamePostgres", dependencies: ["SesameStore", "SesameSQL", "CPostgres"]),
        // Test support shared by the test targets: test stores, a test Sesame, a fake Apple ID service.
        .target(
            name: "SesameTesting",
            dependencies: [
                "SesameStore", "SesameSQLite", "SesamePostgres", "SesameService", "SesameHTTP", "SesameCrypto",
                "SesameSoftwareAuthenticator", "WebAuthn",
            ]),

        // The identity domain: tenants, clients, connections, users, ceremonies, tokens. No HTTP.
        .target(name: "SesameService", dependencies: ["SesameStore", "WebAuthn", "SesameCrypto", "SesameWire"]),

        // QR codes from libqrencode: the CLI's terminal drawing and the hosted pages' SVG.
        .target(name: "SesameQR", dependencies: ["CQRencode"]),

        // libmicrohttpd transport, router, request context, error mapping, handlers, pages.
        .target(
            name: "SesameHTTP",
            dependencies: [
                "SesameService", "SesameWire", "SesameStore", "WebAuthn", "SesameCrypto", "CMicroHTTPD", "SesameQR",
            ],
            // The hosted pages' stylesheet and script, and the OpenAPI document served at
            // /openapi.json, compiled into the binary (no file to deploy).
            resources: [.embedInCode("Pages/Assets"), .embedInCode("OpenAPI")]),

        // A software FIDO2 authenticator (tests, the CLI, Linux apps).
        .target(name: "SesameSoftwareAuthenticator", dependencies: ["WebAuthn", "SesameCrypto"]),

        // The Swift SDK for apps (docs/sdk.md): Foundation only, links no C library.
        .target(name: "SesameClient", dependencies: ["SesameWire"]),
        // The SDK's passkey provider over the software authenticator (Linux apps, the CLI, tests).
        .target(
            name: "SesameSoftwarePasskey",
            dependencies: ["SesameClient", "SesameSoftwareAuthenticator", "SesameCrypto"]),

        // The `sesame` command line: argument parsing and commands, testable as a library.
        .target(
            name: "SesameCLI",
            dependencies: [
                "WebAuthn", "SesameCrypto", "SesameWire", "SesameStore", "SesameSQLite", "SesamePostgres",
                "SesameService", "SesameHTTP", "SesameClient", "SesameSoftwarePasskey", "SesameSoftwareAuthenticator",
                "SesameQR",
            ]),
        .executableTarget(name: "sesame", dependencies: ["SesameCLI"]),

        // Micro-benchmarks (`make bench`), built in release mode.
        .executableTarget(
            name: "sesame-bench", dependencies: ["WebAuthn", "SesameCrypto", "COpenSSL"],
            path: "Benchmarks/sesame-bench"),
        // Hostile input against a benign baseline (`make bench`): request bodies, pending ceremonies.
        .executableTarget(
            name: "sesame-bench-limits", dependencies: ["SesameHTTP", "SesameService", "SesameStore", "SesameCrypto"],
            path: "Benchmarks/sesame-bench-limits"),
        // The adoption statistics over a year for 100,000 users (`make bench`), on SQLite.
        .executableTarget(
            name: "sesame-bench-stats", dependencies: ["SesameService", "SesameStore", "SesameSQLite", "SesameCrypto"],
            path: "Benchmarks/sesame-bench-stats"),
        // Load generator (`scripts/load-bench.sh`): full logins against a release `sesame serve`.
        .executableTarget(
            name: "sesame-loadgen",
            dependencies: ["SesameSoftwareAuthenticator", "SesameCrypto", "SesameBenchFloor"],
            path: "Benchmarks/sesame-loadgen"),
        // The floor's crypto, shared by the load generator's floor and the ideal server.
        .target(name: "SesameBenchFloor", dependencies: ["SesameCrypto"], path: "Benchmarks/SesameBenchFloor"),
        // The least a passkey server can cost here (libmicrohttpd, the crypto, the fewest SQLite
        // writes), started by sesame-loadgen as a baseline beside Sesame (docs/BENCHMARKS.md).
        .executableTarget(
            name: "sesame-floor-server", dependencies: ["CMicroHTTPD", "CSQLite", "SesameBenchFloor"],
            path: "Benchmarks/sesame-floor-server"),
        // A local fake of Sign in with Apple's endpoints for testers (docs/fake-apple.md).
        .executableTarget(name: "sesame-fake-apple", dependencies: ["SesameTesting"]),

        .testTarget(name: "SesameCryptoTests", dependencies: ["SesameCrypto"], exclude: ["X509/Fixtures"]),
        // Conformance vectors live in Tests/Data and are found relative to #filePath.
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "SesameCrypto"]),
        .testTarget(name: "SesameWireTests", dependencies: ["SesameWire"]),
        .testTarget(
            name: "SesameCLITests",
            dependencies: [
                "SesameCLI", "WebAuthn", "SesameCrypto", "SesameHTTP", "SesameService", "SesameStore", "SesameSQLite",
                "SesamePostgres", "SesameTesting", "SesameClient", "SesameSoftwarePasskey",
                "SesameSoftwareAuthenticator",
            ]),
        .testTarget(
            name: "SesameStoreTests",
            dependencies: ["SesameStore", "SesameSQL", "SesameSQLite", "SesamePostgres", "SesameTesting"]),
        .testTarget(
            name: "SesameServiceTests",
            dependencies: [
                "SesameService", "SesameStore", "SesameSoftwareAuthenticator", "WebAuthn", "SesameCrypto", "SesameWire",
            ]),
        .testTarget(
            name: "SesameHTTPTests",
            dependencies: [
                "SesameHTTP", "SesameService", "SesameStore", "SesameSQLite", "SesamePostgres", "SesameTesting",
                "SesameSoftwareAuthenticator", "SesameWire",
            ]),
        // The software device-key provider is tested here too (its signatures checked with SesameCrypto).
        .testTarget(
            name: "SesameClientTests",
            dependencies: ["SesameClient", "SesameWire", "SesameSoftwarePasskey", "SesameCrypto"]),
        .testTarget(
            name: "SesameClientLiveTests",
            dependencies: [
                "SesameClient", "SesameSoftwarePasskey", "SesameSoftwareAuthenticator", "SesameHTTP", "SesameService",
                "SesameStore", "SesameSQLite", "SesameCrypto", "SesameTesting",
            ]),
        .testTarget(
            name: "SesameSoftwareAuthenticatorTests",
            dependencies: ["SesameSoftwareAuthenticator", "WebAuthn", "SesameCrypto"]),
    ],
    swiftLanguageModes: [.v6]
)
