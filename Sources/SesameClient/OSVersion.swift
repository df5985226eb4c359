import Foundation

/// An operating-system version such as "16.4" or "9", compared numerically one component at a
/// time: "16.10" is newer than "16.4", and "16" equals "16.0" (missing components count as 0).
///
/// Only dot-separated ASCII decimal numbers parse. Anything else ("", "16.", "16.4 beta", "R",
/// a component too large for `Int`) does not, and the sign-in rules treat such a version as too
/// old for passkeys.
public struct OSVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numeric components as given ("16.4.0" keeps its three).
    public let components: [Int]

    /// The components without trailing zeros: what equality, hashing and ordering use.
    private var significant: ArraySlice<Int> {
        var end = components.endIndex
        while end > components.startIndex, components[end - 1] == 0 { end -= 1 }
        return components[..<end]
    }

    /// A version from its components; nil when there are none or one is negative.
    public init?(components: [Int]) {
        guard !components.isEmpty, components.allSatisfy({ $0 >= 0 }) else { return nil }
        self.components = components
    }

    /// A version from its major, minor and patch numbers.
    public init(major: Int, minor: Int = 0, patch: Int = 0) {
        components = [max(0, major), max(0, minor), max(0, patch)]
    }

    /// Parses "16", "16.4", "16.4.1": dot-separated ASCII decimal numbers, nothing else (no spaces,
    /// signs, suffixes or empty components).
    public init?(_ text: String) {
        var parsed: [Int] = []
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            guard !part.isEmpty, part.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                let value = Int(part)
            else { return nil }
            parsed.append(value)
        }
        self.init(components: parsed)
    }

    /// The version of the operating system this runs on (major.minor, and .patch when not 0).
    public static var current: OSVersion {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        var components = [version.majorVersion, version.minorVersion]
        if version.patchVersion != 0 { components.append(version.patchVersion) }
        return OSVersion(components: components.map { max(0, $0) }) ?? OSVersion(major: 0)
    }

    /// "16.4".
    public var description: String { components.map(String.init).joined(separator: ".") }

    /// Equal when the components are, trailing zeros aside.
    public static func == (lhs: OSVersion, rhs: OSVersion) -> Bool {
        lhs.significant.elementsEqual(rhs.significant)
    }

    /// Hashes the components without trailing zeros, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        for component in significant { hasher.combine(component) }
    }

    /// Older: the first component that differs is smaller (a missing one counts as 0).
    public static func < (lhs: OSVersion, rhs: OSVersion) -> Bool {
        let count = max(lhs.components.count, rhs.components.count)
        for index in 0..<count {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}
