import Foundation
import SesameService
import SesameStore

/// The admin pages' users: a search over the tenant's users, and one user's page with their
/// sign-in methods and their newest audit-log entries.
extension AdminPages {
    /// What `/admin/users` shows: one page of the users the search matched.
    struct UserList {
        /// The search as the service accepted it; empty for every user, newest first.
        var query: String
        /// The 0-based page.
        var page: Int
        var users: [ManagedUser]
        /// A full page came back, so there may be another after it.
        var more: Bool
    }

    /// What `/admin/users/{id}` shows.
    struct UserView {
        var user: ManagedUser
        /// The password (if it still signs in) and the passkeys, oldest first.
        var methods: [AuthenticationMethod]
        /// Each passkey's authenticator by formatted AAGUID, as the account page gets it.
        var authenticators: [String: AuthenticatorDisplay]
        var deviceKeys: [DeviceKeyRecord]
        /// The second factors, in enrollment order, confirmed or not.
        var factors: [MFAFactorSummary]
        /// The user's newest audit-log entries, newest first.
        var logs: [AuditEntry]
        /// The page follows a reset of the user's second factors.
        var factorsReset = false
    }

    /// How the admin pages name a user: the email, else the username, phone number or id.
    static func label(_ user: ManagedUser) -> String {
        user.email ?? user.username ?? user.phoneNumber ?? user.userID
    }

    /// The path of a user's admin page.
    static func userPath(_ id: String) -> String { "/admin/users/" + PathSegment.encode(id) }

    /// The list page's URL for `query` and `page` (no parameter left at its default).
    static func usersPath(query: String, page: Int) -> String {
        var parameters: [String] = []
        if !query.isEmpty { parameters.append("q=" + PathSegment.encode(query)) }
        if page > 0 { parameters.append("page=\(page)") }
        return "/admin/users" + (parameters.isEmpty ? "" : "?" + parameters.joined(separator: "&"))
    }

    /// An API time ("2027-01-15T08:00:00.000Z") as "2027-01-15 08:00:00 UTC" in a `<time>`;
    /// nil is "never".
    static func stamp(_ time: String?, _ locale: PageLocale) -> HTML {
        guard let time else { return Catalog.text(.neverUsed, locale) }
        let shown = String(time.prefix(19)).replacingOccurrences(of: "T", with: " ")
        return "<time datetime=\"\(time)\">\(shown) UTC</time>"
    }

    static func stamp(_ date: Date?, _ locale: PageLocale) -> HTML {
        stamp(date.map { ISO8601DateFormatter().string(from: $0) }, locale)
    }

    static func yesNo(_ value: Bool, _ locale: PageLocale) -> HTML {
        Catalog.text(value ? .adminYes : .adminNo, locale)
    }

    /// `/admin/users`: the search form, one page of users and the links to the pages beside it.
    /// With `error` (a refused search or page) the form is shown again with the reason.
    static func users(
        context: HostedContext, list: UserList, error: (any Error)? = nil, status: Int = 200
    ) -> HostedPage {
        let locale = context.locale
        var body: HTML = """
            <h1>\(Catalog.text(.adminUsers, locale))</h1>
            <form method="get" action="/admin/users" class="inline" role="search">
            <label for="q">\(Catalog.text(.adminSearchLabel, locale))</label>
            <input id="q" name="q" type="search" maxlength="256" value="\(list.query)">
            <button type="submit" class="secondary">\(Catalog.text(.adminSearchButton, locale))</button>
            </form>
            """
        body += PageLayout.errorBox(error.map { Catalog.error($0, locale) })
        if error == nil {
            if list.users.isEmpty {
                body += "<p id=\"no-users\">\(Catalog.text(.adminNoUsers, locale))</p>"
            } else {
                body += """
                    <div class=\"table-scroll\"><table id="users"><thead><tr><th>\(Catalog.text(.adminUser, locale))</th>\
                    <th>\(Catalog.text(.adminUserID, locale))</th><th>\(Catalog.text(.adminEmailVerified, locale))</th>\
                    <th>\(Catalog.text(.adminCreated, locale))</th><th>\(Catalog.text(.adminLastLogin, locale))</th>\
                    </tr></thead><tbody>
                    """
                for user in list.users {
                    body +=
                        "<tr><td><a href=\"\(userPath(user.userID))\">\(label(user))</a></td>"
                        + "<td><code>\(user.userID)</code></td>"
                        + "<td>\(yesNo(user.emailVerified, locale))</td><td>\(stamp(user.createdAt, locale))</td>"
                        + "<td>\(stamp(user.lastLogin, locale))</td></tr>"
                }
                body += "</tbody></table></div>"
            }
            var pages: [HTML] = []
            if list.page > 0 {
                let previous = usersPath(query: list.query, page: list.page - 1)
                pages.append(
                    "<a href=\"\(previous)\" rel=\"prev\">\(Catalog.text(.adminPreviousPage, locale))</a>")
            }
            if list.more {
                let next = usersPath(query: list.query, page: list.page + 1)
                pages.append("<a href=\"\(next)\" rel=\"next\">\(Catalog.text(.adminNextPage, locale))</a>")
            }
            if !pages.isEmpty { body += "<p class=\"pages\">" + pages.joined(separator: " · ") + "</p>" }
        }
        body += "<div class=\"links\"><p><a href=\"/admin\">\(Catalog.text(.adminBack, locale))</a></p></div>"
        return HostedPage(
            name: "admin-users", title: .adminUsers, body: body, status: status,
            languageBase: error == nil ? usersPath(query: list.query, page: list.page) : "/admin/users")
    }

