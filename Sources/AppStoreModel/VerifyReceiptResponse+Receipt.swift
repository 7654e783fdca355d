import Foundation

extension VerifyReceiptResponse {
    /// The decoded receipt in a verifyReceipt response (Apple's `receipt` object).
    ///
    /// Properties are camelCase; JSON keys are Apple's. Each date is three stored fields
    /// (`x`, `x_ms`, `x_pst`) plus a `Date?` accessor named after the field with a `Value` suffix
    /// (`receiptCreationDate*` → ``receiptCreationDateValue``). The numeric identifiers, which
    /// Apple sends as JSON numbers, are also accepted as numeric strings.
    public struct Receipt: Hashable, Codable, Sendable {
        /// The receipt type, e.g. `Production`, `ProductionSandbox`, `ProductionVPP`.
        public var receiptType: String?
        /// The app's Apple identifier (0 in the sandbox).
        public var adamId: Int64?
        /// The app's Apple identifier, again (0 in the sandbox).
        public var appItemId: Int64?
        /// The app's bundle identifier.
        public var bundleId: String?
        /// The app version the receipt was created for (`CFBundleVersion`).
        public var applicationVersion: String?
        /// The identifier of the app download.
        public var downloadId: Int64?
        /// The identifier of the app version, as App Store Connect assigns it.
        public var versionExternalIdentifier: Int64?
        /// When the receipt was created, UTC text; see ``receiptCreationDateValue``.
        public var receiptCreationDate: String?
        /// When the receipt was created, ms since 1970.
        public var receiptCreationDateMs: StringNumber?
        /// When the receipt was created, Pacific time text.
        public var receiptCreationDatePst: String?
        /// When Apple processed the verifyReceipt request, UTC text; see ``requestDateValue``.
        public var requestDate: String?
        /// When Apple processed the request, ms since 1970.
        public var requestDateMs: StringNumber?
        /// When Apple processed the request, Pacific time text.
        public var requestDatePst: String?
        /// When the user first bought the app, UTC text; see ``originalPurchaseDateValue``.
        public var originalPurchaseDate: String?
        /// When the user first bought the app, ms since 1970.
        public var originalPurchaseDateMs: StringNumber?
        /// When the user first bought the app, Pacific time text.
        public var originalPurchaseDatePst: String?
        /// The app version the user first bought.
        public var originalApplicationVersion: String?
        /// When the receipt expires (Volume Purchase Program), UTC text; see
        /// ``expirationDateValue``.
        public var expirationDate: String?
        /// When the receipt expires, ms since 1970.
        public var expirationDateMs: StringNumber?
        /// When the receipt expires, Pacific time text.
        public var expirationDatePst: String?
        /// When the user pre-ordered the app, UTC text; see ``preorderDateValue``.
        public var preorderDate: String?
        /// When the user pre-ordered the app, ms since 1970.
        public var preorderDateMs: StringNumber?
        /// When the user pre-ordered the app, Pacific time text.
        public var preorderDatePst: String?
        /// The in-app purchases the receipt holds.
        public var inApp: [InApp]?

        /// Creates a receipt; dates are written in all three of Apple's forms.
        public init(
            receiptType: String? = nil,
            adamId: Int64? = nil,
            appItemId: Int64? = nil,
            bundleId: String? = nil,
            applicationVersion: String? = nil,
            downloadId: Int64? = nil,
            versionExternalIdentifier: Int64? = nil,
            receiptCreationDateValue: Date? = nil,
            requestDateValue: Date? = nil,
            originalPurchaseDateValue: Date? = nil,
            originalApplicationVersion: String? = nil,
            expirationDateValue: Date? = nil,
            preorderDateValue: Date? = nil,
            inApp: [InApp]? = nil
        ) {
            self.receiptType = receiptType
            self.adamId = adamId
            self.appItemId = appItemId
            self.bundleId = bundleId
            self.applicationVersion = applicationVersion
            self.downloadId = downloadId
            self.versionExternalIdentifier = versionExternalIdentifier
            self.originalApplicationVersion = originalApplicationVersion
            self.inApp = inApp
            self.receiptCreationDateValue = receiptCreationDateValue
            self.requestDateValue = requestDateValue
            self.originalPurchaseDateValue = originalPurchaseDateValue
            self.expirationDateValue = expirationDateValue
            self.preorderDateValue = preorderDateValue
        }

