import Foundation
import SesameClient

/// What the client commands print: a short human summary, or JSON with `--json` (snake_case keys,
/// always present, null when unknown). Refresh tokens are never printed.
enum ClientOutput {
    /// The summary of `signup` and `login`.
    struct Login {
        enum Kind { case signup, login, passwordSignup, passwordLogin, appleLogin }
        var kind: Kind
        var config: ClientConfig
        /// The passkey the ceremony created or used, base64url.
        var credentialID: String?
        var credentials: Credentials
        var statePath: String

        var user: String? { TokenClaims(credentials.idToken ?? credentials.accessToken).subject }
        var email: String? { credentials.idToken.flatMap { TokenClaims($0).email } ?? config.email }

        func json(now: Date) -> String {
            JSONOutput.object([
                ("server", .string(config.server)),
                ("client_id", .string(config.clientID)),
                ("user_id", .optional(user)),
                ("email", .optional(email)),
                ("credential_id", .optional(credentialID)),
                ("expires_at", .string(ClientOutput.date(credentials.expiresAt))),
                ("scope", .optional(credentials.scope)),
                ("has_refresh_token", .bool(credentials.refreshToken != nil)),
                ("state_directory", .string(statePath)),
            ]).rendered() + "\n"
        }

        func text(now: Date) -> String {
            let who = email.map { "\($0) (\(user ?? "unknown user"))" } ?? user ?? "an unknown user"
            var lines: [String]
            switch kind {
            case .signup: lines = ["Signed up \(who) at \(config.server) with a new passkey."]
            case .passwordSignup: lines = ["Signed up \(who) at \(config.server) with a password."]
            case .login, .passwordLogin: lines = ["Logged in to \(config.server) as \(who)."]
            case .appleLogin: lines = ["Logged in to \(config.server) as \(who) with Sign in with Apple."]
            }
            if let status = credentials.passwordStatus, status != .ok {
                let upgrades =
                    credentials.recommendedUpgrades?.map(\.rawValue).joined(separator: ", ") ?? "a new password"
                lines.append("  the password is \(status.rawValue): move to \(upgrades)")
            }
            if let credentialID { lines.append("  passkey        \(credentialID)") }
            lines.append("  access token   expires \(ClientOutput.expiry(credentials.expiresAt, now: now))")
            lines.append("  refresh token  \(credentials.refreshToken == nil ? "none" : "saved")")
            lines.append("Saved in \(statePath).")
            return lines.joined(separator: "\n") + "\n"
        }
    }

    /// The summary of `token show` and `token refresh`.
    struct Token {
        var config: ClientConfig
        var credentials: Credentials
        /// nil for `show`; for `refresh`, whether the server sent a new refresh token.
        var rotated: Bool?

        var user: String? { TokenClaims(credentials.idToken ?? credentials.accessToken).subject }
        var email: String? { credentials.idToken.flatMap { TokenClaims($0).email } }

        func json(now: Date) -> String {
            var members: [(String, JSONOutput)] = [
                ("server", .string(config.server)),
                ("client_id", .string(config.clientID)),
                ("user_id", .optional(user)),
                ("email", .optional(email)),
                ("token_type", .string(credentials.tokenType)),
                ("access_token", .string(credentials.accessToken)),
                ("expires_at", .string(ClientOutput.date(credentials.expiresAt))),
                ("expired", .bool(credentials.expiresAt <= now)),
                ("scope", .optional(credentials.scope)),
                ("has_refresh_token", .bool(credentials.refreshToken != nil)),
            ]
            if let rotated { members.append(("refresh_token_rotated", .bool(rotated))) }
            return JSONOutput.object(members).rendered() + "\n"
        }

        func text(now: Date) -> String {
            var lines: [String] = []
            if let rotated {
                lines.append(
                    "Refreshed the access token" + (rotated ? " (the refresh token was rotated)." : "."))
            }
            let who = email.map { "\($0) (\(user ?? "unknown user"))" } ?? user ?? "an unknown user"
            lines.append("Signed in to \(config.server) as \(who).")
            lines.append("  access token   \(ClientOutput.abbreviated(credentials.accessToken))")
            lines.append("  expires        \(ClientOutput.expiry(credentials.expiresAt, now: now))")
            lines.append("  scope          \(credentials.scope ?? "-")")
            lines.append("  refresh token  \(credentials.refreshToken == nil ? "none" : "saved")")
            return lines.joined(separator: "\n") + "\n"
        }
    }

