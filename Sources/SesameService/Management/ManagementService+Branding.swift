import Foundation
import SesameStore

/// The texts of the hosted pages a tenant may replace (`branding.texts`), per language.
public enum BrandingText: String, Sendable, CaseIterable {
    case loginTitle = "login.title"
    case loginLead = "login.lead"
    case signupTitle = "signup.title"
    case signupLead = "signup.lead"
    case footer
}

/// What `PATCH /api/v2/branding` changes: each field kept, set or removed (JSON null).
public struct BrandingPatch: Sendable {
    public var primaryColor: FieldChange<String> = .keep
    public var pageBackground: FieldChange<String> = .keep
    public var logoURL: FieldChange<String> = .keep
    /// Replaces every text override when given.
    public var texts: [String: [String: String]]?
    public init() {}
}

/// `GET /api/v2/branding`: Auth0's `colors` and `logo_url`, and Sesame's `texts`.
public struct ManagedBranding: Encodable, Sendable {
    public struct Colors: Encodable, Sendable {
        public var primary: String?
        public var pageBackground: String?
        enum CodingKeys: String, CodingKey {
            case primary
            case pageBackground = "page_background"
        }
    }

    public var colors: Colors
    public var logoURL: String?
    public var texts: [String: [String: String]]

    enum CodingKeys: String, CodingKey {
        case colors
        case logoURL = "logo_url"
        case texts
    }

    init(_ settings: BrandingSettings?) {
        colors = Colors(primary: settings?.primaryColor, pageBackground: settings?.pageBackground)
        logoURL = settings?.logoURL
        texts = settings?.texts ?? [:]
    }
}

/// `/api/v2/branding`: the hosted pages' colours, logo and texts (the tenant-settings scopes).
extension ManagementService {
    public func branding(_ caller: ManagementCaller) throws(ServiceError) -> ManagedBranding {
        try caller.require(.readTenantSettings)
        return try access.read { ManagedBranding(try Self.currentTenant(caller, $0).branding) }
    }

    public func updateBranding(_ caller: ManagementCaller, _ patch: BrandingPatch) throws(ServiceError)
        -> ManagedBranding
    {
        try caller.require(.updateTenantSettings)
        let now = clock.now()
        return try access.write(.durable) { transaction in
            var tenant = try Self.currentTenant(caller, transaction)
            var settings = tenant.branding ?? BrandingSettings()
            settings.primaryColor = try Self.apply(
                patch.primaryColor, settings.primaryColor, "colors.primary", Self.color)
            settings.pageBackground = try Self.apply(
                patch.pageBackground, settings.pageBackground, "colors.page_background", Self.color)
            settings.logoURL = try Self.apply(patch.logoURL, settings.logoURL, "logo_url") {
                value, field throws(ServiceError) in try Self.logo(value, field, tenant: tenant)
            }
            if let texts = patch.texts { settings.texts = try Self.brandingTexts(texts) }
            let empty = settings == BrandingSettings()
            tenant.branding = empty ? nil : settings
            tenant.updatedAt = now
            try transaction.tenants.update(tenant)
            return ManagedBranding(tenant.branding)
        }
    }

    private static func apply(
        _ change: FieldChange<String>, _ current: String?, _ field: String,
        _ check: (String, String) throws(ServiceError) -> String
    ) throws(ServiceError) -> String? {
        switch change {
        case .keep: return current
        case .remove: return nil
        case .set(let value): return try check(value, field)
        }
    }

    /// `#rrggbb`, kept in lowercase.
    static func color(_ value: String, _ field: String) throws(ServiceError) -> String {
        let bytes = Array(value.utf8)
        guard bytes.count == 7, bytes[0] == UInt8(ascii: "#"), bytes.dropFirst().allSatisfy({ $0.isHexDigit }) else {
            throw .invalidRequest("\(field) must be a colour as #rrggbb")
        }
        return value.lowercased()
    }

    /// An absolute https URL (http only when the tenant itself is on http, as a local one is),
    /// with nothing a page or a CSP header could be broken out of.
    static func logo(_ value: String, _ field: String, tenant: TenantRecord) throws(ServiceError) -> String {
        guard value.utf8.count <= 2_048, let components = URLComponents(string: value),
            let scheme = components.scheme?.lowercased(), components.host.map({ !$0.isEmpty }) == true,
            scheme == "https" || (scheme == "http" && tenant.publicURL.hasPrefix("http://")),
            !value.utf8.contains(where: {
                $0 <= 0x20 || $0 == 0x22 || $0 == 0x27 || $0 == 0x3B || $0 == 0x2C || $0 >= 0x7F
            })
        else { throw .invalidRequest("\(field) must be an https URL") }
        return value
    }

    static func brandingTexts(_ texts: [String: [String: String]]) throws(ServiceError) -> [String: [String: String]] {
        let languages = ["en", "ja"]
        for (key, byLanguage) in texts {
            guard BrandingText(rawValue: key) != nil else {
                throw .invalidRequest(
                    "texts.\(key.prefix(64)) is not a text the pages let you replace "
                        + "(\(BrandingText.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            for (language, text) in byLanguage {
                guard languages.contains(language) else {
                    throw .invalidRequest("texts.\(key).\(language.prefix(16)) must be en or ja")
                }
                _ = try TextRules.text(text, "texts.\(key).\(language)", max: 200)
            }
        }
        return texts.filter { !$0.value.isEmpty }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
