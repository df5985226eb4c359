import Foundation
import SesameCrypto
import SesameService
import SesameStore
import Testing

@testable import SesameHTTP

/// The OpenAPI document (Sources/SesameHTTP/OpenAPI/openapi.json) against the router, both ways:
/// every registered route is documented and every documented operation is routed.
@Suite struct OpenAPIDocumentTests {
    /// One operation: an upper-case method and a path whose parameters are all written `{}`.
    struct Operation: Hashable, Comparable, CustomStringConvertible {
        let method: String
        let path: String

        init(_ method: String, _ path: String) {
            self.method = method.uppercased()
            self.path = Self.normalised(path)
        }

        /// `/api/v2/users/{id}/device-keys/{key_id}` → `/api/v2/users/{}/device-keys/{}`.
        static func normalised(_ path: String) -> String {
            path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix("{") && segment.hasSuffix("}") ? "{}" : String(segment)
            }.joined(separator: "/")
        }

        static func < (lhs: Self, rhs: Self) -> Bool { (lhs.path, lhs.method) < (rhs.path, rhs.method) }
        var description: String { "\(method) \(path)" }
    }

    /// The methods an OpenAPI path item may hold.
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// The operations of a parsed document.
    static func documented(_ document: [String: Any]) -> Set<Operation> {
        let paths = document["paths"] as? [String: [String: Any]] ?? [:]
        var operations = Set<Operation>()
        for (path, item) in paths {
            for method in methods where item[method] != nil { operations.insert(Operation(method, path)) }
        }
        return operations
    }

    /// The operations a router serves.
    static func routed(_ router: Router) -> Set<Operation> {
        Set(router.routeTable.map { Operation($0.method.rawValue, $0.pattern) })
    }

    /// What one side has and the other lacks.
    static func differences(router: Router, document: [String: Any]) -> (
        undocumented: [Operation], unrouted: [Operation]
    ) {
        let routed = routed(router)
        let documented = documented(document)
        return (routed.subtracting(documented).sorted(), documented.subtracting(routed).sorted())
    }

    static func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.source)) as? [String: Any])
    }

    /// The full router: `/metrics` is on the API listener only with a metrics token.
    static func fullRouter() throws -> Router {
        SesameApplication(
            store: InMemoryStore(), masterKey: try MasterKey(bytes: Array(repeating: 7, count: 32)),
            rateLimitPerMinute: 0, metricsToken: "metrics-token"
        ).router()
    }

    @Test func everyRouteIsDocumentedAndEveryDocumentedOperationIsRouted() throws {
        let (undocumented, unrouted) = Self.differences(router: try Self.fullRouter(), document: try Self.document())
        #expect(undocumented.isEmpty, "routes missing from openapi.json: \(undocumented)")
        #expect(unrouted.isEmpty, "operations in openapi.json that no route serves: \(unrouted)")
    }

    @Test func aRouteAddedWithoutItsOperationIsReported() throws {
        var router = try Self.fullRouter()
        router.get("/api/v2/undocumented/{id}") { _, _ in HTTPResponse(status: 204) }
        var document = try Self.document()
        var paths = try #require(document["paths"] as? [String: Any])
        paths["/api/v2/documented-only/{name}"] = ["delete": ["responses": [:]]]
        document["paths"] = paths
        let (undocumented, unrouted) = Self.differences(router: router, document: document)
        #expect(undocumented == [Operation("GET", "/api/v2/undocumented/{x}")])
        #expect(unrouted == [Operation("DELETE", "/api/v2/documented-only/{y}")])
    }

    @Test func theDocumentIsOpenAPI31WithUniqueOperationIDsAndResolvableReferences() throws {
        let document = try Self.document()
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var ids: [String] = []
        for item in paths.values {
            for method in Self.methods {
                guard let operation = item[method] as? [String: Any] else { continue }
                ids.append(try #require(operation["operationId"] as? String))
                #expect(operation["responses"] as? [String: Any] != nil)
            }
        }
        #expect(Set(ids).count == ids.count, "operationId values must be unique")
        // Every $ref names something in components; every link names an operation.
        let text = String(decoding: OpenAPIDocument.source, as: UTF8.self)
        let components = try #require(document["components"] as? [String: [String: Any]])
        let references = text.matches(of: /"\$ref": "#\/components\/([a-zA-Z]+)\/([A-Za-z0-9]+)"/)
        #expect(!references.isEmpty)
        for reference in references {
            let (kind, name) = (String(reference.output.1), String(reference.output.2))
            #expect(components[kind]?[name] != nil, "unresolved $ref \(kind)/\(name)")
        }
        for link in text.matches(of: /"operationId": "([A-Za-z0-9]+)",\s*"parameters"/) {
            #expect(ids.contains(String(link.output.1)), "link to an unknown operation \(link.output.1)")
        }
    }

    @Test(arguments: [HarnessStore.memory, .sqlite])
    func theDocumentIsServedWithTheTenantsURLAsItsServer(_ kind: HarnessStore) throws {
        let harness = try APIHarness(store: kind)
        let reply = harness.send(.get, "/openapi.json")
        #expect(reply.status == 200)
        #expect(reply.headers["Content-Type"] == "application/json")
        #expect(reply.headers["Cache-Control"] == "public, max-age=300")
        var served = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        let servers = try #require(served["servers"] as? [[String: Any]])
        #expect(servers.count == 1)
        #expect(servers.first?["url"] as? String == APIHarness.publicURL)
        // Everything else is the document as it is in the repository.
        var source = try Self.document()
        served["servers"] = nil
        source["servers"] = nil
        #expect(NSDictionary(dictionary: served).isEqual(to: source))
        // No tenant answers on another host: no document either.
        #expect(harness.send(.get, "/openapi.json", host: "other.test").status == 404)
    }

    @Test func theSplitKeepsEveryMemberAroundServers() throws {
        let halves = OpenAPIDocument.split(Array(#"{"a": 1, "servers": [{"url": "/"}], "b": [true]}"#.utf8))
        let joined = halves.head + Array(#"[{"url":"https://x"}]"#.utf8) + halves.tail
        #expect(String(decoding: joined, as: UTF8.self) == #"{"a":1,"servers":[{"url":"https://x"}],"b":[true]}"#)
        let none = OpenAPIDocument.split(Array(#"{"a": 1}"#.utf8))
        #expect(String(decoding: none.head + Array("[]".utf8) + none.tail, as: UTF8.self) == #"{"a":1,"servers":[]}"#)
    }
}
