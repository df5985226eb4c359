import Foundation
import SesameWire
import Testing
import WebAuthn

@testable import SesameHTTP

/// The committed `openapi.json` is what `OpenAPIGenerator` makes of it and the router: every
/// request body a route declares is rendered from its table. After changing a table, write the
/// document again with `make openapi` (this suite with `SESAME_WRITE_OPENAPI=1`) and commit it.
@Suite struct OpenAPIGenerationTests {
    static let documentPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SesameHTTP/OpenAPI/openapi.json")

    static func parsed(_ bytes: [UInt8]) throws -> JSONValue {
        try JSONReader.parse(bytes, limits: JSONReader.Limits(maxDepth: 64, maxMembers: 4_096, maxValues: 1_000_000))
    }

    @Test func theCommittedDocumentIsTheGeneratedOne() throws {
        // The file as it is on disk (the binary embeds the copy of its last build).
        let committed = Array(try Data(contentsOf: Self.documentPath))
        let generated = OpenAPIGenerator.text(
            OpenAPIGenerator.generated(try Self.parsed(committed), router: try OpenAPIDocumentTests.fullRouter()))
        if ProcessInfo.processInfo.environment["SESAME_WRITE_OPENAPI"] == "1" {
            try Data(generated.utf8).write(to: Self.documentPath)
            return
        }
        let committedText = String(decoding: committed, as: UTF8.self)
        guard generated != committedText else { return }
        let old = committedText.split(separator: "\n", omittingEmptySubsequences: false)
        let new = generated.split(separator: "\n", omittingEmptySubsequences: false)
        let line = (0..<min(old.count, new.count)).first { old[$0] != new[$0] } ?? min(old.count, new.count)
        Issue.record(
            """
            openapi.json is not what the router's tables generate (run `make openapi`); first \
            difference at line \(line + 1):
            committed: \(line < old.count ? old[line] : "(end)")
            generated: \(line < new.count ? new[line] : "(end)")
            """)
    }

    @Test func everyDeclaredBodyIsAnOperationOfTheDocument() throws {
        let router = try OpenAPIDocumentTests.fullRouter()
        let document = try OpenAPIDocumentTests.document()
        let operations = OpenAPIDocumentTests.documented(document)
        #expect(!router.requestBodies.isEmpty)
        for key in router.requestBodies.keys {
            #expect(
                operations.contains(OpenAPIDocumentTests.Operation(key.method.rawValue, key.pattern)),
                "\(key.method) \(key.pattern) declares a body but is not in the document")
        }
    }

    /// Every query parameter the document lists comes from a route's table: an operation whose
    /// route declares none lists none, and one that does lists exactly its table's.
    @Test func everyQueryParameterComesFromARoutesTable() throws {
        let router = try OpenAPIDocumentTests.fullRouter()
        let paths = try OpenAPIDocumentTests.document()["paths"] as? [String: [String: Any]] ?? [:]
        #expect(router.requestQueries.count >= 30)
        var declared: [OpenAPIGenerator.Key: [String]] = [:]
        for (key, query) in router.requestQueries {
            declared[OpenAPIGenerator.Key(key.method.rawValue.lowercased(), key.pattern)] = query.fields.map(\.name)
        }
        #expect(!paths.isEmpty)
        for (path, item) in paths {
            for (method, operation) in item {
                let parameters = (operation as? [String: Any])?["parameters"] as? [[String: Any]] ?? []
                let listed: [String] = parameters.compactMap { parameter in
                    parameter["in"] as? String == "query" ? parameter["name"] as? String : nil
                }
                let table: [String] = declared[OpenAPIGenerator.Key(method, path)] ?? []
                #expect(listed == table, "\(method) \(path) lists \(listed); its route declares \(table)")
            }
        }
    }

    @Test func aQueryTableRendersRequiredTypesAndDescriptions() throws {
        let query = RequestQuery([
            WireField("tx", .text(256)).requiredByService, WireField("page", .integer(0...9)),
            WireField("sort", .oneOf(["date:-1"]), description: "Newest first."),
        ])
        let path = JSONValue.object([
            JSONMember(name: "name", value: .string("id")), JSONMember(name: "in", value: .string("path")),
        ])
        let stale = JSONValue.object([
            JSONMember(name: "name", value: .string("old")), JSONMember(name: "in", value: .string("query")),
        ])
        let text = String(
            decoding: OpenAPIGenerator.parameters(query, after: [path, stale]).serialized, as: UTF8.self)
        #expect(
            text == #"[{"name":"id","in":"path"},"#
                + #"{"name":"tx","in":"query","required":true,"schema":{"type":"string","maxLength":256}},"#
                + #"{"name":"page","in":"query","required":false,"schema":{"type":"integer","minimum":0,"maximum":9}},"#
                + #"{"name":"sort","in":"query","required":false,"schema":{"enum":["date:-1"]},"description":"Newest first."}]"#
        )
    }

    @Test func aTableRendersItsLimitsRequiredMembersAndVocabularies() throws {
        let body = RequestBody.json([
            WireField("name", .string(maxLength: 64)).required,
            WireField("kind", .oneOf(["a", "b"]), nullable: true),
            WireField("tags", .array(.string(maxLength: 8), maxItems: 3)),
            WireField("nested", .object(WireObject([WireField("on", .boolean)]))),
        ])
        let text = String(decoding: OpenAPIGenerator.requestBody(body).serialized, as: UTF8.self)
        #expect(
            text == #"{"required":true,"content":{"application/json":{"schema":{"type":"object","properties":{"#
                + #""name":{"type":"string","minLength":1,"maxLength":64},"kind":{"enum":["a","b",null]},"#
                + #""tags":{"type":"array","items":{"type":"string","maxLength":8},"maxItems":3},"#
                + #""nested":{"type":"object","properties":{"on":{"type":"boolean"}},"additionalProperties":false}},"#
                + #""required":["name"],"additionalProperties":false}}}}"#)
    }

    /// A list with a least count, and text people see: 1 to N characters with nothing unsafe.
    @Test func aMinimumCountAndDisplayTextRender() throws {
        let body = RequestBody.json([
            WireField("types", .array(.oneOf(["otp"]), maxItems: 1, minItems: 1)),
            WireField("name", .displayText(300)),
            WireField("labels", .map(.characters(5), maxMembers: 2, keys: .string(maxLength: 3))),
        ])
        let text = String(decoding: OpenAPIGenerator.requestBody(body).serialized, as: UTF8.self)
        #expect(text.contains(#""types":{"type":"array","items":{"enum":["otp"]},"minItems":1,"maxItems":1}"#))
        #expect(
            text.contains(
                #""labels":{"type":"object","additionalProperties":{"type":"string","maxLength":5},"#
                    + #""propertyNames":{"type":"string","maxLength":3},"maxProperties":2}"#))
        let pattern = UnsafeText.pattern.replacingOccurrences(of: "\\", with: "\\\\")
        #expect(text.contains(#""name":{"type":"string","minLength":1,"maxLength":300,"pattern":""# + pattern + "\"}"))
    }
}