    /// `/admin/users/{id}`: the user's identifiers and times, passkeys with their authenticator's
    /// name and icon, password, legacy device keys, and newest audit-log entries.
    static func user(context: HostedContext, view: UserView) -> HostedPage {
        let locale = context.locale
        let user = view.user
        let notice: HTML =
            view.factorsReset
            ? "<p class=\"notice\" role=\"status\">\(Catalog.text(.adminFactorsReset, locale))</p>" : ""
        var body: HTML = """
            <h1>\(label(user))</h1>
            <p class="lead"><code>\(user.userID)</code></p>
            \(notice)
            <div class=\"table-scroll\"><table id="profile"><tbody>
            <tr><th scope="row">\(Catalog.text(.emailLabel, locale))</th><td>\(user.email ?? "—")</td></tr>
            <tr><th scope="row">\(Catalog.text(.adminEmailVerified, locale))</th>\
            <td>\(yesNo(user.emailVerified, locale))</td></tr>
            """
        if let username = user.username {
            body += "<tr><th scope=\"row\">username</th><td>\(username)</td></tr>"
        }
        if let phone = user.phoneNumber {
            body += "<tr><th scope=\"row\">phone_number</th><td>\(phone)</td></tr>"
        }
        if let name = user.attributes[.name] {
            body +=
                "<tr><th scope=\"row\">\(Catalog.text(.adminClientName, locale))</th><td>\(name)</td></tr>"
        }
        body += """
            <tr><th scope="row">\(Catalog.text(.adminConnection, locale))</th>\
            <td>\(user.identities.first?.connection ?? "")</td></tr>
            <tr><th scope="row">\(Catalog.text(.adminCreated, locale))</th><td>\(stamp(user.createdAt, locale))</td></tr>
            <tr><th scope="row">\(Catalog.text(.adminLastLogin, locale))</th><td>\(stamp(user.lastLogin, locale))</td></tr>
            <tr><th scope="row">\(Catalog.text(.adminBlocked, locale))</th><td>\(yesNo(user.blocked, locale))</td></tr>
            </tbody></table></div>
            """

        let passkeys = view.methods.filter { $0.type == .passkey }
        body +=
            "<section id=\"passkeys\" aria-labelledby=\"passkeys-heading\">"
            + "<h2 id=\"passkeys-heading\">\(Catalog.text(.passkeysHeading, locale)) (\(passkeys.count))</h2>"
        if passkeys.isEmpty {
            body += "<p>\(Catalog.text(.adminNoUserPasskeys, locale))</p>"
        } else {
            body += """
                <div class=\"table-scroll\"><table><thead><tr><th>\(Catalog.text(.passkeyName, locale))</th>\
                <th>\(Catalog.text(.passkeyProvider, locale))</th><th>\(Catalog.text(.passkeyCreated, locale))</th>\
                <th>\(Catalog.text(.passkeyLastUsed, locale))</th><th>\(Catalog.text(.adminPasskeyKind, locale))</th>\
                <th>\(Catalog.text(.adminBackedUp, locale))</th></tr></thead><tbody>
                """
            for passkey in passkeys {
                let (provider, icon) = AccountPages.authenticator(view.authenticators[passkey.aaguid ?? ""])
                let synced = passkey.credentialDeviceType == "multi_device"
                body +=
                    "<tr class=\"passkey\" data-passkey-id=\"\(passkey.id)\">"
                    + "<td>\(passkey.name ?? "")</td><td>\(icon)\(provider)</td>"
                    + "<td>\(stamp(passkey.createdAt, locale))</td><td>\(stamp(passkey.lastAuthAt, locale))</td>"
                    + "<td>\(Catalog.text(synced ? .adminSynced : .adminDeviceBound, locale))</td>"
                    + "<td>\(yesNo(passkey.credentialBackedUp ?? false, locale))</td></tr>"
            }
            body += "</tbody></table></div>"
        }
        body += "</section>"

        body +=
            "<section id=\"password\" aria-labelledby=\"password-heading\">"
            + "<h2 id=\"password-heading\">\(Catalog.text(.passwordHeading, locale))</h2>"
        if let password = view.methods.first(where: { $0.type == .password }) {
            body += "<p>\(Catalog.text(.adminPasswordChanged, locale)) \(stamp(password.passwordChangedAt, locale))</p>"
        } else {
            body += "<p>\(Catalog.text(.adminNoUserPassword, locale))</p>"
        }
        body += "</section>"

        body +=
            "<section id=\"factors\" aria-labelledby=\"factors-heading\">"
            + "<h2 id=\"factors-heading\">\(Catalog.text(.factorsHeading, locale)) (\(view.factors.count))</h2>"
        if view.factors.isEmpty {
            body += "<p>\(Catalog.text(.noFactors, locale))</p>"
        } else {
            body += """
                <div class=\"table-scroll\"><table><thead><tr><th>\(Catalog.text(.adminFactor, locale))</th><th>\(Catalog.text(.adminState, locale))</th>\
                <th>\(Catalog.text(.passkeyCreated, locale))</th></tr></thead><tbody>
                """
            for factor in view.factors {
                let label: HTML
                switch factor.factor {
                case .otp: label = Catalog.text(.factorTOTP, locale)
                case .sms: label = Catalog.text(.factorSMS, locale, factor.maskedPhoneNumber ?? "")
                case .recoveryCode: label = Catalog.text(.factorRecovery, locale)
                }
                let state = Catalog.text(factor.active ? .adminFactorActive : .adminFactorPending, locale)
                body +=
                    "<tr class=\"factor\"><td>\(label)</td><td>\(state)</td>"
                    + "<td>\(stamp(factor.createdAt, locale))</td></tr>"
            }
            body += "</tbody></table></div>"
            // The support path for a user who lost every factor.
            let action = "/admin/users/" + PathSegment.encode(user.userID) + "/factors/reset"
            body += """
                <details id="reset-factors"><summary>\(Catalog.text(.adminResetFactors, locale))</summary>
                <p class="hint">\(Catalog.text(.adminResetFactorsHint, locale))</p>
                \(AccountPages.action(context, action, Catalog.text(.adminResetFactors, locale)))
                </details>
                """
        }
        body += "</section>"

        if !view.deviceKeys.isEmpty {
            body += """
                <section id="device-keys" aria-labelledby="device-keys-heading">\
                <h2 id="device-keys-heading">\(Catalog.text(.adminDeviceKeys, locale)) (\(view.deviceKeys.count))</h2>
                <div class=\"table-scroll\"><table><thead><tr><th>\(Catalog.text(.adminDevice, locale))</th><th>\(Catalog.text(.adminPlatform, locale))</th>\
                <th>\(Catalog.text(.adminState, locale))</th><th>\(Catalog.text(.passkeyCreated, locale))</th>\
                <th>\(Catalog.text(.passkeyLastUsed, locale))</th></tr></thead><tbody>
                """
            for key in view.deviceKeys {
                var device = key.deviceName
                if let model = key.model { device += " (\(model))" }
                body +=
                    "<tr><td>\(device)</td><td>\(key.platform.rawValue) "
                    + "\(key.osVersion)</td><td>\(key.state.rawValue)</td>"
                    + "<td>\(stamp(key.createdAt, locale))</td><td>\(stamp(key.lastUsedAt, locale))</td></tr>"
            }
            body += "</tbody></table></div></section>"
        }

        body +=
            "<section id=\"logs\" aria-labelledby=\"logs-heading\">"
            + "<h2 id=\"logs-heading\">\(Catalog.text(.adminRecentLogs, locale))</h2>"
        if view.logs.isEmpty {
            body += "<p>\(Catalog.text(.adminNoLogs, locale))</p>"
        } else {
            body += """
                <div class=\"table-scroll\"><table><thead><tr><th>\(Catalog.text(.adoptionDate, locale))</th>\
                <th>\(Catalog.text(.adminLogType, locale))</th><th>\(Catalog.text(.adminLogDescription, locale))</th>\
                <th>\(Catalog.text(.adminClients, locale))</th><th>IP</th></tr></thead><tbody>
                """
            for entry in view.logs {
                body +=
                    "<tr><td>\(stamp(entry.date, locale))</td><td><code>\(entry.type)</code></td>"
                    + "<td>\(entry.description)</td>"
                    + "<td>\(entry.clientName ?? entry.clientID ?? "")</td>"
                    + "<td>\(entry.ip ?? "")</td></tr>"
            }
            body += "</tbody></table></div>"
        }
        body += """
            </section>
            <div class="links"><p><a href="/admin/users">\(Catalog.text(.adminUsers, locale))</a> · \
            <a href="/admin">\(Catalog.text(.adminBack, locale))</a></p></div>
            """
        return HostedPage(name: "admin-user", title: .adminUsers, body: body)
    }
}
