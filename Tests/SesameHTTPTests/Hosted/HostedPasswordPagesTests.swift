import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// "Forgot password?", the reset link's page and the email-verification link, on every store.
@Suite("Hosted pages: password reset and email verification")
struct HostedPasswordPagesTests {
    typealias F = AuthorizeFlowTests
    typealias P = PasswordAccountsTests

    @Test(
        "forgot password: the link by the outbox, the rules on the page, single use, every session ended",
        arguments: HarnessStore.allCases)
    func reset(_ kind: HarnessStore) throws {
        let (api, browser, client) = try F.world(kind)
        try F.passwordSignIn(browser, client)
        #expect(browser.cookies["sesame-session"] != nil)

        browser.send(.get, client.authorizeTarget(extra: [("prompt", "login")]))
        browser.follow()
        browser.submit("/u/login", [("username", "ada@example.com")])
        #expect(browser.html.contains("/u/reset-password/request?tx="))
        let tx = try #require(browser.field("tx"))
        browser.send(.get, "/u/reset-password/request?tx=\(tx)")
        #expect(browser.html.contains("data-page=\"reset-request\""))
        browser.submit("/u/reset-password/request", [("email", "nobody@example.com")])
        let unknownAnswer = browser.html
        #expect(unknownAnswer.contains("data-page=\"reset-sent\""))
        browser.send(.get, "/u/reset-password/request?tx=\(tx)")
        browser.submit("/u/reset-password/request", [("email", "ada@example.com")])
        #expect(browser.html.contains("data-page=\"reset-sent\""), "the same answer whether or not the account exists")
        let ticket = try #require(try api.outboxTicket(to: "ada@example.com", template: "password_reset"))

        let mail = HostedBrowser(api)
        mail.send(.get, "/u/reset-password?ticket=\(ticket)")
        mail.send(.get, "/u/reset-password?ticket=\(ticket)")
        #expect(mail.html.contains("data-page=\"reset\""), "opening the link twice spends nothing")
        #expect(mail.html.contains("passwordrules=\"minlength: 12; maxlength: 64; allowed: ascii-printable;\""))
        #expect(mail.html.contains("autocomplete=\"username\" value=\"ada@example.com\""))
        #expect(mail.last.headers["Referrer-Policy"] == "no-referrer")
        mail.submit("/u/reset-password", [("ticket", ticket), ("password", "short")])
        #expect(mail.last.status == 400)
        #expect(mail.html.contains("data-page=\"reset\""))
        mail.submit("/u/reset-password", [("ticket", ticket), ("password", "a brand new passphrase 42")])
        #expect(mail.last.status == 200, "\(mail.html)")
        #expect(mail.html.contains("data-page=\"reset-done\""))
        mail.send(.get, "/u/reset-password?ticket=\(ticket)")
        #expect(mail.last.status == 400)
        #expect(mail.html.contains("data-page=\"reset-expired\""))

        // Every session ended; the old password no longer works, the new one does.
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "none")]))
        #expect(browser.redirectParameters["error"] == "login_required")
        #expect(P.logIn(api, username: "ada@example.com").status == 403)
        try F.passwordSignIn(browser, client, password: "a brand new passphrase 42")
        #expect(browser.redirectParameters["code"] != nil)
    }

    @Test(
        "a hosted signup sends a link that confirms the email address, once, with a button",
        arguments: HarnessStore.allCases)
    func verification(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "create")]))
        browser.follow()
        browser.submit(
            "/u/signup",
            [("email", "new@example.com"), ("method", "password"), ("password", "a long enough passphrase")])
        #expect(browser.last.status == 303, "\(browser.html)")
        let ticket = try #require(try api.outboxTicket(to: "new@example.com", template: "verify_email"))
        func verified() throws -> Bool? {
            try api.store.read { try $0.users.search(tenantID: api.tenant.id, query: "new@", page: Page()) }.first?
                .profile.emailVerified
        }
        let mail = HostedBrowser(api)
        mail.send(.get, "/u/verify-email?ticket=\(ticket)")
        // Another browser than the signup's: the page asks about the password set up before.
        #expect(mail.html.contains("data-page=\"verify-email-prior\""))
        #expect(try verified() == false, "opening the link confirms nothing")
        mail.submit("/u/verify-email", [("ticket", ticket), ("prior", "keep")])
        #expect(mail.html.contains("data-page=\"verified\""))
        #expect(try verified() == true)
        mail.send(.get, "/u/verify-email?ticket=\(ticket)")
        #expect(mail.last.status == 400)
        mail.send(.post, "/u/verify-email", form: [("csrf", "x"), ("ticket", ticket)])
        #expect(mail.last.status == 403)
    }

    @Test(
        "signup: a typed password takes the password path whichever button was pressed, and a refusal keeps it open",
        arguments: HarnessStore.allCases)
    func signupPasswordPath(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "create")]))
        browser.follow()
        #expect(browser.html.contains("<details id=\"password-signup\">"), "closed at first")
        // A password the rules refuse: the page comes back with the password section open.
        browser.submit("/u/signup", [("email", "new@example.com"), ("method", "password"), ("password", "short")])
        #expect(browser.last.status == 400)
        #expect(browser.html.contains("<details id=\"password-signup\" open>"), "\(browser.html)")
        // Enter in the password field without scripts sends the first button's value (passkey): the
        // typed password still makes it a password signup.
        browser.submit(
            "/u/signup",
            [("email", "new@example.com"), ("method", "passkey"), ("password", "a long enough passphrase")])
        #expect(browser.last.status == 303, "\(browser.html)")
        #expect(!browser.html.contains("passkey-creation"))
        #expect(P.logIn(api, username: "new@example.com", password: "a long enough passphrase").status == 200)
    }

    @Test(
        "signup shows the rules as a checklist, and a refused password says which rule it broke, in each language",
        arguments: HarnessStore.allCases)
    func signupRulesAndReasons(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let browser = HostedBrowser(api)
        let client = OIDCClient(clientID: api.bootstrap.clientID)
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "create")]))
        browser.follow()
        #expect(browser.html.contains("aria-describedby=\"password-rules\""))
        #expect(browser.html.contains("<li>At least 12 characters</li><li>At most 64 characters</li>"))
        #expect(browser.html.contains("data-rules=\"[{&quot;min&quot;:12},{&quot;max&quot;:64},"))
        // A Japanese passphrase: long enough, but the rules allow printable ASCII only.
        browser.submit(
            "/u/signup", [("email", "new@example.com"), ("method", "password"), ("password", "ひらけごまひらけごまひらけごま")])
        #expect(browser.last.status == 400)
        // The error is tied to the field it is about (WCAG 3.3.1), after the field's rules.
        #expect(browser.html.contains("aria-invalid=\"true\" aria-describedby=\"password-rules form-error\""))
        #expect(browser.html.contains("id=\"form-error\" role=\"alert\""))
        #expect(
            !browser.html.contains(
                "type=\"email\" autocomplete=\"username\" required autofocus value=\"new@example.com\" aria-invalid"))
        #expect(
            browser.html.contains(
                "This password does not meet the requirements: Only letters, digits, spaces and symbols of an English keyboard."
            ), "\(browser.html)")
        browser.send(.get, client.authorizeTarget(extra: [("prompt", "create"), ("ui_locales", "ja")]))
        browser.follow()
        #expect(browser.html.contains("<li>12 文字以上</li>"))
        browser.submit("/u/signup", [("email", "new@example.com"), ("method", "password"), ("password", "short")])
        #expect(browser.html.contains("パスワードが条件を満たしていません：12 文字以上。"), "\(browser.html)")
    }

    @Test("a wrong password marks the password field invalid, tied to the message", arguments: HarnessStore.allCases)
    func wrongPasswordField(_ kind: HarnessStore) throws {
        let (_, browser, client) = try AuthorizeFlowTests.world(kind)
        browser.send(.get, client.authorizeTarget())
        browser.follow()
        #expect(!browser.html.contains("aria-invalid"))
        browser.submit("/u/login", [("username", "ada@example.com")])
        browser.submit("/u/login/password", [("password", "not the password at all")])
        #expect(
            browser.html.contains(
                "autocomplete=\"current-password\" required autofocus aria-invalid=\"true\" aria-describedby=\"form-error\">"
            ), "\(browser.html)")
    }
}