    static func revokedJSON(server: String, revoked: Int) -> String {
        JSONOutput.object([("server", .string(server)), ("revoked_refresh_tokens", .integer(Int64(revoked)))])
            .rendered() + "\n"
    }

    static func revokedText(server: String, revoked: Int) -> String {
        "Revoked \(revoked) refresh token\(revoked == 1 ? "" : "s") at \(server) and removed the saved credentials.\n"
            + "The passkey stays in this CLI's key store: run 'sesame login' to sign in again.\n"
    }

    /// One passkey; `local` is whether this CLI's key store holds its private key.
    static func passkeyJSON(_ passkey: PasskeyAuthenticationMethod, local: Set<String>) -> JSONOutput {
        .object([
            ("id", .string(passkey.id)),
            ("name", .string(passkey.name)),
            ("key_id", .string(passkey.keyID)),
            ("created_at", .optional(passkey.createdAt.map(date))),
            ("last_auth_at", .optional(passkey.lastAuthAt.map(date))),
            ("aaguid", .optional(passkey.aaguid)),
            ("credential_device_type", .optional(passkey.credentialDeviceType)),
            ("credential_backed_up", .bool(passkey.credentialBackedUp)),
            ("transports", .array(passkey.transports.map(JSONOutput.string))),
            ("in_this_cli", .bool(local.contains(passkey.keyID))),
        ])
    }

    static func passkeysJSON(_ passkeys: [PasskeyAuthenticationMethod], local: Set<String>) -> String {
        JSONOutput.object([("passkeys", .array(passkeys.map { passkeyJSON($0, local: local) }))]).rendered() + "\n"
    }

    /// A table: id, name, created, last used; `*` marks keys this CLI holds.
    static func passkeysText(_ passkeys: [PasskeyAuthenticationMethod], local: Set<String>) -> String {
        guard !passkeys.isEmpty else { return "No passkeys.\n" }
        let rows = passkeys.map { passkey in
            [
                (local.contains(passkey.keyID) ? "* " : "  ") + passkey.id,
                passkey.name.isEmpty ? "-" : passkey.name,
                passkey.createdAt.map(date) ?? "-",
                passkey.lastAuthAt.map(date) ?? "never",
            ]
        }
        let header = ["  ID", "NAME", "CREATED", "LAST USED"]
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { index, pair in
                index == cells.count - 1 ? pair.0 : pair.0.padding(toLength: pair.1 + 2, withPad: " ", startingAt: 0)
            }.joined()
        }
        var lines = [line(header)] + rows.map(line)
        lines.append(
            "\(passkeys.count) passkey\(passkeys.count == 1 ? "" : "s"); * = its key is in this CLI's key store.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// ISO 8601 in UTC, whole seconds.
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// "2024-05-01T12:00:00Z (in 10 min)" or "2024-05-01T12:00:00Z (expired 3 min ago)".
    static func expiry(_ expiresAt: Date, now: Date) -> String {
        let seconds = Int(expiresAt.timeIntervalSince(now).rounded())
        let magnitude = abs(seconds)
        let span =
            magnitude < 120 ? "\(magnitude) s" : magnitude < 7_200 ? "\(magnitude / 60) min" : "\(magnitude / 3_600) h"
        return seconds > 0 ? "\(date(expiresAt)) (in \(span))" : "\(date(expiresAt)) (expired \(span) ago)"
    }

    /// The first and last characters of a token, enough to tell two apart.
    static func abbreviated(_ token: String) -> String {
        token.count <= 24 ? token : "\(token.prefix(12))…\(token.suffix(8)) (--json prints it whole)"
    }

    /// `mfa list` and `mfa enroll`: one factor a line.
    static func factorsText(_ factors: [MultifactorAuthenticator]) -> String {
        guard !factors.isEmpty else { return "No second factors.\n" }
        return factors.map { factor in
            let type = factor.oobChannel.map { "\(factor.authenticatorType) (\($0))" } ?? factor.authenticatorType
            let name = factor.name.map { "  \($0)" } ?? ""
            return "\(factor.id)  \(type)  \(factor.active ? "active" : "not confirmed")\(name)\n"
        }.joined()
    }

    static func factorsJSON(_ factors: [MultifactorAuthenticator]) -> String {
        JSONOutput.array(
            factors.map { factor in
                JSONOutput.object([
                    ("id", .string(factor.id)), ("authenticator_type", .string(factor.authenticatorType)),
                    ("active", .bool(factor.active)), ("oob_channel", .optional(factor.oobChannel)),
                    ("name", .optional(factor.name)),
                ])
            }
        ).rendered() + "\n"
    }
}
