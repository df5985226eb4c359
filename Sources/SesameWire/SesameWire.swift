public enum SesameWireVersion { public static let current = "1" }
