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

/// The audit log's and the tenant settings' schemas against the code: the closed vocabularies are
/// the Swift enums' cases, and what the server answers has exactly the documented members.
@Suite struct OpenAPIAuditSchemaTests {
    static func schema(_ document: [String: Any], _ name: String) throws -> [String: Any] {
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        return try #require(schemas[name] as? [String: Any], "no schema \(name)")
    }

    static func properties(_ schema: [String: Any]) throws -> [String: [String: Any]] {
        try #require(schema["properties"] as? [String: [String: Any]])
    }

    static func enumeration(_ schema: [String: Any]?) -> [String] { schema?["enum"] as? [String] ?? [] }

    @Test func theClosedVocabulariesAreTheEnumsCases() throws {
        let document = try OpenAPIDocumentTests.document()
        let event = try Self.properties(try Self.schema(document, "LogEvent"))
        #expect(Self.enumeration(event["type"]) == AuditEventType.allCases.map(\.rawValue))
        let details = try Self.properties(try #require(event["details"]))
        #expect(Self.enumeration(details["reason"]) == AuditReason.allCases.map(\.rawValue))
        #expect(Self.enumeration(details["method"]) == AuthEventMethod.allCases.map(\.rawValue))
        let request = try Self.properties(try #require(details["request"]))
        #expect(Self.enumeration(request["method"]) == AuditRequestMethod.allCases.map(\.rawValue))
        // The connection option, on both the create and the update body.
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for (path, method) in [("/api/v2/connections", "post"), ("/api/v2/connections/{id}", "patch")] {
            let operation = try #require(paths[path]?[method] as? [String: Any])
            let body = try #require(
                ((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"]
                    as? [String: Any])
            let schema = try #require(body["schema"] as? [String: Any])
            // A database connection's options: the create body's first form (a user directory;
            // Apple's is the second), or on the update body the first form of `options`.
            let options: [String: [String: Any]]
            if let bodies = schema["oneOf"] as? [[String: Any]] {
                let directory = try Self.properties(try #require(bodies.first))
                options = try Self.properties(try #require(directory["options"]))
            } else {
                let forms = try #require(try Self.properties(schema)["options"]?["oneOf"] as? [[String: Any]])
                options = try Self.properties(try #require(forms.first))
            }
            let passkey = try Self.properties(try #require(options["passkey_options"]))
            #expect(
                Self.enumeration(passkey["attestation_requirement"]) == AttestationRequirement.allCases.map(\.rawValue),
                "\(method) \(path)")
        }
        // The logs operations name the scopes they need.
        let logs = try #require(paths["/api/v2/logs"]?["get"] as? [String: Any])
        #expect((logs["security"] as? [[String: [String]]]) == [["managementToken": ["read:logs"]]])
    }

    /// `object`'s members are all documented, and every required member is there.
    static func conforms(_ object: [String: Any], to schema: [String: Any], _ name: String) throws {
        let documented = Set(try properties(schema).keys)
        let required = Set(schema["required"] as? [String] ?? [])
        #expect(Set(object.keys).subtracting(documented).isEmpty, "\(name): undocumented \(object.keys.sorted())")
        #expect(required.subtracting(object.keys).isEmpty, "\(name): missing \(required.subtracting(object.keys))")
    }

    @Test(arguments: [HarnessStore.memory, .sqlite])
    func theAnswersHaveTheDocumentedMembers(_ kind: HarnessStore) throws {
        let document = try OpenAPIDocumentTests.document()
        let api = try APIHarness(store: kind)
        let token = try api.managementToken()
        let patched = api.send(
            .patch, "/api/v2/tenant/settings", json: #"{"audit_log_retention_days":90}"#, token: token)
        #expect(patched.status == 200)
        #expect(patched.json["audit_log_retention_days"] as? Int == 90)
        let settings = try Self.schema(document, "TenantSettings")
        try Self.conforms(patched.json, to: settings, "PATCH tenant settings")
        try Self.conforms(api.send(.get, "/api/v2/tenant/settings", token: token).json, to: settings, "settings")
        #expect(
            api.send(.patch, "/api/v2/tenant/settings", json: #"{"audit_log_retention_days":3651}"#, token: token)
                .status == 400)
        // A login refused and a Management write: entries with a user, a reason and a request.
        #expect(
            PasswordAccountsTests.signUp(api, email: "doc@example.com", password: "a fine pass phrase 9").status == 200)
        #expect(
            PasswordAccountsTests.logIn(api, username: "doc@example.com", password: "not the one 12345").status == 403)
        api.application.flush()
        let totals = api.send(.get, "/api/v2/logs?include_totals=true", token: token)
        #expect(totals.status == 200)
        let list = try Self.schema(document, "LogList")
        let wrapped = try #require((list["oneOf"] as? [[String: Any]])?.last)
        try Self.conforms(totals.json, to: wrapped, "logs with totals")
        let entries = try #require(totals.json["logs"] as? [[String: Any]])
        let types = Set(entries.compactMap { $0["type"] as? String })
        #expect(types.isSuperset(of: ["ss", "fp", "sapi"]), "\(types)")
        let event = try Self.schema(document, "LogEvent")
        let members = try Self.properties(event)
        let details = try #require(members["details"])
        let pattern = try Regex(try #require(members["log_id"]?["pattern"] as? String))
        for entry in entries {
            try Self.conforms(entry, to: event, "entry")
            try Self.conforms(try #require(entry["details"] as? [String: Any]), to: details, "details")
            #expect((entry["log_id"] as? String)?.wholeMatch(of: pattern) != nil)
        }
    }
}
