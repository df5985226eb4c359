import SesameStore

/// Which audit entry a token grant makes (Auth0's codes), and how a failure's reason is named.
enum TokenAudit {
    static func success(_ grant: OAuthGrantType) -> AuditEventType {
        switch grant {
        case .webAuthn, .deviceKey: return .successLogin
        case .password, .passwordRealm: return .successPasswordExchange
        case .refreshToken: return .successRefreshExchange
        case .clientCredentials: return .successClientCredentials
        case .authorizationCode: return .successCodeExchange
        case .mfaOTP: return .successOTPExchange
        case .mfaOOB: return .successOOBExchange
        case .mfaRecoveryCode: return .successRecoveryCodeExchange
        case .tokenExchange: return .successNativeSocial
        }
    }

    static func failure(_ grant: OAuthGrantType) -> AuditEventType {
        switch grant {
        case .webAuthn, .deviceKey: return .failedLogin
        case .password, .passwordRealm: return .failedPasswordExchange
        case .refreshToken: return .failedRefreshExchange
        case .clientCredentials: return .failedClientCredentials
        case .authorizationCode: return .failedCodeExchange
        case .mfaOTP: return .failedOTPExchange
        case .mfaOOB: return .failedOOBExchange
        case .mfaRecoveryCode: return .failedRecoveryCodeExchange
        case .tokenExchange: return .failedNativeSocial
        }
    }

    /// How the grant authenticates (nil: an authorization code, whose login was audited at /authorize).
    static func method(_ grant: OAuthGrantType) -> AuthEventMethod? {
        switch grant {
        case .webAuthn: return .passkey
        case .deviceKey: return .deviceKey
        case .password, .passwordRealm: return .password
        case .refreshToken: return .refreshToken
        case .clientCredentials: return .clientSecret
        case .authorizationCode: return nil
        case .mfaOTP: return .otp
        case .mfaOOB: return .sms
        case .mfaRecoveryCode: return .recoveryCode
        case .tokenExchange: return .apple
        }
    }

    /// The closed reason for `error` (its free text is never recorded).
    static func reason(_ error: ServiceError) -> AuditReason {
        switch error {
        case .invalidRequest, .unsupportedGrantType, .invalidSignup: return .invalidRequest
        case .invalidClient: return .invalidClient
        case .unauthorizedClient: return .unauthorizedClient
        case .invalidGrant, .passwordReplaced: return .invalidGrant
        case .deletedUserGrant: return .deletedUser
        case .invalidDPoPProof, .useDPoPNonce, .dpopChallenge: return .invalidDPoPProof
        case .invalidScope: return .invalidScope
        case .signupRefused(.userExists): return .userExists
        case .signupRefused(.passwordLeaked), .passwordLeaked: return .passwordLeaked
        case .signupRefused: return .weakPassword
        case .wrongCredentials: return .wrongPassword
        case .userBlocked: return .userBlocked
        case .tooManyAttempts, .tooManyRequests: return .tooManyAttempts
        case .mfaRefused, .mfaRequired, .stepUpRequired: return .mfaRefused
        case .unknownCredential: return .unknownCredential
        case .invalidToken, .insufficientScope, .reauthenticationRequired, .insufficientUserAuthentication,
            .upgradeNotAllowed:
            return .forbidden
        case .notFound: return .notFound
        case .conflict, .alreadyRegistered, .identityAlreadyLinked: return .conflict
        case .unavailable: return .unavailable
        }
    }
}
