import Dispatch
import Foundation
import SesameClient
import Synchronization

/// `sesame signup`, `login`, `token show|refresh|revoke` and `passkeys list|rename|delete`: the
/// SDK's flows from a terminal, with the software authenticator and the state in `ClientState`.
///
/// Exit status: 0 success, 1 the server refused (its `error_description` is shown), the network
/// failed or the local state could not be used, 2 bad arguments. Every message is one line.
enum ClientCommands {
    /// Runs `command` (one of `ClientInvocation.commands`) from synchronous code: arguments are
    /// checked here, then the work runs as a task while this thread waits.
    static func run(_ command: String, _ arguments: [String], environment: CommandEnvironment) -> Int32 {
        let invocation: ClientInvocation
        switch parse(command, arguments, environment: environment) {
        case .exit(let status): return status
        case .run(let parsed): invocation = parsed
        }
        return EnvironmentBox.waiting(for: environment) { await execute(invocation, environment: $0) }
    }

    /// Runs `command` from asynchronous code (tests call this; it never blocks a thread).
    static func run(_ command: String, _ arguments: [String], environment: CommandEnvironment) async -> Int32 {
        switch parse(command, arguments, environment: environment) {
        case .exit(let status): return status
        case .run(let invocation): return await execute(invocation, environment: environment)
        }
    }

    private enum Step {
        case exit(Int32)
        case run(ClientInvocation)
    }

    private static func parse(_ command: String, _ arguments: [String], environment: CommandEnvironment) -> Step {
        do throws(ClientUsageError) {
            switch try ClientInvocation.parse(command, arguments) {
            case .help(let text):
                environment.writeOutput(text)
                return .exit(SesameCommandLine.success)
            case .run(let invocation):
                return .run(invocation)
            }
        } catch {
            return .exit(SesameCommandLine.usageError(error.command, error.error.message, environment))
        }
    }

    /// Runs a parsed command and maps its outcome to an exit status.
    static func execute(_ invocation: ClientInvocation, environment: CommandEnvironment) async -> Int32 {
        do {
            let output = try await perform(invocation, environment: environment)
            environment.writeOutput(output)
            return SesameCommandLine.success
        } catch let error as ClientUsageError {
            return SesameCommandLine.usageError(error.command, error.error.message, environment)
        } catch let error as ClientFailure {
            environment.writeError("sesame: \(invocation.commandName): \(SesameCommandLine.oneLine(error.message))\n")
            return SesameCommandLine.failure
        } catch {
            let message = SesameCommandLine.oneLine(ClientFailure.describe(error))
            environment.writeError("sesame: \(invocation.commandName): \(message)\n")
            return SesameCommandLine.failure
        }
    }

