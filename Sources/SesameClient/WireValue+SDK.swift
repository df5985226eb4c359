import Foundation
import SesameWire

extension WireValue {
    /// A JSON object from `data` (a passkey credential), embedded as it is; throws when it is not
    /// a JSON object.
    static func raw(_ data: Data, what: String) throws(AuthenticationError) -> WireValue {
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw AuthenticationError.passkey("\(what) is not a JSON object")
        }
        return .verbatim(String(decoding: data, as: UTF8.self))
    }

    /// The JSON of an `Encodable` wire type, embedded as it is.
    static func encoded(_ value: some Encodable, what: String) throws(AuthenticationError) -> WireValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return .verbatim(String(decoding: try encoder.encode(value), as: UTF8.self))
        } catch {
            throw AuthenticationError.invalidResponse("cannot encode \(what): \(error)")
        }
    }
}
