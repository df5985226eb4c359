import Testing

@testable import SesameService

@Suite("The breached-password corpus")
struct BreachedCorpusTests {
    @Test func itHoldsZxcvbnsThirtyThousand() {
        #expect(BreachedCorpus.count == 30_000)
        #expect(BreachedCorpus.prefixes == BreachedCorpus.prefixes.sorted())
    }

    @Test(arguments: ["123456", "password", "qwerty", "dragon", "geekboy", "qwerty123456", "1qaz2wsx3edc"])
    func commonPasswordsAreIn(_ password: String) {
        #expect(BreachedCorpus.contains(password))
        #expect(BreachedCorpus.contains(password.uppercased()))
    }

    @Test(arguments: ["correct horse battery staple", "Xy7Qp2Lm9Za", "", "passwörd-ünique-7", "qwerty1234567"])
    func othersAreNot(_ password: String) {
        #expect(!BreachedCorpus.contains(password))
    }
}
