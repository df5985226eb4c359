import Dispatch
import Foundation
import SesameCrypto
import SesameHTTP
import SesameService
import SesameStore

/// `sesame serve`: the identity server on SQLite, libmicrohttpd and the tenant in `--data`.
enum ServeCommand {
    static let name = "serve"

    static let spec = CommandSpec(options: [
        OptionSpec("data", .single, placeholder: "DIR"),
        OptionSpec("store", .single, placeholder: "URI"),
        OptionSpec("listen", .single, placeholder: "HOST:PORT"),
        OptionSpec("public-url", .single, placeholder: "URL"),
        OptionSpec("threads", .single, placeholder: "N"),
        OptionSpec("log-level", .single, placeholder: "LEVEL"),
        OptionSpec("tls-cert", .single, placeholder: "FILE"),
        OptionSpec("tls-key", .single, placeholder: "FILE"),
        OptionSpec("trusted-proxy", .repeated, placeholder: "ADDR"),
        OptionSpec("rate-limit-per-ip", .single, placeholder: "N"),
        OptionSpec("max-body-bytes", .single, placeholder: "N"),
        OptionSpec("connections-per-ip", .single, placeholder: "N"),
        OptionSpec("connection-timeout", .single, placeholder: "SECONDS"),
        OptionSpec("request-timeout", .single, placeholder: "SECONDS"),
        OptionSpec("max-connections", .single, placeholder: "N"),
        OptionSpec("reserved-connections", .single, placeholder: "N"),
        OptionSpec("max-queue-wait", .single, placeholder: "MS"),
        OptionSpec("pending-ceremonies-per-ip", .single, placeholder: "N"),
        OptionSpec("metrics-listen", .single, placeholder: "HOST:PORT"),
        OptionSpec("metrics-token-file", .single, placeholder: "FILE"),
        OptionSpec("require-dpop-nonce", .flag),
        OptionSpec("messages-webhook", .single, placeholder: "URL"),
        OptionSpec("messages-webhook-secret-file", .single, placeholder: "FILE"),
        OptionSpec("audit-log-file", .single, placeholder: "PATH"),
        OptionSpec("audit-log-webhook", .single, placeholder: "URL"),
        OptionSpec("audit-log-webhook-token-file", .single, placeholder: "FILE"),
        OptionSpec("audit-log-webhook-secret-file", .single, placeholder: "FILE"),
    ])

    /// Settings from flags, then `SESAME_*` variables, then defaults.
    struct Settings {
        var data = "./data"
        var store = StoreLocation.sqlite
        var host = "127.0.0.1"
        var port = 8080
        var publicURL: String?
        var threads: Int?
        var logLevel = LogLevel.info
        var tlsCert: String?
        var tlsKey: String?
        var trustedProxies: [String] = []
        var rateLimitPerIP = 600
        var limits = ServerLimits()
        var pendingCeremonies = PendingCeremonyLimits()
        /// A separate listener for /metrics and /healthz (nil: none).
        var metricsListen: (host: String, port: Int)?
        /// The bearer token that reads /metrics on the API listener (nil: not served there).
        var metricsToken: String?
        /// Every DPoP proof must carry the server's nonce (RFC 9449 §8).
        var requireDPoPNonce = false
        /// Emails and SMS go to this URL, signed with the secret (nil: kept in the outbox).
        /// `secrets`: the current signing secret, then the previous one during a rotation.
        var messagesWebhook: (url: URL, secrets: [[UInt8]])?
        /// The audit log is also appended here as JSON lines (nil: only in the store).
        var auditLogFile: String?
        /// The audit log is also POSTed here in batches of JSON lines, with the token as a bearer
        /// token and each POST signed with the secret (nil: not shipped).
        /// `secrets`: the current signing secret, then the previous one during a rotation (or none).
        var auditLogWebhook: (url: URL, token: String?, secrets: [[UInt8]])?
    }

