import SesameService
import WebAuthn

/// The one place service errors become HTTP statuses (docs/api.md's error table).
extension ServiceError: HTTPErrorConvertible {
    public var httpError: HTTPError {
        switch self {
        case .invalidRequest, .invalidGrant, .unsupportedGrantType, .invalidScope, .invalidSignup:
            return HTTPError(status: 400, error: code, description: message)
        case .invalidDPoPProof:
            return HTTPError(status: 400, error: code, description: message)
        case .useDPoPNonce(_, let nonce):
            return HTTPError(status: 400, error: code, description: message, headers: ["DPoP-Nonce": nonce])
        case .dpopChallenge(let challenge, _, let nonce):
            var headers: HTTPHeaders = [
                "WWW-Authenticate":
                    #"DPoP error="\#(challenge.rawValue)", algs="\#(DPoPVerifier.algorithmNames)""#
            ]
            if let nonce { headers.add(name: "DPoP-Nonce", value: nonce) }
            return HTTPError(status: 401, error: code, description: message, headers: headers)
        case .invalidClient:
            // The Basic challenge is added only for clients that used Basic (OAuthRoutes): sent to a
            // client that did not, FoundationNetworking's URLSession waits for an auth delegate.
            return HTTPError(status: 401, error: code, description: message)
        case .invalidToken:
            return HTTPError(
                status: 401, error: code, description: message,
                headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
        case .unauthorizedClient, .deletedUserGrant:
            return HTTPError(status: 403, error: code, description: message)
        case .insufficientScope:
            return HTTPError(
                status: 403, error: code, description: message,
                headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope""#])
        case .notFound:
            return HTTPError(status: 404, error: code, description: message)
        case .conflict:
            return HTTPError(status: 409, error: code, description: message)
        case .alreadyRegistered(let provider):
            return HTTPError(
                status: 409, error: code, description: message,
                members: [JSONMember(name: "provider", value: .string(provider))])
        case .tooManyRequests(_, let seconds), .tooManyAttempts(_, let seconds):
            return HTTPError(
                status: 429, error: code, description: message, headers: ["Retry-After": String(max(1, seconds))])
        case .unavailable:
            return HTTPError(status: 503, error: code, description: message, headers: ["Retry-After": "1"])
        case .wrongCredentials:
            return HTTPError(status: 403, error: code, description: message)
        case .userBlocked, .passwordLeaked, .reauthenticationRequired:
            return HTTPError(status: 401, error: code, description: message)
        case .insufficientUserAuthentication(let shortfall):
            // RFC 9470 §3: the challenge names the age, and the multi-factor ACR when that is missing.
            var challenge = #"Bearer error="insufficient_user_authentication""#
            switch shortfall {
            case .stale(let maxAge): challenge += ", max_age=\(maxAge)"
            case .secondFactor(let maxAge):
                challenge += #", acr_values="\#(AuthenticationContext.multiFactor)", max_age=\#(maxAge)"#
            }
            return HTTPError(
                status: 401, error: code, description: message, headers: ["WWW-Authenticate": challenge])
        case .mfaRefused:
            return HTTPError(status: 403, error: code, description: message)
        case .mfaRequired(let token, let requirement):
            return HTTPError(
                status: 403, error: code, description: message,
                members: [JSONMember(name: "mfa_token", value: .string(token)), Self.requirementMember(requirement)])
        case .unknownCredential(let rpID, let credentialID):
            return HTTPError(
                status: 400, error: code, description: message,
                members: [
                    JSONMember(
                        name: "unknown_credential",
                        value: .object([
                            JSONMember(name: "rp_id", value: .string(rpID)),
                            JSONMember(name: "credential_id", value: .string(credentialID)),
                        ]))
                ])
        case .signupRefused(let refusal):
            return HTTPError(status: 400, error: code, description: message, members: Self.members(refusal))
        case .stepUpRequired(let token, let types, let requirement):
            var members = [JSONMember(name: "challenge_types", value: .array(types.map(JSONValue.string)))]
            if let token { members.append(JSONMember(name: "mfa_token", value: .string(token))) }
            if let requirement { members.append(Self.requirementMember(requirement)) }
            return HTTPError(status: 403, error: code, description: message, members: members)
        case .upgradeNotAllowed(let reason):
            return HTTPError(
                status: 403, error: code, description: message,
                members: [JSONMember(name: "reason", value: .string(reason.rawValue))])
        case .passwordReplaced:
            return HTTPError(status: 403, error: code, description: message)
        case .identityAlreadyLinked:
            return HTTPError(status: 409, error: code, description: message)
        }
    }

    /// Auth0's `mfa_requirements`: `{"challenge": [{"type": "otp"}, …]}` or `{"enroll": […]}`.
    static func requirementMember(_ requirement: MFARequirement) -> JSONMember {
        JSONMember(
            name: "mfa_requirements",
            value: .object([
                JSONMember(
                    name: requirement.kind.rawValue,
                    value: .array(requirement.types.map { .object([JSONMember(name: "type", value: .string($0))]) }))
            ]))
    }

    /// What a refusal adds to the body: for a weak password, Auth0's `PasswordStrengthError` with
    /// one entry per rule and the policy as text.
    static func members(_ refusal: SignupRefusal) -> [JSONMember] {
        if refusal == .passwordReused {
            return [
                JSONMember(name: "name", value: .string("PasswordHistoryError")),
                JSONMember(name: "message", value: .string("Password has previously been used")),
            ]
        }
        guard case .weakPassword(_, let verdicts) = refusal else { return [] }
        return [
            JSONMember(name: "name", value: .string("PasswordStrengthError")),
            JSONMember(name: "message", value: .string("Password is too weak")),
            JSONMember(
                name: "description",
                value: .object([
                    JSONMember(name: "rules", value: .array(verdicts.map(json))),
                    JSONMember(name: "verified", value: .bool(false)),
                ])),
            JSONMember(name: "policy", value: .string(PasswordRuleVerdict.policy(verdicts))),
        ]
    }

    private static func json(_ verdict: PasswordRuleVerdict) -> JSONValue {
        var members = [
            JSONMember(name: "message", value: .string(verdict.message)),
            JSONMember(name: "code", value: .string(verdict.code)),
        ]
        if !verdict.format.isEmpty {
            members.append(JSONMember(name: "format", value: .array(verdict.format.map { .number(String($0)) })))
        }
        if !verdict.items.isEmpty {
            members.append(JSONMember(name: "items", value: .array(verdict.items.map(json))))
        }
        members.append(JSONMember(name: "verified", value: .bool(verdict.verified)))
        return .object(members)
    }
}
