import Foundation
import SesameClient
import SesameSoftwareAuthenticator
import SesameSoftwarePasskey
import Testing

/// The SDK over URLSession against a real server on loopback, with the software authenticator as
/// the device.
@Suite("SDK against a live server", .serialized)
struct SDKLiveTests {
    @Test func signUpLogInRefreshRotationUserInfoRevoke() async throws {
        let live = try LiveServer()
        let authentication = try live.authentication()
        let provider = live.provider()

        let signup = try await authentication.signUp(email: "ada@example.com", name: "Ada", provider: provider)
        let firstRefresh = try #require(signup.refreshToken)
        #expect(signup.tokenType == "Bearer")
        #expect(signup.idToken != nil)

        // Step by step, as an app using the lower-level calls does.
        let challenge = try await authentication.passkeyLoginChallenge()
        let assertion = try await provider.assert(challenge)
        let login = try await authentication.login(passkey: assertion, challenge: challenge)
        let info = try await authentication.userInfo(withAccessToken: login.accessToken)
        #expect(info.email == "ada@example.com")
        #expect(info.name == "Ada")
        let signupInfo = try await authentication.userInfo(withAccessToken: signup.accessToken)
        #expect(signupInfo.sub == info.sub)

        // Rotation: the new refresh token works, the spent one is refused as unauthorized.
        let renewed = try await authentication.renew(withRefreshToken: firstRefresh)
        let secondRefresh = try #require(renewed.refreshToken)
        #expect(secondRefresh != firstRefresh)
        #expect(renewed.accessToken != signup.accessToken)
        let reused = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.renew(withRefreshToken: firstRefresh)
        }
        #expect(reused?.kind == .unauthorized)
        #expect(reused?.code == "invalid_grant")
        #expect(reused?.statusCode == 400)

