import SesameService
import WebAuthn

/// The OpenAPI document compiled into the binary, split once around its `servers` member so that
/// each answer only writes the tenant's URL between the two halves.
enum OpenAPIDocument {
    /// The document as it is in the repository.
    static let source: [UInt8] = PackageResources.openapi_json

    /// The document's members before `servers` (an open object, ending in `"servers":`) and after
    /// it (closing the object): compact JSON.
    static let halves: (head: [UInt8], tail: [UInt8]) = split(source)

    /// The document with `servers` set to the one URL.
    static func served(serverURL: String) -> [UInt8] {
        let servers = JSONValue.array([.object([JSONMember(name: "url", value: .string(serverURL))])])
        return halves.head + servers.serialized + halves.tail
    }

    /// `source` parsed and cut around `servers` (appended last when the document has none).
    static func split(_ bytes: [UInt8]) -> (head: [UInt8], tail: [UInt8]) {
        let limits = JSONReader.Limits(maxDepth: 64, maxMembers: 4_096, maxValues: 1_000_000)
        guard case .object(let members)? = try? JSONReader.parse(bytes, limits: limits) else {
            // Unreachable for the shipped document (a test parses it); answer it unchanged.
            return (bytes, [])
        }
        let index = members.firstIndex { $0.name == "servers" } ?? members.count
        var head = JSONValue.object(Array(members[..<index])).serialized
        head.removeLast()  // "}"
        if index > 0 { head.append(UInt8(ascii: ",")) }
        head += Array(#""servers":"#.utf8)
        let rest = Array(members[min(index + 1, members.count)...])
        var tail = JSONValue.object(rest).serialized
        tail.removeFirst()  // "{"
        if !rest.isEmpty { tail.insert(UInt8(ascii: ","), at: 0) }
        return (head, tail)
    }
}
