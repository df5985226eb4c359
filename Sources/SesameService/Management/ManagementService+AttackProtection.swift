import Foundation
import SesameStore

/// `/api/v2/attack-protection/breached-password-detection` in Auth0's shape, with Sesame's
/// `range_url` (an HIBP-style range endpoint asked with the `enhanced` method).
public struct ManagedBreachDetection: Codable, Sendable, Equatable {
    public struct Stage: Codable, Sendable, Equatable {
        public var shields: [String]
    }
    public struct Stages: Codable, Sendable, Equatable {
        public var preUserRegistration: Stage
        public var preChangePassword: Stage
        enum CodingKeys: String, CodingKey {
            case preUserRegistration = "pre-user-registration"
            case preChangePassword = "pre-change-password"
        }
    }
    public var enabled: Bool
    public var shields: [String]
    public var adminNotificationFrequency: [String]
    public var method: String
    public var stage: Stages
    public var rangeURL: String?
    enum CodingKeys: String, CodingKey {
        case enabled, shields, method, stage
        case adminNotificationFrequency = "admin_notification_frequency"
        case rangeURL = "range_url"
    }

    init(_ settings: BreachedPasswordSettings) {
        enabled = settings.enabled
        shields = settings.shields.map(\.rawValue)
        adminNotificationFrequency = settings.adminNotificationFrequency.map(\.rawValue)
        method = settings.method.rawValue
        stage = Stages(
            preUserRegistration: Stage(shields: settings.signupShields.map(\.rawValue)),
            preChangePassword: Stage(shields: settings.changePasswordShields.map(\.rawValue)))
        rangeURL = settings.rangeURL
    }
}

/// A PATCH of the breached-password settings; nil leaves a field as it is.
public struct BreachDetectionPatch: Sendable {
    public var enabled: Bool?
    public var shields: [String]?
    public var adminNotificationFrequency: [String]?
    public var method: String?
    public var signupShields: [String]?
    public var changePasswordShields: [String]?
    public var rangeURL: FieldChange<String>
    public init(
        enabled: Bool? = nil, shields: [String]? = nil, adminNotificationFrequency: [String]? = nil,
        method: String? = nil, signupShields: [String]? = nil, changePasswordShields: [String]? = nil,
        rangeURL: FieldChange<String> = .keep
    ) {
        self.enabled = enabled
        self.shields = shields
        self.adminNotificationFrequency = adminNotificationFrequency
        self.method = method
        self.signupShields = signupShields
        self.changePasswordShields = changePasswordShields
        self.rangeURL = rangeURL
    }
}

extension ManagementService {
    /// `GET /attack-protection/breached-password-detection`.
    public func breachDetection(_ caller: ManagementCaller) throws(ServiceError) -> ManagedBreachDetection {
        try caller.require(.readAttackProtection)
        return ManagedBreachDetection(try currentTenant(caller).breachedPasswords)
    }

    /// `PATCH /attack-protection/breached-password-detection`.
    public func updateBreachDetection(
        _ caller: ManagementCaller, _ patch: BreachDetectionPatch
    ) throws(ServiceError) -> ManagedBreachDetection {
        try caller.require(.updateAttackProtection)
        typealias V = ManagementValidation
        func shields(_ values: [String], _ field: String, allowed: Set<BreachShield>) throws(ServiceError)
            -> [BreachShield]
        {
            let parsed = try V.list(values, field, max: BreachShield.allCases.count) {
                value, item throws(ServiceError) in
                try V.oneOf(value, item, as: BreachShield.self).rawValue
            }.compactMap(BreachShield.init(rawValue:))
            if let extra = parsed.first(where: { !allowed.contains($0) }) {
                throw .invalidRequest("\(field) cannot hold \(extra.rawValue)")
            }
            return BreachShield.allCases.filter(parsed.contains)
        }
        var result = BreachedPasswordSettings()
        try updateTenant(caller) { tenant in
            var settings = tenant.breachedPasswords
            if let enabled = patch.enabled { settings.enabled = enabled }
            if let values = patch.shields {
                settings.shields = try shields(values, "shields", allowed: Set(BreachShield.allCases))
            }
            if let values = patch.signupShields {
                settings.signupShields = try shields(
                    values, "stage.pre-user-registration.shields", allowed: [.block, .adminNotification])
            }
            if let values = patch.changePasswordShields {
                settings.changePasswordShields = try shields(
                    values, "stage.pre-change-password.shields", allowed: [.block, .adminNotification])
            }
            if let values = patch.adminNotificationFrequency {
                let parsed = try V.list(values, "admin_notification_frequency", max: 4) {
                    value, item throws(ServiceError) in
                    try V.oneOf(value, item, as: BreachNotificationFrequency.self).rawValue
                }.compactMap(BreachNotificationFrequency.init(rawValue:))
                settings.adminNotificationFrequency = BreachNotificationFrequency.allCases.filter(parsed.contains)
            }
            if let method = patch.method { settings.method = try V.oneOf(method, "method", as: BreachMethod.self) }
            switch patch.rangeURL {
            case .keep: break
            case .remove: settings.rangeURL = nil
            case .set(let url): settings.rangeURL = try Self.rangeURL(url)
            }
            if settings.method == .enhanced, settings.rangeURL == nil {
                throw ServiceError.invalidRequest("method enhanced needs range_url, the range endpoint to ask")
            }
            tenant.breachedPasswords = settings
            result = settings
        }
        return ManagedBreachDetection(result)
    }

    /// An https URL the five hex digits are appended to (http only on a loopback host, for tests).
    static func rangeURL(_ text: String) throws(ServiceError) -> String {
        guard text.utf8.count <= 512, let url = URL(string: text), let host = url.host, url.query == nil,
            url.fragment == nil,
            url.scheme == "https" || (url.scheme == "http" && ["127.0.0.1", "localhost", "::1"].contains(host))
        else {
            throw .invalidRequest(
                "range_url must be an https URL without query or fragment (http only on a loopback host)")
        }
        return text
    }
}
