import SesameService

/// A session's browser and system, read from the `User-Agent` it signed in with, as the account
/// page names it ("Chrome on macOS"). Only the common browsers and systems are named; anything
/// else is an unknown device, never the raw header.
enum DeviceName {
    enum Browser: String {
        case edge = "Edge"
        case opera = "Opera"
        case samsung = "Samsung Internet"
        case firefox = "Firefox"
        case chrome = "Chrome"
        case safari = "Safari"
    }

    enum System: String {
        case iPhone = "iPhone"
        case iPad = "iPad"
        case android = "Android"
        case windows = "Windows"
        case macOS = "macOS"
        case chromeOS = "ChromeOS"
        case linux = "Linux"
    }

    /// The browser, by the product tokens browsers send: those that also name Chrome or Safari
    /// (for compatibility) first.
    static func browser(_ agent: String) -> Browser? {
        let tokens: [(String, Browser)] = [
            ("Edg/", .edge), ("EdgA/", .edge), ("EdgiOS/", .edge), ("OPR/", .opera), ("SamsungBrowser/", .samsung),
            ("Firefox/", .firefox), ("FxiOS/", .firefox), ("CriOS/", .chrome), ("Chrome/", .chrome),
        ]
        for (token, browser) in tokens where agent.contains(token) { return browser }
        return agent.contains("Safari/") && agent.contains("Version/") ? .safari : nil
    }

    static func system(_ agent: String) -> System? {
        let tokens: [(String, System)] = [
            ("iPhone", .iPhone), ("iPad", .iPad), ("Android", .android), ("Windows", .windows),
            ("Mac OS X", .macOS), ("Macintosh", .macOS), ("CrOS", .chromeOS), ("Linux", .linux),
        ]
        for (token, system) in tokens where agent.contains(token) { return system }
        return nil
    }

    /// "Chrome on macOS", "Chrome", "iPhone", or the unknown device, in `locale`.
    static func text(_ agent: String, _ locale: PageLocale) -> String {
        switch (browser(agent), system(agent)) {
        case (let browser?, let system?): Catalog.filled(.sessionDevice, locale, [browser.rawValue, system.rawValue])
        case (let browser?, nil): browser.rawValue
        case (nil, let system?): system.rawValue
        case (nil, nil): Catalog.raw(.sessionUnknownDevice, locale)
        }
    }
}
