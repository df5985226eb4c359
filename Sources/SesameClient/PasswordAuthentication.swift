import Foundation
import SesameWire

/// What `mfa_required` carries: the token for the second step and what the user must do.
public struct MFARequiredErrorPayload: Sendable, Equatable {
    /// Send it to `multifactorChallenge` and the `login(with…:mfaToken:)` calls. It lives 10 minutes.
    public var mfaToken: String
    /// Factor types the user can answer (`otp`, `phone`, `recovery-code`).
    public var challenge: [String]
    /// Factor types the user must enroll first (when they have none).
    public var enroll: [String]
}

/// An answer of `POST /mfa/challenge`: `challengeType` `otp` (read the code from the app) or `oob`
/// (pass `oobCode` to `login(withOOBCode:mfaToken:bindingCode:)`).
public typealias MultifactorChallenge = MFAChallengeResponse

/// An answer of `POST /mfa/associate`: for TOTP the secret and the `otpauth://` URI, for SMS the
/// code's handle, and on the first enrollment the recovery code.
public typealias MultifactorEnrollment = MFAAssociateResponse

/// An entry of `GET /mfa/authenticators`.
public typealias MultifactorAuthenticator = MFAAuthenticatorResponse

/// The user `signup` created (`/dbconnections/signup`).
public struct DatabaseUser: Sendable, Equatable, Decodable {
    /// The id without its provider prefix.
    public var id: String
    public var email: String?
    public var username: String?
    public var emailVerified: Bool
    enum CodingKeys: String, CodingKey {
        case id = "_id"
        case email, username
        case emailVerified = "email_verified"
    }
}

/// Password accounts and MFA (docs/passwords.md and docs/mfa.md), with Auth0.swift's names.
extension SesameAuthentication {
    /// The MFA grant types.
    public enum MFAGrant {
        public static let otp = "http://auth0.com/oauth/grant-type/mfa-otp"
        public static let oob = "http://auth0.com/oauth/grant-type/mfa-oob"
        public static let recoveryCode = "http://auth0.com/oauth/grant-type/mfa-recovery-code"
        public static let passwordRealm = "http://auth0.com/oauth/grant-type/password-realm"
    }

    /// Signs in with a password (`password-realm` grant). A user with a second factor gets an error
    /// whose `isMultifactorRequired` is true; `mfaRequiredPayload` carries the token for the next step.
    /// The answer may carry `Credentials.passkeyEnrollment` (progressive enrollment); its hosted
    /// page returns to `enrollmentRedirectURL` (sent as `redirect_uri`; one of the client's
    /// callbacks exactly) when given. The prompt that follows a second factor has no way back:
    /// the MFA grants take no `redirect_uri`.
    public func login(
        usernameOrEmail username: String, password: String, realmOrConnection realm: String,
        audience: String? = nil, scope: String = SesameAuthentication.defaultScope, enrollmentRedirectURL: URL? = nil
    ) async throws(AuthenticationError) -> Credentials {
        try await token([
            TokenFields.grantType: .string(MFAGrant.passwordRealm),
            ClientFields.clientID: .string(configuration.clientID),
            TokenFields.username: .string(username), TokenFields.password: .string(password),
            TokenFields.realm: .string(realm), TokenFields.scope: .string(scope), TokenFields.audience: .text(audience),
            TokenFields.redirectURI: .text(enrollmentRedirectURL?.absoluteString),
        ])
    }

    /// Creates a password user in `connection` (`POST /dbconnections/signup`). It signs nobody
    /// in: call `login(usernameOrEmail:…)` next.
    public func signup(
        email: String, username: String? = nil, password: String, connection: String,
        userMetadata: [String: String]? = nil, name: String? = nil
    ) async throws(AuthenticationError) -> DatabaseUser {
        let body: WireBody = [
            ClientFields.clientID: .string(configuration.clientID), SignupFields.email: .string(email),
            SignupFields.password: .string(password), SignupFields.connection: .string(connection),
            SignupFields.username: .text(username), ProfileAttribute.name.field: .text(name),
            SignupFields.userMetadata: .strings(userMetadata),
        ]
        return try await api.send(DatabaseUser.self, "POST", "/dbconnections/signup", json: body)
    }

    /// Asks for a password-reset email (`POST /dbconnections/change_password`). The answer is the
    /// same whether or not the user exists.
    public func resetPassword(email: String, connection: String) async throws(AuthenticationError) {
        _ = try await api.send(
            "POST", "/dbconnections/change_password",
            json: [
                ClientFields.clientID: .string(configuration.clientID), SignupFields.email: .string(email),
                SignupFields.connection: .string(connection),
            ])
    }

    /// Starts a second-factor challenge (`POST /mfa/challenge`): for SMS, a code is sent.
    public func multifactorChallenge(
        mfaToken: String, types: [String]? = nil, authenticatorId: String? = nil
    ) async throws(AuthenticationError) -> MultifactorChallenge {
        let body: WireBody = [
            ClientFields.clientID: .string(configuration.clientID), MFAFields.mfaToken: .string(mfaToken),
            MFAFields.challengeType: .text(types?.joined(separator: " ")),
            MFAFields.authenticatorID: .text(authenticatorId),
        ]
        return try await api.send(MultifactorChallenge.self, "POST", "/mfa/challenge", json: body)
    }