        /// Decodes a receipt, accepting the numeric identifiers as numbers or strings.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            func text(_ key: CodingKeys) throws -> String? {
                try container.decodeIfPresent(String.self, forKey: key)
            }
            func number(_ key: CodingKeys) throws -> StringNumber? {
                try container.decodeIfPresent(StringNumber.self, forKey: key)
            }
            receiptType = try text(.receiptType)
            adamId = try container.decodeLenientInt64IfPresent(forKey: .adamId)
            appItemId = try container.decodeLenientInt64IfPresent(forKey: .appItemId)
            bundleId = try text(.bundleId)
            applicationVersion = try text(.applicationVersion)
            downloadId = try container.decodeLenientInt64IfPresent(forKey: .downloadId)
            versionExternalIdentifier = try container.decodeLenientInt64IfPresent(
                forKey: .versionExternalIdentifier)
            receiptCreationDate = try text(.receiptCreationDate)
            receiptCreationDateMs = try number(.receiptCreationDateMs)
            receiptCreationDatePst = try text(.receiptCreationDatePst)
            requestDate = try text(.requestDate)
            requestDateMs = try number(.requestDateMs)
            requestDatePst = try text(.requestDatePst)
            originalPurchaseDate = try text(.originalPurchaseDate)
            originalPurchaseDateMs = try number(.originalPurchaseDateMs)
            originalPurchaseDatePst = try text(.originalPurchaseDatePst)
            originalApplicationVersion = try text(.originalApplicationVersion)
            expirationDate = try text(.expirationDate)
            expirationDateMs = try number(.expirationDateMs)
            expirationDatePst = try text(.expirationDatePst)
            preorderDate = try text(.preorderDate)
            preorderDateMs = try number(.preorderDateMs)
            preorderDatePst = try text(.preorderDatePst)
            inApp = try container.decodeIfPresent([InApp].self, forKey: .inApp)
        }

        private enum CodingKeys: String, CodingKey {
            case receiptType = "receipt_type"
            case adamId = "adam_id"
            case appItemId = "app_item_id"
            case bundleId = "bundle_id"
            case applicationVersion = "application_version"
            case downloadId = "download_id"
            case versionExternalIdentifier = "version_external_identifier"
            case receiptCreationDate = "receipt_creation_date"
            case receiptCreationDateMs = "receipt_creation_date_ms"
            case receiptCreationDatePst = "receipt_creation_date_pst"
            case requestDate = "request_date"
            case requestDateMs = "request_date_ms"
            case requestDatePst = "request_date_pst"
            case originalPurchaseDate = "original_purchase_date"
            case originalPurchaseDateMs = "original_purchase_date_ms"
            case originalPurchaseDatePst = "original_purchase_date_pst"
            case originalApplicationVersion = "original_application_version"
            case expirationDate = "expiration_date"
            case expirationDateMs = "expiration_date_ms"
            case expirationDatePst = "expiration_date_pst"
            case preorderDate = "preorder_date"
            case preorderDateMs = "preorder_date_ms"
            case preorderDatePst = "preorder_date_pst"
            case inApp = "in_app"
        }
    }
}

extension VerifyReceiptResponse.Receipt {
    /// `receipt_creation_date*` as a `Date`; setting it writes all three fields.
    public var receiptCreationDateValue: Date? {
        get {
            ReceiptDate.date(
                gmt: receiptCreationDate, milliseconds: receiptCreationDateMs,
                pst: receiptCreationDatePst)
        }
        set {
            (receiptCreationDate, receiptCreationDateMs, receiptCreationDatePst) =
                ReceiptDate.fields(newValue)
        }
    }

    /// `request_date*` as a `Date`; setting it writes all three fields.
    public var requestDateValue: Date? {
        get { ReceiptDate.date(gmt: requestDate, milliseconds: requestDateMs, pst: requestDatePst) }
        set { (requestDate, requestDateMs, requestDatePst) = ReceiptDate.fields(newValue) }
    }

    /// `original_purchase_date*` as a `Date`; setting it writes all three fields.
    public var originalPurchaseDateValue: Date? {
        get {
            ReceiptDate.date(
                gmt: originalPurchaseDate, milliseconds: originalPurchaseDateMs,
                pst: originalPurchaseDatePst)
        }
        set {
            (originalPurchaseDate, originalPurchaseDateMs, originalPurchaseDatePst) =
                ReceiptDate.fields(newValue)
        }
    }

    /// `expiration_date*` as a `Date`; setting it writes all three fields.
    public var expirationDateValue: Date? {
        get {
            ReceiptDate.date(
                gmt: expirationDate, milliseconds: expirationDateMs, pst: expirationDatePst)
        }
        set {
            (expirationDate, expirationDateMs, expirationDatePst) = ReceiptDate.fields(newValue)
        }
    }

    /// `preorder_date*` as a `Date`; setting it writes all three fields.
    public var preorderDateValue: Date? {
        get { ReceiptDate.date(gmt: preorderDate, milliseconds: preorderDateMs, pst: preorderDatePst) }
        set { (preorderDate, preorderDateMs, preorderDatePst) = ReceiptDate.fields(newValue) }
    }
}
