import Foundation
import Testing

@testable import SesameClient

@Suite("FileCredentialsStore and Credentials")
struct CredentialsStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-creds-\(UUID().uuidString)")
    var path: String { directory.appendingPathComponent("nested/credentials.json").path }

    let credentials = Credentials(
        accessToken: "at-1", idToken: "id-1", refreshToken: "rt-1",
        expiresAt: Date(timeIntervalSince1970: 1_900_003_600), scope: "openid offline_access")

    @Test func savesWithMode0600AndReadsBack() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileCredentialsStore(path: path)
        #expect(try store.load() == nil)
        try store.save(credentials)
        #expect(try store.load() == credentials)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let parent = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("nested").path)
        #expect((parent[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        // Replaced whole: no temporary file is left beside it.
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("nested").path)
        #expect(names == ["credentials.json"])
        try store.clear()
        #expect(try store.load() == nil)
        try store.clear()  // clearing nothing is fine
    }

    @Test func aCorruptFileIsAnErrorAndIsLeftInPlace() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileCredentialsStore(path: path)
        try store.save(credentials)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.removeLast(5)  // truncated
        try bytes.write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: CredentialsStoreError.self) { _ = try store.load() }
        #expect(error?.kind == .corrupt)
        #expect(error?.message.contains(path) == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func anotherFormatIsCorrupt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileCredentialsStore(path: path)
        try store.save(credentials)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(of: "\"version\" : 1", with: "\"version\" : 2").write(
            toFile: path, atomically: false, encoding: .utf8)
        let error = #expect(throws: CredentialsStoreError.self) { _ = try store.load() }
        #expect(error?.message.contains("unsupported version 2") == true)
    }

    @Test func expiryHasALeewayAndAnInjectableNow() {
        let expiresAt = credentials.expiresAt
        #expect(!credentials.isExpired(now: expiresAt.addingTimeInterval(-61)))
        #expect(credentials.isExpired(now: expiresAt.addingTimeInterval(-60)))
        #expect(credentials.isExpired(now: expiresAt.addingTimeInterval(-5), leeway: 0) == false)
        #expect(credentials.isExpired(now: expiresAt, leeway: 0))
    }

    @Test func renewedKeepsWhatTheServerDidNotResend() {
        let renewed = credentials.renewed(
            with: .init(accessToken: "at-2", expiresIn: 60), receivedAt: Date(timeIntervalSince1970: 1_900_000_000))
        #expect(renewed.accessToken == "at-2")
        #expect(renewed.refreshToken == "rt-1")
        #expect(renewed.idToken == "id-1")
        #expect(renewed.expiresAt == Date(timeIntervalSince1970: 1_900_000_060))
    }

    @Test func theStoredFormUsesSecondsSince1970() throws {
        let json = try JSONEncoder().encode(credentials)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["expires_at"] as? Double == 1_900_003_600)
        #expect(try JSONDecoder().decode(Credentials.self, from: json) == credentials)
    }
}
