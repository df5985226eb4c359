import Foundation
import SesameHTTP
import Testing

/// Audit item 1: a body of thousands of distinct fields cost a worker thread hundreds of
/// milliseconds in the duplicate check. Bodies are now capped in member count (JSON) and field
/// count (forms), and checked in linear time; `make bench` compares a hostile 64 KiB body with a
/// benign one. These tests pin the caps and the answer.
@Suite("Audit 1: request bodies cost linear time")
struct BodyAmplificationTests {
    /// `pieces` joined by `separator` between `prefix` and `suffix`, as many as fit in `bytes`.
    static func filled(
        _ bytes: Int, prefix: String = "", suffix: String = "", separator: String, _ piece: (Int) -> String
    ) -> String {
        var parts: [String] = []
        var size = prefix.utf8.count + suffix.utf8.count
        while true {
            let next = piece(parts.count)
            guard size + next.utf8.count + separator.utf8.count <= bytes else { break }
            parts.append(next)
            size += next.utf8.count + separator.utf8.count
        }
        return prefix + parts.joined(separator: separator) + suffix
    }

    /// A 64 KiB urlencoded body of distinct names, as the audit sent it.
    static func hostileForm() -> String { filled(64 * 1024, separator: "&") { "f\($0)=x" } }

    /// A 64 KiB JSON object of distinct member names.
    static func hostileJSON() -> String {
        filled(64 * 1024, prefix: "{", suffix: "}", separator: ",") { "\"m\($0)\":0" }
    }

    @Test func aFormWithThousandsOfFieldsIsRefusedAtTheCap() throws {
        let sesame = try InProcessSesame()
        let body = Self.hostileForm()
        #expect(body.utf8.count > 60_000)
        let response = sesame.send(.post, "/oauth/token", body: body, contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 400)
        let json = InProcessSesame.json(response)
        #expect(json["error"] as? String == "invalid_request")
        #expect((json["error_description"] as? String)?.contains("more than 64 fields") == true, "\(json)")
    }

    @Test func aFormAtTheCapIsReadFieldByField() throws {
        let sesame = try InProcessSesame()
        // 64 fields: under the cap, so the answer is about the fields themselves (unknown ones are
        // ignored, RFC 6749 §3.2; the grant type is missing).
        let body = (0..<64).map { "f\($0)=x" }.joined(separator: "&")
        let response = sesame.send(.post, "/oauth/token", body: body, contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 400)
        #expect(InProcessSesame.json(response)["error_description"] as? String == "grant_type is required")
    }

    @Test(arguments: ["/oauth/token", "/passkey/register", "/passkey/challenge", "/oauth/revoke"])
    func aJSONObjectWithThousandsOfMembersIsRefusedAtTheCap(route: String) throws {
        let sesame = try InProcessSesame()
        let response = sesame.send(.post, route, body: Self.hostileJSON())
        #expect(response.status == 400)
        let description = InProcessSesame.json(response)["error_description"] as? String ?? ""
        #expect(description.contains("more than 256 members"), "\(description)")
    }

    @Test func aRepeatedFormFieldIsStillRefused() throws {
        let sesame = try InProcessSesame()
        let body = (0..<40).map { "f\($0)=x" }.joined(separator: "&") + "&f3=y"
        let response = sesame.send(.post, "/oauth/token", body: body, contentType: "application/x-www-form-urlencoded")
        #expect(response.status == 400)
        #expect(InProcessSesame.json(response)["error_description"] as? String == "f3 is given twice")
    }
}