    /// A webhook's signing secrets from `file`: the current one on the first line and, during a
    /// rotation, the previous one on a second, each trimmed of spaces; blank lines are skipped.
    static func secretLines(_ file: String, option: String) throws(UsageError) -> [String] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw UsageError("\(option): cannot read \(file)")
        }
        let secrets = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard secrets.count <= 2 else {
            throw UsageError(
                "\(option) holds at most two secrets, one per line (the current one, then the previous one)")
        }
        return secrets
    }

    static func settings(_ parsed: ParsedArguments, _ variables: [String: String]) throws(UsageError) -> Settings {
        func value(_ option: String, _ variable: String) -> String? {
            parsed.value(option) ?? variables[variable].flatMap { $0.isEmpty ? nil : $0 }
        }
        func integer(_ option: String, _ variable: String, range: ClosedRange<Int>) throws(UsageError) -> Int? {
            guard let text = value(option, variable) else { return nil }
            guard let number = Int(text), range.contains(number) else {
                throw UsageError("--\(option) must be an integer from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        var settings = Settings()
        settings.data = value("data", "SESAME_DATA") ?? settings.data
        settings.store = try StoreLocation.parse(value("store", "SESAME_STORE"))
        if let listen = value("listen", "SESAME_LISTEN") {
            guard let (host, port) = parseListen(listen) else {
                throw UsageError("--listen must be HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080")
            }
            settings.host = host
            settings.port = port
        }
        settings.publicURL = value("public-url", "SESAME_PUBLIC_URL")
        if let publicURL = settings.publicURL {
            do {
                _ = try Bootstrap.validatePublicURL(publicURL)
            } catch {
                throw UsageError("--public-url: \(error.message)")
            }
        }
        settings.threads = try integer("threads", "SESAME_THREADS", range: 1...256)
        if let level = value("log-level", "SESAME_LOG_LEVEL") {
            guard let parsedLevel = LogLevel(name: level) else {
                throw UsageError("--log-level must be debug, info, warn or error")
            }
            settings.logLevel = parsedLevel
        }
        settings.tlsCert = value("tls-cert", "SESAME_TLS_CERT")
        settings.tlsKey = value("tls-key", "SESAME_TLS_KEY")
        if (settings.tlsCert == nil) != (settings.tlsKey == nil) {
            throw UsageError("--tls-cert and --tls-key go together")
        }
        settings.trustedProxies =
            parsed.all("trusted-proxy").isEmpty
            ? (variables["SESAME_TRUSTED_PROXIES"] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            : parsed.all("trusted-proxy")
        do {
            _ = try TrustedProxies(settings.trustedProxies)
        } catch {
            throw UsageError("--trusted-proxy must be an IP address or CIDR range")
        }
        settings.rateLimitPerIP =
            try integer("rate-limit-per-ip", "SESAME_RATE_LIMIT_PER_IP", range: 0...1_000_000) ?? 600
        if let bytes = try integer("max-body-bytes", "SESAME_MAX_BODY_BYTES", range: 1_024...(16 << 20)) {
            settings.limits.maxBodyBytes = bytes
        }
        if let perIP = try integer("connections-per-ip", "SESAME_CONNECTIONS_PER_IP", range: 0...100_000) {
            settings.limits.connectionsPerIP = perIP
        }
        if let timeout = try integer("connection-timeout", "SESAME_CONNECTION_TIMEOUT", range: 0...3_600) {
            settings.limits.connectionTimeoutSeconds = timeout
        }
        if let timeout = try integer("request-timeout", "SESAME_REQUEST_TIMEOUT", range: 0...3_600) {
            settings.limits.requestTimeoutSeconds = timeout
        }
        if let count = try integer("max-connections", "SESAME_MAX_CONNECTIONS", range: 1...1_000_000) {
            settings.limits.maxConnections = count
        }
        if let count = try integer("reserved-connections", "SESAME_RESERVED_CONNECTIONS", range: 0...1_000_000) {
            guard count < settings.limits.maxConnections else {
                throw UsageError("--reserved-connections must be less than --max-connections")
            }
            settings.limits.reservedConnections = count
        }
        if let milliseconds = try integer("max-queue-wait", "SESAME_MAX_QUEUE_WAIT", range: 0...60_000) {
            settings.limits.maxQueueWaitSeconds = Double(milliseconds) / 1000
        }
        if let count = try integer(
            "pending-ceremonies-per-ip", "SESAME_PENDING_CEREMONIES_PER_IP", range: 1...1_000_000)
        {
            settings.pendingCeremonies.perAddress = count
        }
        if let listen = value("metrics-listen", "SESAME_METRICS_LISTEN") {
            guard let (host, port) = parseListen(listen) else {
                throw UsageError("--metrics-listen must be HOST:PORT, e.g. 127.0.0.1:9464")
            }
            settings.metricsListen = (host, port)
        }
        if let file = parsed.value("metrics-token-file") {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw UsageError("--metrics-token-file: cannot read \(file)")
            }
            settings.metricsToken = text.trimmingCharacters(in: .whitespacesAndNewlines)
        } else if let token = variables["SESAME_METRICS_TOKEN"], !token.isEmpty {
            settings.metricsToken = token
        }
        if parsed.flag("require-dpop-nonce") {
            settings.requireDPoPNonce = true
        } else if let text = variables["SESAME_REQUIRE_DPOP_NONCE"], !text.isEmpty {
            guard ["true", "false"].contains(text) else {
                throw UsageError("SESAME_REQUIRE_DPOP_NONCE must be true or false")
            }
            settings.requireDPoPNonce = text == "true"
        }
        if let text = value("messages-webhook", "SESAME_MESSAGES_WEBHOOK") {
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw UsageError("--messages-webhook must be an http(s) URL")
            }
            var secrets: [String] = []
            if let file = parsed.value("messages-webhook-secret-file") {
                secrets = try secretLines(file, option: "--messages-webhook-secret-file")
            } else if let text = variables["SESAME_MESSAGES_WEBHOOK_SECRET"], !text.isEmpty {
                secrets = [text]
            }
            guard !secrets.isEmpty, secrets.allSatisfy({ $0.utf8.count >= 16 }) else {
                throw UsageError(
                    "--messages-webhook needs a secret of at least 16 characters (--messages-webhook-secret-file "
                        + "or SESAME_MESSAGES_WEBHOOK_SECRET)")
            }
            settings.messagesWebhook = (url, secrets.map { Array($0.utf8) })
        } else if parsed.value("messages-webhook-secret-file") != nil {
            throw UsageError("--messages-webhook-secret-file goes with --messages-webhook")
        }
        if let path = value("audit-log-file", "SESAME_AUDIT_LOG_FILE") {
            guard !path.isEmpty, !path.hasSuffix("/") else { throw UsageError("--audit-log-file must name a file") }
            settings.auditLogFile = path
        }
        if let text = value("audit-log-webhook", "SESAME_AUDIT_LOG_WEBHOOK") {
            guard let url = URL(string: text) else { throw UsageError("--audit-log-webhook must be a URL") }
            do {
                try AuditWebhookSink.validate(url)
            } catch {
                throw UsageError("--audit-log-webhook \(error)")
            }
            // The bearer token from the file (trimmed), else from the environment; the file wins.
            var token: String?
            if let file = parsed.value("audit-log-webhook-token-file") {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                    throw UsageError("--audit-log-webhook-token-file: cannot read \(file)")
                }
                token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            } else if let text = variables["SESAME_AUDIT_LOG_WEBHOOK_TOKEN"], !text.isEmpty {
                token = text
            }
            if let token,
                !(1...4_096).contains(token.utf8.count) || !token.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
            {
                throw UsageError(
                    "--audit-log-webhook-token-file (or SESAME_AUDIT_LOG_WEBHOOK_TOKEN): "
                        + "\(AuditWebhookSink.ConfigurationError.badToken)")
            }
            // The environment holds one secret; the file, during a rotation, two. The file wins.
            var secrets: [String] = []
            if let file = parsed.value("audit-log-webhook-secret-file") {
                secrets = try secretLines(file, option: "--audit-log-webhook-secret-file")
                if secrets.isEmpty { secrets = [""] }  // refused below as too short
            } else if let text = variables["SESAME_AUDIT_LOG_WEBHOOK_SECRET"], !text.isEmpty {
                secrets = [text]
            }
            if secrets.contains(where: { !AuditWebhookSink.ConfigurationError.secretLength.contains($0.utf8.count) }) {
                throw UsageError(
                    "--audit-log-webhook-secret-file (or SESAME_AUDIT_LOG_WEBHOOK_SECRET): "
                        + "\(AuditWebhookSink.ConfigurationError.badSecret)")
            }
            settings.auditLogWebhook = (url, token, secrets.map { Array($0.utf8) })
        } else if parsed.value("audit-log-webhook-token-file") != nil {
            throw UsageError("--audit-log-webhook-token-file goes with --audit-log-webhook")
        } else if parsed.value("audit-log-webhook-secret-file") != nil {
            throw UsageError("--audit-log-webhook-secret-file goes with --audit-log-webhook")
        }
        if let token = settings.metricsToken, token.utf8.count < 16 {
            throw UsageError("the metrics token must be at least 16 characters")
        }
        return settings
    }

    /// "127.0.0.1:8080", "localhost:8080", "[::1]:8080".
    static func parseListen(_ text: String) -> (String, Int)? {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65_535).contains(port) else { return nil }
        return (host == "localhost" ? "127.0.0.1" : String(host), port)
    }

    static func run(_ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let reading = SesameCommandLine.reading(name, arguments, spec: spec, usage: Usage.serve, environment) {
            (parsed) throws(UsageError) in try self.settings(parsed, environment.variables)
        }
        guard let settings = reading.value else { return reading.status }
        do {
            return try serve(settings, environment: environment)
        } catch {
            environment.writeError("sesame: serve: \(SesameCommandLine.oneLine(String(describing: error)))\n")
            return SesameCommandLine.failure
        }
    }

    static func serve(_ settings: Settings, environment: CommandEnvironment) throws -> Int32 {
        let directory = DataDirectory(path: settings.data)
        let (masterKey, store) = try directory.open(settings.store, variables: environment.variables)
        if try !DataDirectory.isInitialised(store) {
            let publicURL = settings.publicURL ?? "http://localhost:\(settings.port)"
            let result = try DataDirectory.initialise(
                store: store, masterKey: masterKey, publicURL: publicURL, now: environment.now())
            environment.writeOutput(DataDirectory.summary(result, publicURL: publicURL))
        }
        // Several processes on one database redeem each other's challenges: keep auth sessions in
        // the store. One process on its SQLite file keeps them in memory.
        let sessions: (any AuthSessionStore)? =
            settings.store.isShared
            ? StoreAuthSessions(
                store: store, maxPerRequester: settings.pendingCeremonies.perAddress, random: SystemRandom())
            : nil
        let auditFile: AuditFileSink?
        do {
            auditFile = try settings.auditLogFile.map { try AuditFileSink(path: $0) }
        } catch {
            throw UsageError("--audit-log-file: \(error)")
        }
        let auditWebhook: AuditWebhookSink?
        do {
            auditWebhook = try settings.auditLogWebhook.map {
                try AuditWebhookSink(
                    url: $0.url, token: $0.token, secret: $0.secrets.first, previousSecret: $0.secrets.dropFirst().first
                )
            }
        } catch {
            throw UsageError("--audit-log-webhook \(error)")
        }
        let auditSinks: [any AuditSink] = [auditFile as (any AuditSink)?, auditWebhook].compactMap { $0 }
        // Every service is composed here, once, with the effects that reach outside the process.
        let random = SystemRandom()
        let services = SesameServices(
            store: store, masterKey: masterKey, clock: SystemClock(), random: random,
            authSessions: sessions
                ?? InMemoryAuthSessions(
                    capacity: settings.pendingCeremonies.total,
                    maxPerRequester: settings.pendingCeremonies.perAddress, random: random),
            effects: ServiceEffects(
                apple: HTTPAppleEndpoints(), passwordRanges: HTTPRangeLookup(),
                messageSender: settings.messagesWebhook.map {
                    WebhookSender(url: $0.url, secret: $0.secrets[0], previousSecret: $0.secrets.dropFirst().first)
                }, auditSinks: auditSinks),
            requireDPoPNonce: settings.requireDPoPNonce)
        let application = SesameApplication(
            services: services, masterKey: masterKey, rateLimitPerMinute: settings.rateLimitPerIP,
            metricsToken: settings.metricsToken)
        auditWebhook?.start()
        var configuration = HTTPServer.Configuration(host: settings.host, port: settings.port)
        configuration.limits = settings.limits
        configuration.threads = settings.threads
        configuration.trustedProxies = try TrustedProxies(settings.trustedProxies)
        if let cert = settings.tlsCert, let key = settings.tlsKey {
            configuration.tls = try TLSConfiguration(certificatePath: cert, privateKeyPath: key)
        }
        let server = try HTTPServer(
            configuration: configuration, router: application.router(), metrics: application.metrics,
            log: RequestLog(level: settings.logLevel))
        let scheme = settings.tlsCert == nil ? "http" : "https"
        let source = settings.store == .sqlite ? settings.data : "PostgreSQL"
        environment.writeOutput("Sesame is serving \(source) at \(scheme)://\(settings.host):\(server.port)\n")
        var metricsServer: HTTPServer?
        if let (host, port) = settings.metricsListen {
            var metricsConfiguration = HTTPServer.Configuration(host: host, port: port)
            metricsConfiguration.threads = 1
            do {
                metricsServer = try HTTPServer(
                    configuration: metricsConfiguration, router: application.metricsRouter(),
                    metrics: application.metrics, log: RequestLog(level: settings.logLevel))
            } catch {
                server.stop(gracePeriod: 0)
                throw error
            }
            environment.writeOutput("Metrics at http://\(host):\(metricsServer?.port ?? port)/metrics\n")
        }

        // Auth events and last-used times are written in batches; flush them every second and at shutdown.
        let flusher = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "sesame.events"))
        flusher.schedule(deadline: .now() + 1, repeating: 1)
        flusher.setEventHandler { application.flush() }
        flusher.resume()
        // SIGHUP reopens the audit file (after a rotation moved it); SIGTERM and SIGINT stop.
        let signals = ShutdownSignals(signals: [SIGTERM, SIGINT, SIGHUP]) { number in
            if number == SIGHUP {
                try? auditFile?.reopen()
                return
            }
            DispatchQueue.global().async { server.stop(gracePeriod: 10) }
        }
        server.waitUntilStopped()
        metricsServer?.stop(gracePeriod: 1)
        flusher.cancel()
        application.flush()
        // The last entries get one attempt per batch, for at most 10 seconds.
        auditWebhook?.finish(within: 10)
        withExtendedLifetime(signals) {}
        environment.writeOutput("Sesame stopped.\n")
        return SesameCommandLine.success
    }
}