    /// Does the work and returns what to print.
    private static func perform(_ invocation: ClientInvocation, environment: CommandEnvironment) async throws -> String
    {
        let state = try ClientState.locate(variables: environment.variables)
        let timeout = try ClientSession.timeout(environment.variables)
        let now = environment.now()
        switch invocation.action {
        case .signup(let email, let name):
            let config = ClientConfig(
                server: invocation.server ?? "", clientID: invocation.clientID ?? "",
                origin: invocation.origin == invocation.server ? nil : invocation.origin, credentialID: nil,
                email: email)
            var session = try ClientSession(state: state, config: config, timeout: timeout)
            let (credentials, passkeyID) = try await session.signUp(email: email, name: name)
            let summary = ClientOutput.Login(
                kind: .signup, config: session.config, credentialID: passkeyID, credentials: credentials,
                statePath: state.directory)
            return invocation.json ? summary.json(now: now) : summary.text(now: now)

        case .passwordSignup(let email, let name, let source, let connection):
            let config = ClientConfig(
                server: invocation.server ?? "", clientID: invocation.clientID ?? "", origin: nil, credentialID: nil,
                email: email)
            var session = try ClientSession(state: state, config: config, timeout: timeout)
            let credentials = try await session.signUpWithPassword(
                email: email, name: name, connection: connection,
                prompter: PasswordPrompter(source: source, environment: environment))
            let summary = ClientOutput.Login(
                kind: .passwordSignup, config: session.config, credentialID: nil, credentials: credentials,
                statePath: state.directory)
            return invocation.json ? summary.json(now: now) : summary.text(now: now)

        case .passwordLogin(let email, let source, let connection):
            let saved = try state.loadConfig()
            let config = try loginConfig(invocation, saved: saved)
            var session = try ClientSession(state: state, config: config, timeout: timeout)
            let credentials = try await session.logInWithPassword(
                email: try session.accountEmail(email), connection: connection,
                prompter: PasswordPrompter(source: source, environment: environment))
            let summary = ClientOutput.Login(
                kind: .passwordLogin, config: session.config, credentialID: nil, credentials: credentials,
                statePath: state.directory)
            return invocation.json ? summary.json(now: now) : summary.text(now: now)

        case .mfaEnroll(let factor, let phone, let email, let source, let connection):
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let factors = try await session.enrollFactor(
                factor, phone: phone, email: try session.accountEmail(email), connection: connection,
                prompter: PasswordPrompter(source: source, environment: environment))
            return invocation.json
                ? ClientOutput.factorsJSON(factors)
                : "Enrolled \(factor == .otp ? "an authenticator app" : "SMS to \(phone ?? "")"); "
                    + "the next password login asks for its code.\n" + ClientOutput.factorsText(factors)

        case .mfaList(let email, let source, let connection):
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let factors = try await session.listFactors(
                email: try session.accountEmail(email), connection: connection,
                prompter: PasswordPrompter(source: source, environment: environment))
            return invocation.json ? ClientOutput.factorsJSON(factors) : ClientOutput.factorsText(factors)

        case .login:
            let saved = try state.loadConfig()
            let config = try loginConfig(invocation, saved: saved)
            var session = try ClientSession(state: state, config: config, timeout: timeout)
            let (credentials, passkeyID) = try await session.logIn()
            let summary = ClientOutput.Login(
                kind: .login, config: session.config, credentialID: passkeyID, credentials: credentials,
                statePath: state.directory)
            return invocation.json ? summary.json(now: now) : summary.text(now: now)

        case .appleLogin(let file, let nonce):
            let identityToken = try Self.identityToken(file, option: "apple-identity-token", invocation, environment)
            let config = try loginConfig(invocation, saved: try state.loadConfig())
            var session = try ClientSession(state: state, config: config, timeout: timeout)
            let credentials = try await session.logInWithApple(identityToken: identityToken, nonce: nonce)
            let summary = ClientOutput.Login(
                kind: .appleLogin, config: session.config, credentialID: nil, credentials: credentials,
                statePath: state.directory)
            return invocation.json ? summary.json(now: now) : summary.text(now: now)

        case .upgrade(let request):
            return try await upgrade(request, invocation, state: state, timeout: timeout, environment: environment)

        case .tokenShow:
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let credentials = try session.storedCredentials()
            let summary = ClientOutput.Token(config: session.config, credentials: credentials, rotated: nil)
            return invocation.json ? summary.json(now: now) : summary.text(now: now)

        case .tokenRefresh:
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let (credentials, rotated) = try await session.refresh()
            let summary = ClientOutput.Token(config: session.config, credentials: credentials, rotated: rotated)
            return invocation.json ? summary.json(now: now) : summary.text(now: now)

        case .tokenRevoke:
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let revoked = try await session.revoke()
            return invocation.json
                ? ClientOutput.revokedJSON(server: session.config.server, revoked: revoked)
                : ClientOutput.revokedText(server: session.config.server, revoked: revoked)

        case .passkeysList:
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let passkeys = try await session.passkeys()
            let local = session.localCredentialIDs()
            return invocation.json
                ? ClientOutput.passkeysJSON(passkeys, local: local) : ClientOutput.passkeysText(passkeys, local: local)

        case .passkeysRename(let id, let name):
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let passkey = try await session.renamePasskey(id: id, name: name)
            let local = session.localCredentialIDs()
            return invocation.json
                ? ClientOutput.passkeyJSON(passkey, local: local).rendered() + "\n"
                : "Renamed \(passkey.id) to \"\(passkey.name)\".\n"

        case .passkeysDelete(let id):
            let session = try ClientSession.saved(state: state, timeout: timeout)
            let removedLocalKey = try await session.deletePasskey(id: id)
            return invocation.json
                ? JSONOutput.object([("deleted", .string(id)), ("local_key_removed", .bool(removedLocalKey))])
                    .rendered() + "\n"
                : "Deleted \(id)\(removedLocalKey ? " and its key in this CLI's key store" : "").\n"
        }
    }

    /// `login`'s server and client: the flags, else the saved config. A different server than the
    /// saved one starts from a clean config (its origin and passkey do not apply).
    static func loginConfig(_ invocation: ClientInvocation, saved: ClientConfig?) throws(ClientUsageError)
        -> ClientConfig
    {
        let savedForServer = saved.flatMap { invocation.server == nil || invocation.server == $0.server ? $0 : nil }
        guard let server = invocation.server ?? saved?.server else {
            throw ClientUsageError(
                command: invocation.commandName,
                UsageError("--server is required (no saved server: run 'sesame signup' first)"))
        }
        guard let clientID = invocation.clientID ?? savedForServer?.clientID else {
            throw ClientUsageError(
                command: invocation.commandName, UsageError("--client-id is required (no client saved for \(server))"))
        }
        var config =
            savedForServer
            ?? ClientConfig(server: server, clientID: clientID, origin: nil, credentialID: nil, email: nil)
        config.clientID = clientID
        if let origin = invocation.origin {
            config.origin = origin == server ? nil : origin
        }
        return config
    }
}

/// Carries the environment into the task `run` waits for. The environment's closures are only
/// called from that task while the calling thread is blocked, never from two threads at once.
final class EnvironmentBox: @unchecked Sendable {
    let environment: CommandEnvironment
    init(_ environment: CommandEnvironment) { self.environment = environment }

    /// Runs `body` as a task while this (synchronous) thread waits, and returns its exit status.
    static func waiting(
        for environment: CommandEnvironment, _ body: @escaping @Sendable (CommandEnvironment) async -> Int32
    ) -> Int32 {
        let box = EnvironmentBox(environment)
        let status = Mutex<Int32?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            let result = await body(box.environment)
            status.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return status.withLock { $0 } ?? SesameCommandLine.failure
    }
}
