import Foundation
import SesameClient
import SesameService
import SesameStore
import Testing

/// The SDK's password and MFA calls (Auth0.swift's names) against a live server.
@Suite("SDK passwords and MFA against a live server", .serialized)
struct PasswordSDKLiveTests {
    static let connection = "Username-Password-Authentication"

    /// Turns factors and a policy on, as `PUT /api/v2/guardian/*` would.
    static func enableMFA(_ live: LiveServer, _ factors: [MFAFactor]) throws {
        try live.sesame.database.store.write(.durable) { transaction in
            guard var tenant = try transaction.tenants.get(id: live.sesame.tenant.id) else { return }
            tenant.mfa = MFASettings(factors: factors, policy: .allApplications)
            tenant.breachedPasswords = BreachedPasswordSettings(enabled: true)
            try transaction.tenants.update(tenant)
        }
    }

    @Test func signUpLogInWrongPasswordAndPolicyErrors() async throws {
        let live = try LiveServer()
        let auth = try live.authentication()
        let user = try await auth.signup(
            email: "ada@example.com", password: "correct horse battery staple", connection: Self.connection)
        #expect(user.email == "ada@example.com")
        #expect(user.emailVerified == false)
        let credentials = try await auth.login(
            usernameOrEmail: "ada@example.com", password: "correct horse battery staple",
            realmOrConnection: Self.connection)
        #expect(credentials.refreshToken != nil)
        #expect(credentials.passwordStatus == .ok)
        #expect(credentials.authMethod == .password)
        let renewed = try await auth.renew(withRefreshToken: try #require(credentials.refreshToken))
        #expect(renewed.authMethod == .refresh)

        let wrong = await #expect(throws: AuthenticationError.self) {
            _ = try await auth.login(
                usernameOrEmail: "ada@example.com", password: "wrong horse", realmOrConnection: Self.connection)
        }
        #expect(wrong?.isInvalidCredentials == true)
        #expect(wrong?.statusCode == 403)
        let weak = await #expect(throws: AuthenticationError.self) {
            _ = try await auth.signup(email: "bob@example.com", password: "short", connection: Self.connection)
        }
        #expect(weak?.isPasswordNotStrongEnough == true)
        #expect(weak?.passwordPolicy?.contains("At least 12 characters in length") == true)
        try await auth.resetPassword(email: "nobody@example.com", connection: Self.connection)
    }

    @Test func multifactorEnrollmentAndLoginWithOTPAndRecovery() async throws {
        let live = try LiveServer()
        let auth = try live.authentication()
        _ = try await auth.signup(
            email: "ada@example.com", password: "correct horse battery staple", connection: Self.connection)
        try Self.enableMFA(live, [.otp, .recoveryCode])
        func logIn() async -> AuthenticationError? {
            await #expect(throws: AuthenticationError.self) {
                _ = try await auth.login(
                    usernameOrEmail: "ada@example.com", password: "correct horse battery staple",
                    realmOrConnection: Self.connection)
            }
        }
        let first = await logIn()
        #expect(first?.isMultifactorRequired == true)
        let payload = try #require(first?.mfaRequiredPayload)
        #expect(payload.enroll == ["otp"])
        let enrollment = try await auth.multifactorEnroll(token: payload.mfaToken, type: "otp")
        let secret = try #require(enrollment.secret.flatMap(Base32.decode))
        #expect(enrollment.barcodeURI?.hasPrefix("otpauth://totp/") == true)
        let recovery = try #require(enrollment.recoveryCodes?.first)
        let code = TOTP.code(secret: secret, counter: TOTP.step(at: live.clock.now()))
        let signedIn = try await auth.login(withOTP: code, mfaToken: payload.mfaToken)
        #expect(signedIn.idToken != nil)

        let second = try #require(await logIn()?.mfaRequiredPayload)
        #expect(second.challenge == ["otp", "recovery-code"])
        let authenticators = try await auth.multifactorAuthenticators(token: second.mfaToken)
        #expect(authenticators.map(\.authenticatorType) == ["otp", "recovery-code"])
        let challenge = try await auth.multifactorChallenge(mfaToken: second.mfaToken, types: ["otp"])
        #expect(challenge.challengeType == "otp")
        let replay = await #expect(throws: AuthenticationError.self) {
            _ = try await auth.login(withOTP: code, mfaToken: second.mfaToken)
        }
        #expect(replay?.isMultifactorCodeInvalid == true)
        let recovered = try await auth.login(withRecoveryCode: recovery, mfaToken: second.mfaToken)
        #expect(recovered.recoveryCode != nil && recovered.recoveryCode != recovery)
        let spent = await #expect(throws: AuthenticationError.self) {
            _ = try await auth.login(withRecoveryCode: recovery, mfaToken: second.mfaToken)
        }
        #expect(spent?.isMultifactorTokenInvalid == true)
        // A leaked password is refused at signup.
        let leaked = await #expect(throws: AuthenticationError.self) {
            _ = try await auth.signup(
                email: "eve@example.com", password: "AUTH0-TEST-leaked", connection: Self.connection)
        }
        #expect(leaked?.isPasswordLeaked == true)
    }
}
