import Foundation
import SesameStore
import SesameWire

/// The `user_profile` of a signup request, before validation.
public struct SignupProfileInput: Sendable, Hashable {
    public var email: String?
    public var phoneNumber: String?
    public var username: String?
    /// The free-text attributes that were given.
    public var attributes: [ProfileAttribute: String]

    public init(
        email: String? = nil, phoneNumber: String? = nil, username: String? = nil,
        attributes: [ProfileAttribute: String] = [:]
    ) {
        self.email = email
        self.phoneNumber = phoneNumber
        self.username = username
        self.attributes = attributes
    }

    public init(
        email: String? = nil, phoneNumber: String? = nil, username: String? = nil, name: String? = nil,
        givenName: String? = nil, familyName: String? = nil, nickname: String? = nil, picture: String? = nil
    ) {
        let given: [(ProfileAttribute, String?)] = [
            (.name, name), (.givenName, givenName), (.familyName, familyName), (.nickname, nickname),
            (.picture, picture),
        ]
        self.init(
            email: email, phoneNumber: phoneNumber, username: username,
            attributes: Dictionary(uniqueKeysWithValues: given.compactMap { key, value in value.map { (key, $0) } }))
    }
}

/// Checks a signup profile against the connection's identifier policy and basic formats.
enum ProfileValidation {
    static let maxMetadataValues = 10
    static let maxMetadataKeyLength = 100
    static let maxMetadataValueLength = 500

    static func validate(
        _ input: SignupProfileInput, metadata: [String: String], policy: IdentifierPolicy
    ) throws(ServiceError) -> UserProfile {
        let email = try identifier(input.email.map(TextRules.email), "email", policy.email, valid: isEmail)
        let phone = try identifier(input.phoneNumber, "phone_number", policy.phoneNumber, valid: isE164)
        let username = try identifier(
            input.username.map(TextRules.username), "username", policy.username, valid: isUsername)
        if email == nil, phone == nil, username == nil {
            throw .invalidRequest("user_profile needs an identifier: email, phone_number or username")
        }
        var profile = UserProfile(email: email, emailVerified: false, phoneNumber: phone, username: username)
        for attribute in ProfileAttribute.allCases {
            profile[attribute] = try input.attributes[attribute].map { value throws(ServiceError) in
                try checked(attribute, value, in: "user_profile.")
            }
        }
        guard metadata.count <= maxMetadataValues else {
            throw .invalidRequest("user_metadata holds at most \(maxMetadataValues) values")
        }
        for (key, value) in metadata {
            try checkMetadata(key: key, value: value)
        }
        return profile
    }

    /// `value` for `attribute` as it is kept: text normalized and within its length, or an http(s)
    /// URL as given. `prefix` is where the field sits in the request (`user_profile.`).
    static func checked(_ attribute: ProfileAttribute, _ value: String, in prefix: String = "")
        throws(ServiceError) -> String
    {
        switch attribute.form {
        case .text:
            return try TextRules.text(value, prefix + attribute.rawValue, max: maxTextLength)
        case .url:
            guard isPictureURL(value) else {
                throw .invalidRequest("\(prefix)\(attribute.rawValue) must be an http(s) URL")
            }
            return value
        }
    }

    /// Names and nickname: at most this many characters (`TextRules.text`).
    static let maxTextLength = ProfileAttribute.maxTextLength

    /// An absolute http(s) URL of at most 2,048 bytes with nothing unsafe in it.
    static func isPictureURL(_ value: String) -> Bool {
        guard value.utf8.count <= ProfileAttribute.maxURLBytes, !TextRules.containsUnsafe(value),
            let url = URL(string: value)
        else {
            return false
        }
        return (url.scheme == "https" || url.scheme == "http") && url.host != nil
    }

    /// One `user_metadata` entry: a key of 1–100 characters with nothing unsafe, a value of at most
    /// 500 characters (Auth0's limits).
    static func checkMetadata(key: String, value: String?) throws(ServiceError) {
        if key.isEmpty || key.count > maxMetadataKeyLength || key.utf8.count > 4 * maxMetadataKeyLength
            || TextRules.containsUnsafe(key)
        {
            throw .invalidRequest(
                "user_metadata keys must be 1 to \(maxMetadataKeyLength) characters, with no control characters")
        }
        if let value, value.count > maxMetadataValueLength || value.utf8.count > 4 * maxMetadataValueLength {
            throw .invalidRequest(
                "user_metadata.\(key.prefix(100)) is longer than \(maxMetadataValueLength) characters")
        }
    }

    private static func identifier(
        _ value: String?, _ field: String, _ rule: IdentifierRule, valid: (String) -> Bool
    ) throws(ServiceError) -> String? {
        switch (value, rule) {
        case (nil, .required):
            throw .invalidRequest("user_profile.\(field) is required by this connection")
        case (nil, _):
            return nil
        case (.some, .disabled):
            throw .invalidRequest("user_profile.\(field) is not enabled for this connection")
        case (.some(let value), _):
            guard valid(value) else { throw .invalidRequest("user_profile.\(field) is not valid") }
            return value
        }
    }

    /// A pragmatic address check: one "@", non-empty local part and a dotted domain, no spaces and
    /// nothing `TextRules` refuses.
    static func isEmail(_ value: String) -> Bool {
        guard value.utf8.count <= 254, !value.contains(where: { $0.isWhitespace || $0.isNewline }),
            !TextRules.containsUnsafe(value)
        else { return false }
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64 else { return false }
        let domain = parts[1]
        guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..") else {
            return false
        }
        return true
    }

    /// E.164: "+" then 2 to 15 digits, not starting with 0.
    static func isE164(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        guard bytes.count >= 3, bytes.count <= 16, bytes[0] == UInt8(ascii: "+"), bytes[1] != UInt8(ascii: "0") else {
            return false
        }
        return bytes.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// 1–128 characters, letters, digits and `_ . - + @`.
    static func isUsername(_ value: String) -> Bool {
        guard !value.isEmpty, value.count <= 128 else { return false }
        return value.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) || "_.-+@".unicodeScalars.contains($0)
        }
    }

    /// The user's primary identifier (WebAuthn `user.name`).
    static func primaryIdentifier(_ profile: UserProfile) -> String {
        profile.email ?? profile.username ?? profile.phoneNumber ?? "user"
    }
}

extension UserProfile {
    /// The identifier a page shows and a passkey is named by: the email, else the username, else
    /// the phone number.
    public var primaryIdentifier: String { ProfileValidation.primaryIdentifier(self) }
}
