#ifndef STOREKEEPER_CSTOREKITCRYPTO_H
#define STOREKEEPER_CSTOREKITCRYPTO_H

#include <stddef.h>
#include <stdint.h>

/// What `skc_verify_es256_chain` found.
typedef enum {
    /// The chain verifies to the trusted root and the signature to the leaf's key.
    SKC_VERIFIED = 0,
    /// A certificate, the root or the signature could not be decoded.
    SKC_INVALID_ENCODING = 1,
    /// The chain does not verify to the trusted root, or a certificate lacks Apple's
    /// marker extension (leaf 1.2.840.113635.100.6.11.1, intermediate 1.2.840.113635.100.6.2.1).
    SKC_INVALID_CHAIN = 2,
    /// The signature does not verify with the leaf's P-256 key.
    SKC_INVALID_SIGNATURE = 3,
} skc_result;

/// Verifies a JWS signed with ES256 under an `x5c` chain: `leaf` and `intermediate` (DER)
/// must chain to `root` (DER, the only trusted certificate, whatever the JWS's own x5c
/// says), at the current time, and `signature` (64 bytes, r then s, as JWS encodes it)
/// must verify over `signing_input` (the JWS's `header.payload`) with the leaf's key.
skc_result skc_verify_es256_chain(
    const uint8_t *leaf, size_t leaf_length,
    const uint8_t *intermediate, size_t intermediate_length,
    const uint8_t *root, size_t root_length,
    const uint8_t *signing_input, size_t signing_input_length,
    const uint8_t *signature, size_t signature_length);

#endif
