import Foundation
import SesameService
import SesameSoftwareAuthenticator
import SesameStore
import SesameTesting
import Testing
import WebAuthn

@testable import SesameHTTP

/// The admin pages' users on every store: the search over the Management API's user listing, a
/// user's page with each passkey's authenticator named as the account page names it, and the
/// refusals: another tenant's or an unknown id, a non-admin, and hostile searches.
@Suite("Hosted pages: the admin pages' users")
struct HostedAdminUsersTests {
    typealias F = AuthorizeFlowTests
    typealias P = PasswordAccountsTests

    /// The user with `email` in the harness's tenant.
    static func userID(_ api: APIHarness, _ email: String) throws -> String {
        try #require(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: email, page: Page()) }
                .first { $0.profile.email == email }?.id)
    }

    /// `/admin/users` with `q` (form-encoded as a browser sends it) and a page.
    static func search(_ browser: HostedBrowser, _ q: String, page: String? = nil) {
        var fields = [("q", q)]
        if let page { fields.append(("page", page)) }
        browser.send(.get, "/admin/users?" + HostedBrowser.encode(fields))
    }

    /// The user links of a list page, in order.
    static func listed(_ html: String) -> [String] {
        html.components(separatedBy: "<tr><td><a href=\"/admin/users/").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
    }

    @Test("the list and the search: by email or user id, newest first, 25 a page", arguments: HarnessStore.allCases)
    func listAndSearch(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        api.clock.advance(by: 1)
        #expect(P.signUp(api, email: "bob@example.com").status == 200)
        api.clock.advance(by: 1)
        #expect(P.signUp(api, email: "carol@example.org").status == 200)
        let browser = try HostedAdminTests.admin(api)
        let ada = try Self.userID(api, "ada@example.com")
        let carol = try Self.userID(api, "carol@example.org")

        // The overview links each user and the search.
        #expect(browser.html.contains("href=\"/admin/users\""))
        #expect(browser.html.contains("href=\"/admin/users/\(PathSegment.encode(carol))\">carol@example.org</a>"))

        browser.send(.get, "/admin/users")
        #expect(browser.last.status == 200, "\(browser.html)")
        #expect(browser.html.contains("data-page=\"admin-users\""))
        #expect(browser.html.contains("<input id=\"q\" name=\"q\" type=\"search\" maxlength=\"256\" value=\"\">"))
        let everyone = Self.listed(browser.html)
        #expect(everyone.count == 3)
        #expect(everyone.first == PathSegment.encode(carol), "newest first")
        #expect(everyone.last == PathSegment.encode(ada))
        #expect(!browser.html.contains("rel=\"next\""), "one page")

        Self.search(browser, "example.org")
        #expect(Self.listed(browser.html) == [PathSegment.encode(carol)])
        #expect(browser.html.contains("value=\"example.org\""))
        Self.search(browser, "ADA@EXAMPLE.COM")
        #expect(Self.listed(browser.html) == [PathSegment.encode(ada)], "case-insensitive")
        // A prefix of the id finds that user alone.
        Self.search(browser, String(carol.prefix(carol.count - 2)))
        #expect(Self.listed(browser.html) == [PathSegment.encode(carol)], "\(browser.html)")
        Self.search(browser, "nobody-here")
        #expect(browser.last.status == 200)
        #expect(Self.listed(browser.html).isEmpty)
        #expect(browser.html.contains("id=\"no-users\""))

        // 27 more users: the search's first page holds 25 and links the next, which links back.
        let connection = try #require(api.tenant.defaultConnectionID)
        let start = api.clock.now()
        try api.store.write(.durable) { transaction in
            for index in 0..<27 {
                let at = start.addingTimeInterval(Double(index + 1))
                try transaction.users.insert(
                    UserRecord(
                        tenantID: api.tenant.id, id: "sesame|bulk\(index)", connectionID: connection,
                        userHandle: [UInt8(index), 1, 2, 3], profile: UserProfile(email: "bulk\(index)@example.net"),
                        createdAt: at, updatedAt: at))
            }
        }
        Self.search(browser, "example.net")
        let first = Self.listed(browser.html)
        #expect(first.count == AdminUsersController.adminUsersPerPage)
        #expect(first.first == PathSegment.encode("sesame|bulk26"))
        #expect(browser.html.contains("href=\"/admin/users?q=example.net&amp;page=1\" rel=\"next\""))
        #expect(!browser.html.contains("rel=\"prev\""))
        Self.search(browser, "example.net", page: "1")
        #expect(Self.listed(browser.html) == ["sesame|bulk1", "sesame|bulk0"].map(PathSegment.encode))
        #expect(browser.html.contains("href=\"/admin/users?q=example.net\" rel=\"prev\""))
        #expect(!browser.html.contains("rel=\"next\""))
        browser.send(.get, "/admin/users?page=1")
        #expect(Self.listed(browser.html).count == 5, "30 users: 25 and 5")

        // Exactly a page of matches: no link to an empty next page.
        try api.store.write(.durable) { transaction in
            for index in 0..<AdminUsersController.adminUsersPerPage {
                let at = start.addingTimeInterval(Double(100 + index))
                try transaction.users.insert(
                    UserRecord(
                        tenantID: api.tenant.id, id: "sesame|full\(index)", connectionID: connection,
                        userHandle: [UInt8(index), 9, 9, 9],
                        profile: UserProfile(email: "full\(index)@fullpage.example"),
                        createdAt: at, updatedAt: at))
            }
        }
        Self.search(browser, "fullpage.example")
        #expect(Self.listed(browser.html).count == AdminUsersController.adminUsersPerPage)
        #expect(!browser.html.contains("rel=\"next\""), "a full last page links no next")

        // A page that is not a number in range is the form again, with a 400.
        for page in ["abc", "-1", "100001", "1e3", "99999999999999999999"] {
            Self.search(browser, "", page: page)
            #expect(browser.last.status == 400, "page=\(page)")
            #expect(browser.html.contains("data-page=\"admin-users\""))
            #expect(browser.html.contains("class=\"error\""))
        }
    }

    /// A software authenticator of the model `aaguid` for the tenant's web origin (no attestation).
    static func authenticator(_ aaguid: [UInt8], synced: Bool) -> SoftwareAuthenticator {
        var configuration = AuthenticatorConfiguration(aaguid: aaguid, backupEligible: synced, backupState: synced)
        configuration.origin = .web(APIHarness.webOrigin)
        return SoftwareAuthenticator(configuration: configuration)
    }

    /// iCloud Keychain's AAGUID: in the AAGUID table, not in the tests' metadata.
    static let iCloudKeychain: [UInt8] = [
        0xfb, 0xfc, 0x30, 0x07, 0x15, 0x4e, 0x4e, 0xcc, 0x8c, 0x0b, 0x6e, 0x02, 0x05, 0x57, 0xd7, 0xbd,
    ]

    @Test(
        "a user's page: profile, passkeys named by the metadata (with its icon) or the AAGUID table, device keys, logs",
        arguments: HarnessStore.allCases)
    func userPage(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let world = try MetadataTests.world()
        _ = try MetadataTests.service(api.store).importBLOB(try world.blob(), rootPEM: world.pki.rootPEM)
        #expect(AAGUIDRegistry.name(for: Self.iCloudKeychain) == "iCloud Keychain")
        #expect(AAGUIDRegistry.name(for: MetadataTests.aaguid) == nil, "the metadata's model is not in the table")

        let session = try api.signUp(
            Self.authenticator(MetadataTests.aaguid, synced: false), email: "keys@example.com")
        let synced = try api.enroll(
            Self.authenticator(Self.iCloudKeychain, synced: true), accessToken: session.accessToken)
        // Renamed, so the authenticator shown can only come from its AAGUID, not the stored name.
        let renamed = api.send(
            .patch, "/me/v1/authentication-methods/\(PathSegment.encode(synced))", json: #"{"name":"Work phone"}"#,
            token: session.accessToken)
        #expect(renamed.status == 200, "\(String(decoding: renamed.body, as: UTF8.self))")
        let device = try TestDeviceKey()
        _ = try #require(try api.registerDeviceKey(device, token: session.accessToken).json["id"] as? String)
        api.application.flush()

        let browser = try HostedAdminTests.admin(api)
        let path = "/admin/users/" + PathSegment.encode(session.userID)
        browser.send(.get, path)
        #expect(browser.last.status == 200, "\(browser.html)")
        let html = browser.html
        #expect(html.contains("data-page=\"admin-user\""))
        #expect(html.contains("<h1>keys@example.com</h1>"))
        #expect(html.contains("<code>\(HTMLText.escape(session.userID))</code>"))
        // The metadata's model: its description and its icon, drawn as the account page draws it.
        let icon = AccountPages.authenticatorIcon(TestMetadataBLOB.pngIcon)
        #expect(icon.hasPrefix("<img class=\"authenticator-icon\" src=\"\(TestMetadataBLOB.pngIcon)\""))
        let rows = html.components(separatedBy: "<tr class=\"passkey\"").dropFirst().map {
            String($0.prefix { $0 != "\n" }.split(separator: "</tr>").first ?? "")
        }
        #expect(rows.count == 2, "\(html)")
        let metadataRow = try #require(rows.first { $0.contains("<td>\(icon)Sesame Test Key</td>") }, "\(html)")
        #expect(metadataRow.hasSuffix("<td>device-bound</td><td>no</td>"), "\(metadataRow)")
        // The table's model: its name, and no icon.
        let tableRow = try #require(
            rows.first { $0.contains("<td>Work phone</td><td>iCloud Keychain</td>") }, "\(html)")
        #expect(tableRow.hasSuffix("<td>synced</td><td>yes</td>"), "\(tableRow)")
        #expect(html.components(separatedBy: "<img class=\"authenticator-icon\"").count == 2, "one icon")
        #expect(metadataRow.contains("<time datetime="))
        // The password section says there is none; the device key and the log entries are listed.
        #expect(html.contains(Catalog.text(.adminNoUserPassword, .en)))
        #expect(html.contains("id=\"device-keys\""))
        #expect(html.contains("Taro&#39;s iPhone (iPhone10,1)"), "\(html)")
        let logs = api.send(
            .get, "/api/v2/users/\(PathSegment.encode(session.userID))/logs", token: try api.managementToken()
        ).list
        #expect(!logs.isEmpty)
        for entry in logs.prefix(AdminUsersController.adminUserLogCount) {
            #expect(html.contains("<code>\(entry["type"] as? String ?? "?")</code>"), "\(entry)")
        }

        // ada has a password and no passkey; she is named in the list and links here.
        let ada = try Self.userID(api, "ada@example.com")
        browser.send(.get, "/admin/users/" + PathSegment.encode(ada))
        #expect(browser.last.status == 200)
        #expect(browser.html.contains(Catalog.text(.adminNoUserPasskeys, .en)))
        #expect(browser.html.contains(Catalog.text(.adminPasswordChanged, .en)))
        #expect(!browser.html.contains("id=\"device-keys\""), "no device keys, no section")
        #expect(browser.html.contains(Catalog.text(.noFactors, .en)))
        // Her second factors: a confirmed app, a recovery code and an SMS number not confirmed yet,
        // in enrollment order; the number masked, and no secret or code hash on the page.
        let enrolled = api.clock.now()
        try api.store.write(.durable) { transaction in
            var user = try #require(try transaction.users.get(tenantID: api.tenant.id, id: ada))
            user.mfa = [
                MFAEnrollment(
                    id: "totp|dev_admin1", factor: .otp, active: true, createdAt: enrolled,
                    sealedSecret: Array("sealed-totp-secret".utf8)),
                MFAEnrollment(
                    id: "recovery-code|dev_admin2", factor: .recoveryCode, active: true, createdAt: enrolled,
                    codeHash: Array(repeating: 0xAB, count: 32)),
                MFAEnrollment(
                    id: "sms|dev_admin3", factor: .sms, active: false, createdAt: enrolled,
                    phoneNumber: "+15550101"),
            ]
            try transaction.users.update(user)
        }
        browser.send(.get, "/admin/users/" + PathSegment.encode(ada))
        let factorRows = browser.html.components(separatedBy: "<tr class=\"factor\">").dropFirst().map {
            String($0.split(separator: "</tr>").first ?? "")
        }
        #expect(
            factorRows.map { String($0.split(separator: "<time").first ?? "") } == [
                "<td>Authenticator app</td><td>Confirmed</td><td>",
                "<td>Recovery code</td><td>Confirmed</td><td>",
                "<td>Text message to XXXXX0101</td><td>Not confirmed yet</td><td>",
            ], "\(browser.html)")
        #expect(browser.html.contains("(3)</h2>"))
        #expect(!browser.html.contains("+15550101") && !browser.html.contains("sealed-totp-secret"))
        #expect(!browser.html.contains(Catalog.text(.noFactors, .en)))
        browser.send(.get, path + "?ui_locales=ja")
        #expect(browser.html.contains("Sesame Test Key"))
        #expect(browser.html.contains(Catalog.text(.adminRecentLogs, .ja)))
    }

    @Test(
        "an unknown id, another tenant's user and a malformed id are the pages' 404", arguments: HarnessStore.allCases)
    func notFound(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let (other, _) = try api.addSecondTenant()
        let now = api.clock.now()
        try api.store.write(.durable) { transaction in
            try transaction.users.insert(
                UserRecord(
                    tenantID: other.id, id: "sesame|elsewhere", connectionID: "con_other", userHandle: [9, 9, 9],
                    profile: UserProfile(email: "elsewhere@other.test"), createdAt: now, updatedAt: now))
        }
        let browser = try HostedAdminTests.admin(api)
        for id in [
            "sesame%7Celsewhere", "sesame%7Cnobody", "nobody", String(repeating: "x", count: 300), "%3Cscript%3E",
        ] {
            browser.send(.get, "/admin/users/\(id)")
            #expect(browser.last.status == 404, "\(id): \(browser.html)")
            #expect(browser.last.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(!browser.html.contains("elsewhere@other.test"))
            #expect(!browser.html.contains("<script>"))
        }
        // The other tenant's user is not found by a search either.
        Self.search(browser, "elsewhere")
        #expect(browser.last.status == 200)
        #expect(Self.listed(browser.html).isEmpty)
    }

    @Test(
        "a signed-in user who is not an admin gets the 403 page; a stranger is sent to sign in",
        arguments: HarnessStore.allCases)
    func nonAdmin(_ kind: HarnessStore) throws {
        let (api, outsider, client) = try F.world(kind)
        _ = try HostedAdminTests.admin(api)
        let ada = try Self.userID(api, "ada@example.com")
        let eve = HostedAdminTests.nonAdmin(api, client)
        for path in [
            "/admin/clients/\(api.bootstrap.clientID)", "/admin/users", "/admin/users?q=ada",
            "/admin/users/\(PathSegment.encode(ada))",
        ] {
            eve.send(.get, path)
            #expect(eve.last.status == 403, "\(path)")
            #expect(eve.html.contains(Catalog.text(.adminNotAdmin, .en)), "\(path)")
            #expect(!eve.html.contains("ada@example.com"), "\(path)")
            outsider.send(.get, path)
            #expect(outsider.last.status == 303, "\(path)")
            #expect(outsider.location?.hasPrefix("/u/login?tx=") == true, "\(path)")
        }
    }

    @Test(
        "hostile searches: too long or with control characters is 400, SQL-ish text is only text",
        arguments: HarnessStore.allCases)
    func hostileQuery(_ kind: HarnessStore) throws {
        let (api, _, _) = try F.world(kind)
        let browser = try HostedAdminTests.admin(api)
        for q in [
            String(repeating: "a", count: 257), String(repeating: "é", count: 20_000), "ada\u{0}", "\u{0}",
            "ada\u{1B}[31m",
            "ada\r\nSet-Cookie: x=1", "ada\u{202E}", "a\u{200B}da", "\u{7F}",
        ] {
            Self.search(browser, q)
            #expect(browser.last.status == 400, "\(q.prefix(20).debugDescription): \(browser.last.status)")
            #expect(browser.html.contains("data-page=\"admin-users\""))
            #expect(browser.html.contains("class=\"error\""))
            #expect(browser.html.contains("value=\"\">"), "what was typed is not echoed")
            #expect(Self.listed(browser.html).isEmpty)
        }
        for q in [
            "' OR 1=1 --", "%' OR '1'='1", "%", "_", "a_a", "\\", "\\%", "ada'; DROP TABLE users; --",
            "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "ada@example.com' --", "ada@example.com%",
        ] {
            Self.search(browser, q)
            #expect(browser.last.status == 200, "\(q): \(browser.html)")
            #expect(Self.listed(browser.html).isEmpty, "\(q) matched as a pattern")
            #expect(!browser.html.contains("<script>alert"))
            #expect(!browser.html.contains("<img src=x"))
        }
        Self.search(browser, "<script>alert(1)</script>")
        #expect(browser.html.contains("value=\"&lt;script&gt;alert(1)&lt;/script&gt;\""))
        // Still answering, and the users are all there.
        Self.search(browser, "example.com")
        #expect(Self.listed(browser.html).count == 1)
        #expect(
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: nil, page: Page()) }.count == 1)
    }
}
