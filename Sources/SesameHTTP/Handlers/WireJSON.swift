import SesameWire
import WebAuthn

/// A wire type the login and refresh paths answer with, written as JSON by hand: the same bytes
/// `JSONEncoder` with sorted keys and unescaped slashes writes, at a fraction of its cost, so no
/// Foundation encoder runs on those paths. `WireJSONTests` holds the two forms equal.
protocol WireJSONWritable {
    /// The value as JSON.
    var wireJSON: JSONValue { get }
    /// The same JSON as bytes (`wireJSON.serialized`; the hottest answers write them directly).
    var wireJSONBytes: [UInt8] { get }
}

extension WireJSONWritable {
    var wireJSONBytes: [UInt8] { wireJSON.serialized }
}

/// Writes one JSON object member by member, straight into bytes. The caller gives the members in
/// sorted key order (`WireJSONTests` holds the result equal to the `JSONValue` form).
struct WireObjectWriter {
    private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    private mutating func key(_ name: StaticString) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: "\":".utf8)
    }

    mutating func string(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        JSONValue.appendQuoted(value, to: &bytes)
    }

    mutating func integer(_ name: StaticString, _ value: Int) {
        key(name)
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func raw(_ name: StaticString, _ json: [UInt8]) {
        key(name)
        bytes.append(contentsOf: json)
    }

    mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

extension JSONValue {
    /// An object of the present members (nil values are left out, as `Codable` does), keys sorted.
    static func sortedObject(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(
            members.compactMap { name, value in value.map { JSONMember(name: name, value: $0) } }
                .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) })
    }

    static func integer(_ value: Int) -> JSONValue { .number(String(value)) }
}

extension TokenResponse: WireJSONWritable {
    var wireJSONBytes: [UInt8] {
        var writer = WireObjectWriter(
            capacity: 160 + accessToken.utf8.count + (idToken?.utf8.count ?? 0) + (refreshToken?.utf8.count ?? 0))
        writer.string("access_token", accessToken)
        writer.string("auth_method", authMethod?.rawValue)
        writer.integer("expires_in", expiresIn)
        writer.string("id_token", idToken)
        if let passkeyEnrollment { writer.raw("passkey_enrollment", passkeyEnrollment.wireJSON.serialized) }
        writer.string("password_status", passwordStatus?.rawValue)
        if let recommendedUpgrades {
            writer.raw(
                "recommended_upgrades", JSONValue.array(recommendedUpgrades.map { .string($0.rawValue) }).serialized)
        }
        writer.string("recovery_code", recoveryCode)
        writer.string("refresh_token", refreshToken)
        writer.string("scope", scope)
        writer.string("token_type", tokenType)
        return writer.finish()
    }

    var wireJSON: JSONValue {
        .sortedObject([
            ("access_token", .string(accessToken)), ("id_token", idToken.map(JSONValue.string)),
            ("refresh_token", refreshToken.map(JSONValue.string)), ("token_type", .string(tokenType)),
            ("expires_in", .integer(expiresIn)), ("scope", scope.map(JSONValue.string)),
            ("recovery_code", recoveryCode.map(JSONValue.string)),
            ("password_status", passwordStatus.map { .string($0.rawValue) }),
            ("recommended_upgrades", recommendedUpgrades.map { .array($0.map { .string($0.rawValue) }) }),
            ("auth_method", authMethod.map { .string($0.rawValue) }),
            ("passkey_enrollment", passkeyEnrollment?.wireJSON),
        ])
    }
}

extension PasskeyEnrollmentPrompt: WireJSONWritable {
    var wireJSON: JSONValue {
        .sortedObject([
            ("enroll_url", .string(enrollURL)), ("reason", .string(reason.rawValue)),
            ("recommended", .bool(recommended)),
        ])
    }
}

extension PasskeyCreationOptions.CredentialDescriptor: WireJSONWritable {
    var wireJSON: JSONValue {
        .sortedObject([
            ("type", .string(type)), ("id", .string(id)),
            ("transports", transports.map { .array($0.map(JSONValue.string)) }),
        ])
    }
}

extension PasskeyCreationOptions: WireJSONWritable {
    var wireJSON: JSONValue {
        .sortedObject([
            ("challenge", .string(challenge)), ("timeout", .integer(timeout)),
            ("rp", .sortedObject([("id", .string(rp.id)), ("name", .string(rp.name))])),
            (
                "pubKeyCredParams",
                .array(pubKeyCredParams.map { .sortedObject([("type", .string($0.type)), ("alg", .integer($0.alg))]) })
            ),
            (
                "authenticatorSelection",
                .sortedObject([
                    ("residentKey", .string(authenticatorSelection.residentKey)),
                    ("userVerification", .string(authenticatorSelection.userVerification)),
                ])
            ),
            (
                "user",
                .sortedObject([
                    ("id", .string(user.id)), ("name", .string(user.name)), ("displayName", .string(user.displayName)),
                ])
            ),
            ("excludeCredentials", excludeCredentials.map { .array($0.map(\.wireJSON)) }),
            ("attestation", attestation.map(JSONValue.string)),
        ])
    }
}

extension PasskeyRequestOptions: WireJSONWritable {
    var wireJSONBytes: [UInt8] {
        var writer = WireObjectWriter(capacity: 256)
        if let allowed = allowCredentials {
            writer.raw("allowCredentials", JSONValue.array(allowed.map(\.wireJSON)).serialized)
        }
        writer.string("challenge", challenge)
        writer.string("rpId", rpId)
        writer.integer("timeout", timeout)
        writer.string("userVerification", userVerification)
        return writer.finish()
    }

    var wireJSON: JSONValue {
        .sortedObject([
            ("challenge", .string(challenge)), ("timeout", .integer(timeout)), ("rpId", .string(rpId)),
            ("userVerification", .string(userVerification)),
            ("allowCredentials", allowCredentials.map { .array($0.map(\.wireJSON)) }),
        ])
    }
}

extension PasskeyChallengeResponse: WireJSONWritable where Options: WireJSONWritable {
    var wireJSONBytes: [UInt8] {
        var writer = WireObjectWriter(capacity: 320)
        writer.string("auth_session", authSession)
        writer.raw("authn_params_public_key", authnParamsPublicKey.wireJSONBytes)
        return writer.finish()
    }

    var wireJSON: JSONValue {
        .sortedObject([
            ("authn_params_public_key", authnParamsPublicKey.wireJSON), ("auth_session", .string(authSession)),
        ])
    }
}

extension HTTPResponse {
    /// `noStoreJSON` for a type written by hand (no Foundation encoder).
    static func noStoreWireJSON(_ value: some WireJSONWritable, status: Int = 200) -> HTTPResponse {
        var response = HTTPResponse.json(bytes: value.wireJSONBytes, status: status)
        response.headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        response.headers.replaceOrAdd(name: "Pragma", value: "no-cache")
        return response
    }
}
