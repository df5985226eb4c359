import Foundation
import Testing

@testable import SesameHTTP

/// `/admin` for someone signed in who is not an admin: who is signed in, and the ways on.
@Suite("Hosted pages: /admin for a user who is not an admin")
struct HostedAdminNotAdminTests {
    typealias F = AuthorizeFlowTests

    @Test(
        "the page names the account, and 'Use another account' signs out and in again to /admin",
        arguments: HarnessStore.allCases)
    func switchAccount(_ kind: HarnessStore) throws {
        let (api, _, client) = try F.world(kind)
        let eve = HostedAdminTests.nonAdmin(api, client)
        eve.send(.get, "/admin")
        #expect(eve.last.status == 403)
        #expect(eve.html.contains("data-page=\"not-admin\""))
        #expect(eve.html.contains(Catalog.text(.adminNotAdmin, .en).markup))
        #expect(eve.html.contains("Signed in as eve@example.com"))
        #expect(eve.html.contains("action=\"/account/logout\""))
        #expect(eve.html.contains("<a href=\"/account\">"))
        eve.send(.get, "/admin?ui_locales=ja")
        #expect(eve.html.contains("eve@example.com でログイン中"))

        // A form from elsewhere is refused before anything ends.
        eve.send(.post, "/admin/switch-account", form: [("csrf", "forged")])
        #expect(eve.last.status == 403)
        eve.send(.get, "/admin")
        #expect(eve.last.status == 403, "still signed in")

        eve.submit("/admin/switch-account", [])
        #expect(eve.last.status == 303)
        #expect(eve.location?.hasPrefix("/u/login?tx=") == true)
        #expect(
            eve.last.headers.values(for: "Set-Cookie").contains {
                $0.hasPrefix("sesame-session=;") && $0.contains("Max-Age=0")
            })
        #expect(eve.cookies["sesame-session"] == nil)
        eve.send(.get, "/admin")
        #expect(eve.last.status == 303, "signed out: /admin asks to sign in")
    }
}
