import Foundation
import SesameHTTP
import SesameService
import SesameStore
import Testing

/// Usernames in RFC 8265's UsernameCaseMapped profile: width-mapped, lower-cased and in NFC before
/// they are compared or stored, on every store.
@Suite("Usernames: RFC 8265 UsernameCaseMapped")
struct UsernameProfileTests {
    typealias P = PasswordAccountsTests

    @Test("the profile maps width, case and composition")
    func profile() {
        #expect(UsernameProfile.caseMapped("Ａｄａ") == "ada")
        #expect(UsernameProfile.caseMapped("ADA") == "ada")
        #expect(UsernameProfile.caseMapped("ｶﾞｰﾃﾞﾝ") == "ガーデン")
        #expect(UsernameProfile.caseMapped("Jose\u{301}") == "jos\u{e9}")
        #expect(UsernameProfile.caseMapped("ada\u{3000}lovelace") == "ada lovelace")
        #expect(UsernameProfile.caseMapped("ﬁ") == "ﬁ", "only width is a compatibility mapping here")
    }

    @Test("a fullwidth username is the same user, stored mapped", arguments: HarnessStore.allCases)
    func signupAndLogin(_ kind: HarnessStore) throws {
        let api = try APIHarness(store: kind)
        let patched = api.send(
            .patch, "/api/v2/connections/\(api.tenant.defaultConnectionID ?? "")",
            json:
                #"{"options":{"attributes":{"username":{"identifier":{"active":true},"signup":{"status":"optional"}}}}}"#,
            token: try api.managementToken())
        #expect(patched.status == 200, "\(String(decoding: patched.body, as: UTF8.self))")
        #expect(P.signUp(api, email: "ada@example.com", extra: ["username": "Ａｄａ"]).status == 200)
        #expect(try P.users(api).first?.profile.username == "ada")
        // The same username in another width or case is taken.
        let again = P.signUp(api, email: "other@example.com", extra: ["username": "ADA"])
        #expect(again.status == 400)
        for typed in ["ada", "ADA", "Ａｄａ", "ａｄａ"] {
            #expect(P.logIn(api, username: typed).status == 200, "\(typed)")
        }
    }
}
