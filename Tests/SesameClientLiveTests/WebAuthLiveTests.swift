import Foundation
import SesameClient
import SesameHTTP
import SesameSoftwarePasskey
import Testing

/// `WebAuth` against a live server: the SDK builds the URL and exchanges the code over URLSession;
/// a stand-in for the browser (`HostedPagesDriver`) signs in at the hosted pages with the password.
@Suite("SDK: WebAuth against a live server")
struct WebAuthLiveTests {
    /// Signs in at the hosted pages like a person in a web view: follows the redirects, posts the
    /// identifier and the password with the page's CSRF token, puts off the passkey prompt, and
    /// returns the first navigation to the redirect URL.
    struct HostedPagesDriver: WebAuthProvider {
        let responder: HTTPResponder
        let origin: String
        let email: String
        let password: String
        var cancel = false

        func authorize(url: URL, redirectURL: URL) async throws(AuthenticationError) -> URL {
            if cancel { throw AuthenticationError(kind: .cancelled, code: "cancelled", errorDescription: "closed") }
            var cookies: [String: String] = [:]
            var html = ""
            func send(_ method: HTTPMethod, _ target: String, form: [(String, String)]? = nil) -> HTTPResponse {
                var headers: HTTPHeaders = [
                    "Host": URL(string: origin)?.host.map { "\($0):\(URL(string: origin)?.port ?? 80)" } ?? ""
                ]
                if !cookies.isEmpty {
                    headers.add(name: "Cookie", value: cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
                }
                var body: [UInt8] = []
                if let form {
                    headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                    headers.add(name: "Origin", value: origin)
                    body = Array(
                        form.map {
                            "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")"
                        }.joined(separator: "&").utf8)
                }
                let response = responder.respond(
                    to: HTTPRequest(method: method, target: target, headers: headers, body: body))
                for value in response.headers.values(for: "Set-Cookie") {
                    let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
                    if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
                }
                html = String(decoding: response.body, as: UTF8.self)
                return response
            }
            func field(_ name: String) -> String {
                guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return "" }
                return String(html[range.upperBound...].prefix { $0 != "\"" })
            }
            func path(_ location: String) -> String {
                location.hasPrefix(origin) ? String(location.dropFirst(origin.count)) : location
            }
            var response = send(.get, path(url.absoluteString))
            guard let login = response.headers["Location"] else { throw Self.failed("no redirect from /authorize") }
            _ = send(.get, path(login))
            _ = send(.post, "/u/login", form: [("csrf", field("csrf")), ("tx", field("tx")), ("username", email)])
            response = send(
                .post, "/u/login/password",
                form: [("csrf", field("csrf")), ("tx", field("tx")), ("password", password)])
            if response.status == 200, html.contains("/u/passkey-enroll/skip") {
                response = send(
                    .post, "/u/passkey-enroll/skip",
                    form: [("csrf", field("csrf")), ("tx", field("tx")), ("choice", "later")])
            }
            guard let location = response.headers["Location"], let callback = URL(string: location) else {
                throw Self.failed("no redirect to the application: \(response.status)")
            }
            return callback
        }

        static func failed(_ text: String) -> AuthenticationError {
            AuthenticationError(kind: .invalidResponse, code: "driver", errorDescription: text)
        }
    }

    @Test("sign-in through the hosted pages: PKCE with libcrypto's SHA-256, the code exchanged, the id token checked")
    func signIn() async throws {
        let live = try LiveServer()
        let authentication = try live.authentication()
        _ = try await authentication.signup(
            email: "web@example.com", password: "correct horse battery staple",
            connection: "Username-Password-Authentication")
        let driver = HostedPagesDriver(
            responder: live.sesame.responder, origin: live.origin, email: "web@example.com",
            password: "correct horse battery staple")
        let web = authentication.webAuth(redirectURL: try #require(URL(string: live.origin + "/")))
            .digest(SesameCryptoDigest()).provider(driver).scope("openid email offline_access")
        let credentials = try await web.start()
        #expect(credentials.idToken?.isEmpty == false)
        #expect(credentials.refreshToken != nil)
        #expect(credentials.authMethod == .password)
        let info = try await authentication.userInfo(withAccessToken: credentials.accessToken)
        #expect(info.email == "web@example.com")

        // A closed sheet is .cancelled, and nothing is exchanged.
        var closed = driver
        closed.cancel = true
        do {
            _ = try await web.provider(closed).start()
            Issue.record("a cancelled sign-in returned credentials")
        } catch {
            #expect(error.kind == .cancelled)
        }
        // Without a digest there is no PKCE, so no flow.
        #if !canImport(CryptoKit)
            do {
                _ = try await authentication.webAuth(redirectURL: try #require(URL(string: live.origin + "/")))
                    .provider(driver).start()
                Issue.record("a flow without SHA-256 started")
            } catch let error as AuthenticationError {
                #expect(error.code == "no_digest")
            }
        #endif
    }
}
