import Foundation
import SesameCrypto

/// The offline corpus of breached passwords (`scripts/build-breached-corpus.sh`): zxcvbn's 30,000
/// most common leaked passwords, as sorted 8-byte SHA-256 prefixes, read once on first use.
public enum BreachedCorpus {
    /// The prefixes, ascending; empty only if the generated data were damaged.
    static let prefixes: [UInt64] = {
        // The generated text is wrapped in lines; the line breaks are not part of the encoding.
        guard let bytes = Base64.decodeStandard(encoded.filter { !$0.isNewline }), bytes.count == entryCount * 8
        else { return [] }
        return (0..<entryCount).map { index in
            bytes[(index * 8)..<(index * 8 + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
    }()

    /// How many passwords the corpus holds.
    public static var count: Int { prefixes.count }

    /// Whether `password` is in the corpus, as typed or in lower case (the list is lower case).
    public static func contains(_ password: String) -> Bool {
        holds(password) || holds(password.lowercased())
    }

    private static func holds(_ text: String) -> Bool {
        let digest = Digest.sha256(Array(text.utf8))
        guard digest.count == 32 else { return false }
        let key = digest.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        var low = 0
        var high = prefixes.count
        while low < high {
            let middle = (low + high) / 2
            if prefixes[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < prefixes.count && prefixes[low] == key
    }
}
