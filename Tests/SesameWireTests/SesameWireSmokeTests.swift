import Testing

@testable import SesameWire