    /// Finishes a login with a TOTP code.
    public func login(withOTP otp: String, mfaToken: String) async throws(AuthenticationError) -> Credentials {
        try await token([
            TokenFields.grantType: .string(MFAGrant.otp), ClientFields.clientID: .string(configuration.clientID),
            TokenFields.mfaToken: .string(mfaToken), TokenFields.otp: .string(otp),
        ])
    }

    /// Finishes a login with a code sent out of band (SMS): `bindingCode` is what the user typed.
    public func login(withOOBCode oobCode: String, mfaToken: String, bindingCode: String? = nil)
        async throws(AuthenticationError) -> Credentials
    {
        try await token([
            TokenFields.grantType: .string(MFAGrant.oob), ClientFields.clientID: .string(configuration.clientID),
            TokenFields.mfaToken: .string(mfaToken), TokenFields.oobCode: .string(oobCode),
            TokenFields.bindingCode: .text(bindingCode),
        ])
    }

    /// Finishes a login with a recovery code; `Credentials.recoveryCode` is the new one.
    public func login(withRecoveryCode recoveryCode: String, mfaToken: String) async throws(AuthenticationError)
        -> Credentials
    {
        try await token([
            TokenFields.grantType: .string(MFAGrant.recoveryCode),
            ClientFields.clientID: .string(configuration.clientID),
            TokenFields.mfaToken: .string(mfaToken), TokenFields.recoveryCode: .string(recoveryCode),
        ])
    }

    /// Enrolls a factor (`POST /mfa/associate`) with an mfa token (a user with no factor yet) or
    /// an MFA API access token with `enroll`: `otp`, or `oob` with `phoneNumber` for SMS.
    public func multifactorEnroll(
        token: String, type: String, phoneNumber: String? = nil
    ) async throws(AuthenticationError) -> MultifactorEnrollment {
        var body: WireBody = [
            ClientFields.clientID: .string(configuration.clientID),
            MFAFields.authenticatorTypes: .array([.string(type)]),
        ]
        if let phoneNumber {
            body[MFAFields.oobChannels] = .array(["sms"])
            body[MFAFields.phoneNumber] = .string(phoneNumber)
        }
        return try await api.send(MultifactorEnrollment.self, "POST", "/mfa/associate", json: body, bearer: token)
    }

    /// The user's factors (`GET /mfa/authenticators`), with an mfa token or an MFA API access token.
    public func multifactorAuthenticators(token: String) async throws(AuthenticationError)
        -> [MultifactorAuthenticator]
    {
        try await api.send([MultifactorAuthenticator].self, "GET", "/mfa/authenticators", bearer: token)
    }
}

extension AuthenticationError {
    /// `mfa_required`: the password was right; a second factor is needed (`mfaRequiredPayload`).
    public var isMultifactorRequired: Bool { code == "mfa_required" || code == "a0.mfa_required" }

    /// A wrong username or password (Auth0's exact text; unknown users get the same).
    public var isInvalidCredentials: Bool {
        code == "invalid_user_password"
            || (code == "invalid_grant" && errorDescription == "Wrong email or password.")
            || errorDescription == "Wrong username or password."
    }

    /// Too many failed attempts for this account from this address.
    public var isTooManyAttempts: Bool { code == "too_many_attempts" }

    /// The password is in a breach and the tenant blocks it.
    public var isPasswordLeaked: Bool { code == "password_leaked" }

    /// The password does not meet the connection's rules (`passwordPolicy` says which).
    public var isPasswordNotStrongEnough: Bool {
        (code == "invalid_password" && bodyName == "PasswordStrengthError") || code == "password_strength_error"
    }

    /// A wrong TOTP code.
    public var isMultifactorCodeInvalid: Bool {
        code == "a0.mfa_invalid_code" || (code == "invalid_grant" && errorDescription == "Invalid otp_code.")
    }

    /// An mfa token that is malformed, unknown, spent or expired: sign in again.
    public var isMultifactorTokenInvalid: Bool {
        (code == "expired_token" && errorDescription == "mfa_token is expired")
            || (code == "invalid_grant" && errorDescription == "Malformed mfa_token")
    }

    /// The payload of `mfa_required`.
    public var mfaRequiredPayload: MFARequiredErrorPayload? {
        guard isMultifactorRequired, let object = bodyObject, let token = object["mfa_token"] as? String else {
            return nil
        }
        let requirements = object["mfa_requirements"] as? [String: Any] ?? [:]
        func types(_ key: String) -> [String] {
            (requirements[key] as? [[String: Any]] ?? []).compactMap { $0["type"] as? String }
        }
        return MFARequiredErrorPayload(mfaToken: token, challenge: types("challenge"), enroll: types("enroll"))
    }

    /// For a weak password: the connection's policy as text, one rule a line.
    public var passwordPolicy: String? { bodyObject?["policy"] as? String }

    private var bodyObject: [String: Any]? {
        body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    private var bodyName: String? { bodyObject?["name"] as? String }
}
