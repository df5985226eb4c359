import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import WebAuthn

/// The `sesame-fake-apple` command line: serve the fake, make a .p8, mint identity tokens, codes
/// and client secrets. A bad command line prints one line and exits with status 2; a failure
/// (a file that cannot be read or written) prints one line and exits with 1.
public enum FakeAppleIDCommandLine {
    /// Where the command writes: `output` is standard output, `errors` standard error (each call
    /// is one line without its newline).
    public struct Streams: Sendable {
        public var output: @Sendable (String) -> Void
        public var errors: @Sendable (String) -> Void

        /// Streams over the given sinks.
        public init(output: @escaping @Sendable (String) -> Void, errors: @escaping @Sendable (String) -> Void) {
            self.output = output
            self.errors = errors
        }

        /// The process's standard output and standard error, unbuffered.
        public static let standard = Streams(
            output: { FileHandle.standardOutput.write(Data(($0 + "\n").utf8)) },
            errors: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    /// The usage text.
    public static let usage = """
        usage: sesame-fake-apple <command> [options]
          serve --state DIR [--port N] [--team-id T --key-id K --p8 FILE]
          p8 --out FILE
          identity-token --state DIR --aud BUNDLE_ID --sub SUB [--nonce RAW | --no-nonce] [--email E]
                         [--lifetime SECONDS] [--out FILE]
          code --state DIR --aud BUNDLE_ID --sub SUB [--email E] [--nonce RAW] [--redirect-uri URI] [--out FILE]
          client-secret --p8 FILE --team-id T --key-id K --client-id ID [--lifetime SECONDS] [--out FILE]
        See docs/fake-apple.md.
        """

    /// Runs `arguments` (without the program name) and returns the exit status. `serve` returns
    /// only after SIGINT or SIGTERM.
    public static func run(_ arguments: [String], streams: Streams = .standard) -> Int32 {
        guard let command = arguments.first else {
            streams.errors(usage)
            return 2
        }
        if ["-h", "--help", "help"].contains(command) {
            streams.output(usage)
            return 0
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            streams.output(usage)
            return 0
        }
        do {
            switch command {
            case "serve": return try serve(try Options(rest, Self.serveOptions), streams)
            case "p8": try p8(try Options(rest, ["out": .value]), streams)
            case "identity-token": try identityToken(try Options(rest, Self.identityTokenOptions), streams)
            case "code": try code(try Options(rest, Self.codeOptions), streams)
            case "client-secret": try clientSecret(try Options(rest, Self.clientSecretOptions), streams)
            default: throw UsageError("unknown command \(command) (serve, p8, identity-token, code, client-secret)")
            }
            return 0
        } catch let error as UsageError {
            streams.errors("sesame-fake-apple: \(command): \(error.message)")
            return 2
        } catch {
            streams.errors("sesame-fake-apple: \(command): \(error)")
            return 1
        }
    }

    // MARK: - Commands

    static let serveOptions: [String: Options.Kind] = [
        "state": .value, "port": .value, "team-id": .value, "key-id": .value, "p8": .value,
    ]

    private static func serve(_ options: Options, _ streams: Streams) throws -> Int32 {
        let state = try options.required("state")
        let port = try options.integer("port", in: 0...65_535) ?? 0
        let registration = [options.value("team-id"), options.value("key-id"), options.value("p8")]
        guard registration.allSatisfy({ $0 == nil }) || registration.allSatisfy({ $0 != nil }) else {
            throw UsageError("--team-id, --key-id and --p8 go together")
        }
        var configuration = FakeAppleID.Configuration()
        configuration.port = port
        configuration.stateDirectory = state
        configuration.log = RequestLog(level: .warn)
        configuration.onTokenRequest = { streams.output(describe($0)) }
        let fake = try FakeAppleID(configuration)
        if let teamID = registration[0], let keyID = registration[1], let path = registration[2] {
            try fake.register(teamID: teamID, keyID: keyID, p8: try readText(path))
        }
        streams.output("listening on \(fake.baseURL)")
        streams.output("  issuer          \(fake.issuer)")
        streams.output("  jwks_uri        \(fake.jwksURL)")
        streams.output("  token_endpoint  \(fake.tokenURL)")
        streams.output("  authorization_endpoint  \(fake.authorizeURL)")
        if let teamID = registration[0], let keyID = registration[1] {
            streams.output("  client secrets  team \(teamID), key \(keyID)")
        }
        let signals = ShutdownSignals { _ in fake.stop() }
        guard signals.isInstalled else { throw FakeAppleIDError("cannot install the SIGINT and SIGTERM handlers") }
        // The handlers stay installed until the fake has stopped.
        withExtendedLifetime(signals) { fake.waitUntilStopped() }
        streams.output("stopped")
        return 0
    }

    private static func p8(_ options: Options, _ streams: Streams) throws {
        let path = try options.required("out")
        guard try FakeAppleIDFiles.createExclusively(Array(try FakeAppleID.makeP8().utf8), at: path) else {
            throw FakeAppleIDError("\(path) exists; a .p8 is never overwritten")
        }
        streams.output("wrote \(path)")
    }

    static let identityTokenOptions: [String: Options.Kind] = [
        "state": .value, "aud": .value, "sub": .value, "nonce": .value, "no-nonce": .flag, "email": .value,
        "lifetime": .value, "out": .value,
    ]

    private static func identityToken(_ options: Options, _ streams: Streams) throws {
        var claims = try identityClaims(options)
        if options.flag("no-nonce") {
            guard options.value("nonce") == nil else { throw UsageError("--nonce and --no-nonce exclude each other") }
        } else if claims.rawNonce == nil {
            claims.rawNonce = Base64URL.encode(try SystemRandom().bytes(count: 24))
        }
        if let lifetime = try options.integer("lifetime", in: -31_536_000...31_536_000) { claims.lifetime = lifetime }
        let minter = FakeAppleIDMinter(
            keys: try FakeAppleIDKeys.loadOrCreate(stateDirectory: try options.required("state")))
        let token = try minter.mintIdentityToken(claims)
        let nonceLine = "raw nonce: \(claims.rawNonce ?? "(none)")"
        if let path = options.value("out") {
            try writeText(token + "\n", to: path)
            streams.output(nonceLine)
        } else {
            streams.output(token)
            streams.errors(nonceLine)
        }
    }

    static let codeOptions: [String: Options.Kind] = [
        "state": .value, "aud": .value, "sub": .value, "nonce": .value, "email": .value, "redirect-uri": .value,
        "out": .value,
    ]

    private static func code(_ options: Options, _ streams: Streams) throws {
        let claims = try identityClaims(options)
        let minter = FakeAppleIDMinter(
            keys: try FakeAppleIDKeys.loadOrCreate(stateDirectory: try options.required("state")))
        let code = try minter.mintAuthorizationCode(claims, redirectURI: options.value("redirect-uri"))
        if let path = options.value("out") {
            try writeText(code + "\n", to: path)
            streams.output("wrote \(path) (redeem within \(FakeAppleIDMinter.codeLifetime) seconds)")
        } else {
            streams.output(code)
        }
    }

    static let clientSecretOptions: [String: Options.Kind] = [
        "p8": .value, "team-id": .value, "key-id": .value, "client-id": .value, "lifetime": .value, "out": .value,
    ]

    private static func clientSecret(_ options: Options, _ streams: Streams) throws {
        let p8Path = try options.required("p8")
        let teamID = try options.required("team-id")
        let keyID = try options.required("key-id")
        let clientID = try options.required("client-id")
        let lifetime = try options.integer("lifetime", in: 1...AppleClientSecret.maximumLifetime) ?? 3_600
        let secret = try AppleClientSecret.make(
            teamID: teamID, keyID: keyID, clientID: clientID,
            privateKey: try FakeAppleID.privateKey(p8: try readText(p8Path)),
            issuedAt: Date(), lifetime: lifetime)
        if let path = options.value("out") {
            try writeText(secret + "\n", to: path)
            streams.output("wrote \(path)")
        } else {
            streams.output(secret)
        }
    }

    // MARK: - Helpers

    private static func identityClaims(_ options: Options) throws -> AppleIdentityClaims {
        AppleIdentityClaims(
            audience: try options.required("aud"), subject: try options.required("sub"),
            rawNonce: options.value("nonce"), email: options.value("email"))
    }

    /// One line per token request: what was asked and what was answered.
    static func describe(_ request: FakeAppleTokenRequest) -> String {
        var line = "POST /auth/token grant_type=\(request.grantType ?? "-") client_id=\(request.clientID ?? "-")"
        line += " → \(request.status)"
        if let refusal = request.refusal { line += " \(refusal.code): \(refusal.reason)" }
        return line
    }

    private static func readText(_ path: String) throws -> String {
        guard let bytes = try FakeAppleIDFiles.read(path) else { throw FakeAppleIDError("\(path) does not exist") }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func writeText(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FakeAppleIDError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// A bad command line.
    struct UsageError: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// `--name VALUE`, `--name=VALUE` and `--flag`, each at most once; nothing positional.
    struct Options {
        enum Kind { case value, flag }

        private var values: [String: String] = [:]

        init(_ arguments: [String], _ kinds: [String: Kind]) throws(UsageError) {
            var index = 0
            while index < arguments.count {
                let argument = arguments[index]
                index += 1
                guard argument.hasPrefix("--"), argument.count > 2 else {
                    throw UsageError("unexpected argument \(argument)")
                }
                var name = String(argument.dropFirst(2))
                var inline: String?
                if let equals = name.firstIndex(of: "=") {
                    inline = String(name[name.index(after: equals)...])
                    name = String(name[..<equals])
                }
                guard let kind = kinds[name] else { throw UsageError("unknown option --\(name)") }
                guard values[name] == nil else { throw UsageError("--\(name) is given twice") }
                switch kind {
                case .flag:
                    guard inline == nil else { throw UsageError("--\(name) takes no value") }
                    values[name] = ""
                case .value:
                    if let inline {
                        values[name] = inline
                    } else {
                        guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                        values[name] = arguments[index]
                        index += 1
                    }
                }
            }
        }

        func value(_ name: String) -> String? { values[name] }

        func flag(_ name: String) -> Bool { values[name] != nil }

        func required(_ name: String) throws(UsageError) -> String {
            guard let value = values[name], !value.isEmpty else { throw UsageError("--\(name) is required") }
            return value
        }

        func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = values[name] else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("--\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
    }
}
