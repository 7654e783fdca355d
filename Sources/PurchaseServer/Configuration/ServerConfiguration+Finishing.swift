extension ServerConfiguration {
    /// Whether the server finishes at Apple what it delivered without the app: as
    /// ``finishTransactionsAtApple`` says, on by default, and never without
    /// ``appStoreServerAPI``.
    ///
    /// On by default because a transaction nobody finishes leaves the customer stuck (the
    /// App Store keeps offering it to the app, and answers a new purchase of the product
    /// with "already purchased"), while finishing one the app finishes later is harmless:
    /// StoreKit's finish of a finished transaction does nothing.
    public var finishesTransactionsAtApple: Bool {
        appStoreServerAPI != nil && finishTransactionsAtApple != false
    }
}
