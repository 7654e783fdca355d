// libFuzzer target: the PKCS#7 SignedData reader of app receipts.
//
// Arbitrary bytes go through what `ReceiptVerifier` does before it checks any signature:
// the container (BER or DER), the carried certificates and the signer lookup, then the
// receipt attributes in the signed content. Nothing may trap, hang or grow without bound;
// the parts the reader returns must lie inside the input.

import FuzzSupport

@testable import AppStoreVerification

@main
enum Entry {
    static func main() { LibFuzzer.run(fuzzReceiptContainer) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReceiptContainer(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = LibFuzzer.bytes(data, size)
    let bytes = Array(input)
    guard let container = try? PKCS7SignedData(berEncoded: bytes) else { return 0 }
    for part in [container.content, container.signerIdentifier, container.signature] + container.certificateEncodings {
        precondition(
            part.startIndex >= bytes.startIndex && part.endIndex <= bytes.endIndex,
            "a part of the container lies outside the input")
    }
    _ = try? container.parseCertificates()
    _ = try? ReceiptPayloadDecoder.decode(container.content)
    return 0
}
