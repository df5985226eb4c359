import SesameService
import SesameWire

/// The forms of the hosted pages, one table each: what the route registers, what its handler
/// reads (each member within the table's limit) and what the OpenAPI document says. A form is
/// open: a member it does not name is ignored, as browsers and password managers may add some.
/// Its `csrf` is required, but the page refuses a missing or wrong one itself (403, and a page
/// with a way back), after the body is read and before any member is used.
enum HostedForms {
    static let csrf = WireField("csrf", .text(128)).requiredByService
    /// The pending sign-in the step belongs to; without it the page says the sign-in is over.
    static let transaction = WireField("tx", .text(256)).requiredByService
    static let ceremony = WireField("ceremony", .text(256))
    /// The WebAuthn JSON the page's script puts there.
    static let credential = WireField("credential", .text(32_768))
    static let password = WireField("password", .text(PasswordText.maxBytes))
    static let email = WireField("email", .text(320))
    /// An emailed link's ticket (a reset, a verification).
    static let ticket = WireField("ticket", .text(256)).requiredByService
    static let enrollment = WireField("enrollment", .text(256)).requiredByService
    /// The recovery in progress.
    static let recoveryHandle = WireField("handle", .text(256)).requiredByService

    /// A form with its CSRF token first.
    static func form(_ fields: WireField...) -> RequestBody { .form([csrf] + fields) }

    // MARK: The sign-in steps under /u/ (HostedController).

    static let identifier = form(transaction, WireField("username", .text(1_024)).requiredByService)
    static let signup = form(
        transaction, email.requiredByService, WireField("name", .text(256)),
        WireField("method", .oneOf(["passkey", "password"])), password)
    static let passwordStep = form(transaction, password.requiredByService)
    static let passkeyStep = form(transaction, ceremony, credential)
    /// The code of the step shown (`mode`: the authenticator app by default).
    static let secondFactor = form(
        transaction, WireField("mode", .oneOf(["otp", "sms", "recovery-code", "enroll"])),
        WireField("otp", .text(64)), WireField("oob_code", .text(256)))
    static let secondFactorMethod = form(transaction, WireField("method", .oneOf(["otp", "recovery-code", "sms"])))
    static let recoveryCodeSaved = form(transaction, WireField("saved", .oneOf(["yes"])))
    /// `never`: do not ask again; anything else: not now.
    static let enrollmentSkip = form(transaction, WireField("choice", .text(16)))
    static let ticketEnrollment = form(enrollment, ceremony, credential)
    static let ticketEnrollmentSkip = form(enrollment)
    /// What the sign-out page's confirmation sends on, as `/oidc/logout`'s query gave it.
    static let logoutParameters = [
        WireField("client_id", .text(2_048)), WireField("post_logout_redirect_uri", .text(2_048)),
        WireField("state", .text(2_048)),
    ]
    static let logout = RequestBody.form([csrf] + logoutParameters)

    // MARK: Passwords, email and recovery (HostedController+Passwords, +Recovery).

    static let emailStep = form(transaction, email.requiredByService)
    static let ticketPassword = form(ticket, password.requiredByService)
    static let verifyEmail = form(
        ticket,
        WireField(
            "prior", .oneOf(["keep", "remove"]),
            description:
                "What the opener says of the ways to sign in added before the address was confirmed: keep them, or remove them with every session. Without it, they are removed unless this browser is signed in to the account."
        ))
    static let recoveryCode = form(transaction, recoveryHandle, WireField("code", .text(16)))
    static let recoveryPassword = form(transaction, recoveryHandle, password.requiredByService)

    // MARK: The account and admin pages (AccountController, AdminController, AdminUsersController).

    /// A form whose only member is its CSRF token (a button: remove, end, sign out).
    static let button = form()
    static let rename = form(WireField("name", .characters(MyAccountService.maxNameLength)).requiredByService)
    static let accountCeremony = form(ceremony, credential)
    static let passwordChange = form(
        WireField("current", .text(4_096), description: "The current password, where the account has one.")
            .requiredByService, password.requiredByService)
    static let newPassword = form(password.requiredByService)
    /// The account page's profile: the name (blank clears it).
    static let profile = form(WireField("name", .characters(MyAccountService.maxProfileNameLength)))
    static let accountRecoveryCodeSaved = form(WireField("saved", .oneOf(["yes"])).requiredByService)
    /// The account's identifier, typed to confirm that the account is to be deleted.
    static let accountDeletion = form(WireField("confirmation", .text(512)).requiredByService)
    /// Apple's `form_post` answer: no CSRF token (Apple sends it); `state` ties it to the browser.
    static let appleCallback = RequestBody.form([
        WireField("state", .text(256)), WireField("id_token", .text(16_384)), WireField("code", .text(1_024)),
        WireField("error", .text(128)),
    ])
    /// The application's name and type, as the Management API takes them (`ClientsController`).
    static let clientCreation = form(ClientsController.name.requiredByService, ClientsController.appType)
    /// The application form; its grant checkboxes (`grant-0`, `grant-1`, …) are read by index, and
    /// its lists are one URL or fingerprint a line.
    static let clientChange = form(
        ClientsController.name.requiredByService,
        WireField("callbacks", .text(16_384), description: "One absolute URL without a fragment a line."),
        WireField("allowed_logout_urls", .text(16_384), description: "One absolute URL a line."),
        WireField("allowed_origins", .text(16_384), description: "One origin (scheme, host, port) a line."),
        WireField("ios_team_id", .string(maxLength: 10, pattern: "^(?:[A-Z0-9]{10})?$")),
        WireField("ios_bundle_id", .text(256)),
        WireField("android_package", .text(256)), WireField("android_fingerprints", .text(16_384)))
}