        // Revoke: the login's own refresh token stops working.
        let loginRefresh = try #require(login.refreshToken)
        try await authentication.revoke(refreshToken: loginRefresh)
        let revoked = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.renew(withRefreshToken: loginRefresh)
        }
        #expect(revoked?.isUnauthorized == true)
    }

    @Test func myAccountListRenameEnrollDelete() async throws {
        let live = try LiveServer()
        let phone = live.provider()
        let laptop = live.provider()
        _ = try await live.authentication().signUp(email: "grace@example.com", provider: phone)
        let account = try await live.myAccount(provider: phone)

        let initial = try await account.passkeys()
        #expect(initial.count == 1)
        let first = try #require(initial.first)
        #expect(first.id.hasPrefix("passkey|"))
        #expect(first.createdAt != nil)
        #expect(first.lastAuthAt != nil)  // the My Account login used it
        #expect(first.credentialDeviceType == "multi_device")

        let renamed = try await account.renamePasskey(id: first.id, name: "Phone")
        #expect(renamed.name == "Phone")
        #expect(renamed.id == first.id)

        let added = try await account.enrollPasskey(provider: laptop)
        let listed = try await account.passkeys()
        #expect(Set(listed.map(\.id)) == [first.id, added.id])
        #expect(listed.first { $0.id == first.id }?.name == "Phone")

        // Enrolling the same authenticator again is refused on the device (excludeCredentials).
        let duplicate = await #expect(throws: AuthenticationError.self) {
            _ = try await account.enrollPasskey(provider: laptop)
        }
        #expect(duplicate?.kind == .passkey)
        #expect(duplicate?.code == "InvalidStateError")

        // Delete the phone's passkey: the phone can no longer log in, the laptop can.
        try await account.deletePasskey(id: first.id)
        #expect(try await account.passkeys().map(\.id) == [added.id])
        let gone = await #expect(throws: AuthenticationError.self) {
            _ = try await live.authentication().logIn(provider: phone)
        }
        #expect(gone?.kind == .server)
        #expect(gone?.code == "invalid_grant")
        #expect(gone?.statusCode == 400)
        #expect(gone?.errorDescription.isEmpty == false)
        _ = try await live.authentication().logIn(provider: laptop)

        // The last passkey cannot be deleted.
        let last = await #expect(throws: AuthenticationError.self) { try await account.deletePasskey(id: added.id) }
        #expect(last?.statusCode == 409)
    }

    @Test func aWrongClientIsA401WithTheServersDescription() async throws {
        let live = try LiveServer()
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await live.authentication(clientID: "no-such-client").passkeyLoginChallenge()
        }
        #expect(error?.kind == .server)
        #expect(error?.statusCode == 401)
        #expect(error?.code == "invalid_client")
        #expect(error?.isUnauthorized == true)
        #expect(error?.errorDescription.isEmpty == false)
    }

    @Test func anExpiredAuthSessionIsInvalidGrant() async throws {
        let live = try LiveServer()
        let authentication = try live.authentication()
        let provider = live.provider()
        _ = try await authentication.signUp(email: "late@example.com", provider: provider)
        let challenge = try await authentication.passkeyLoginChallenge()
        let assertion = try await provider.assert(challenge)
        live.clock.advance(by: 61)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.login(passkey: assertion, challenge: challenge)
        }
        #expect(error?.code == "invalid_grant")
        #expect(error?.statusCode == 400)
        #expect(error?.isRetryable == false)
    }

    @Test func aStoppedServerFailsFastAsANetworkError() async throws {
        let live = try LiveServer()
        let authentication = try live.authentication()
        _ = try await authentication.passkeyLoginChallenge()
        live.server.stop(gracePeriod: 1)
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.passkeyLoginChallenge()
        }
        #expect(error?.kind == .network)
        #expect(error?.isNetworkError == true)
        #expect(error?.isRetryable == true)
        #expect(error?.statusCode == nil)
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let listener = try SilentListener()
        let domain = try #require(URL(string: "http://127.0.0.1:\(listener.port)"))
        let authentication = SesameAuthentication(
            configuration: SesameConfiguration(domain: domain, clientID: "c", timeout: 1))
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await authentication.passkeyLoginChallenge()
        }
        #expect(error?.kind == .timeout)
        #expect(error?.isNetworkError == true)
        #expect(error?.isRetryable == true)
    }

    @Test func theCredentialsManagerRenewsAndStoresTheRotatedRefreshToken() async throws {
        let live = try LiveServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = FileCredentialsStore(path: directory.appendingPathComponent("credentials.json").path)
        // The app's clock runs a day and a minute ahead: every access token it gets looks expired.
        let later: @Sendable () -> Date = { Date().addingTimeInterval(86_460) }
        let authentication = try live.authentication(now: { Date() })
        let manager = CredentialsManager(authentication: authentication, store: store, now: later)

        let signup = try await authentication.signUp(email: "kay@example.com", provider: live.provider())
        try manager.store(signup)
        #expect(manager.hasValidCredentials)
        let renewed = try await manager.credentials()
        #expect(renewed.accessToken != signup.accessToken)
        let rotated = try #require(renewed.refreshToken)
        #expect(rotated != signup.refreshToken)
        #expect(try store.load()?.refreshToken == rotated)
        // The stored token is the live one: the server accepts it.
        let info = try await authentication.userInfo(withAccessToken: renewed.accessToken)
        #expect(info.email == "kay@example.com")
        _ = try await authentication.renew(withRefreshToken: rotated)
    }

    @Test func theFileBackedSoftwareProviderKeepsItsPasskeyAcrossInstances() async throws {
        let live = try LiveServer()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-sdk-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("passkeys.json").path
        let origin = Origin.web(live.origin)
        _ = try await live.authentication().signUp(
            email: "lin@example.com", provider: try SoftwarePasskeyProvider(storePath: path, origin: origin))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let again = try SoftwarePasskeyProvider(storePath: path, origin: origin)
        let credentials = try await live.authentication().logIn(provider: again)
        #expect(
            try await live.authentication().userInfo(withAccessToken: credentials.accessToken).email
                == "lin@example.com")

        // A corrupt key file is a clear passkey error, and the file is left alone.
        try Data("{".utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: AuthenticationError.self) {
            _ = try await live.authentication().logIn(
                provider: try SoftwarePasskeyProvider(storePath: path, origin: origin))
        }
        #expect(error?.kind == .passkey)
        #expect(error?.code == "corrupt_store")
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("{".utf8))
    }
}
