import Foundation
import SesameClient

extension ClientCommands {
    /// `sesame upgrade TARGET`: the files are read first (a bad one is a bad argument), then the
    /// session authorizes and commits.
    static func upgrade(
        _ request: UpgradeRequest, _ invocation: ClientInvocation, state: ClientState, timeout: TimeInterval,
        environment: CommandEnvironment
    ) async throws -> String {
        let saved = try state.loadConfig()
        let config = try loginConfig(invocation, saved: saved)
        var session = try ClientSession(state: state, config: config, timeout: timeout)
        let authority: ClientSession.UpgradeAuthority
        if let form = request.password {
            let password = try secretLine(form.file, option: "password-file", invocation, environment)
            guard let username = form.username ?? config.email else {
                throw ClientUsageError(
                    command: invocation.commandName,
                    UsageError("--username is required (no email saved for \(config.server))"))
            }
            authority = .password(username: username, password: password, connection: form.connection)
        } else {
            guard saved?.server == config.server else {
                throw ClientFailure(
                    "no saved session for \(config.server): run 'sesame login --password' first, "
                        + "or pass --username and --password-file")
            }
            authority = .savedSession
        }
        let commit: ClientSession.UpgradeCommit
        switch request.target {
        case .strongPassword(let file):
            commit = .strongPassword(
                try file.map { file in try secretLine(file, option: "new-password-file", invocation, environment) })
        case .apple(let file, let nonce, let authorizationCode):
            commit = .apple(
                identityToken: try identityToken(file, option: "identity-token", invocation, environment),
                nonce: nonce, authorizationCode: authorizationCode)
        case .passkey:
            commit = .passkey
        }
        let prompter = PasswordPrompter(
            source: request.codesFromStandardInput ? .standardInput : .terminal, environment: environment)
        let outcome = try await session.upgrade(commit, authority: authority, otp: request.otp, prompter: prompter)
        return invocation.json ? outcome.json() : outcome.text()
    }

    /// The first line of FILE (`-`: of standard input), without its line ending and otherwise as
    /// given: a password.
    static func secretLine(
        _ file: String, option: String, _ invocation: ClientInvocation, _ environment: CommandEnvironment
    ) throws(ClientUsageError) -> String {
        let line: String?
        if file == "-" {
            line = environment.readStandardInputLine()
        } else {
            do {
                let bytes = try ArgumentValues.input(file, environment: environment)
                line = String(validating: bytes, as: UTF8.self)?.split(
                    separator: "\n", omittingEmptySubsequences: false
                )
                .first.map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            } catch {
                throw ClientUsageError(command: invocation.commandName, UsageError("--\(option): \(error.message)"))
            }
        }
        guard let line, !line.isEmpty else {
            let source = file == "-" ? "standard input" : "'\(file)'"
            throw ClientUsageError(
                command: invocation.commandName, UsageError("--\(option): \(source) has no password on its first line"))
        }
        return line
    }

    /// An Apple identity token from FILE (`-`: standard input), surrounding white space removed.
    static func identityToken(
        _ file: String, option: String, _ invocation: ClientInvocation, _ environment: CommandEnvironment
    ) throws(ClientUsageError) -> String {
        let text: String
        do {
            let bytes = try ArgumentValues.input(file, environment: environment)
            text = (String(validating: bytes, as: UTF8.self) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        } catch {
            throw ClientUsageError(command: invocation.commandName, UsageError("--\(option): \(error.message)"))
        }
        guard text.split(separator: ".", omittingEmptySubsequences: false).count == 3,
            !text.contains(where: \.isWhitespace)
        else {
            throw ClientUsageError(
                command: invocation.commandName,
                UsageError("--\(option): '\(file)' does not hold an identity token (a JWT)"))
        }
        return text
    }
}
